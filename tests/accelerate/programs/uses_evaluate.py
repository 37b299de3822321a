"""A program that loads evaluate's MT metrics by name; prints their outputs as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import evaluate

data = Path(sys.argv[1])
preds = (data / "wmt22.en-de/hyp.PROMT.de").read_text(encoding="utf-8").splitlines()[:200]
refs = (data / "wmt22.en-de/ref.A.de").read_text(encoding="utf-8").splitlines()[:200]
out = {}
for name in ["sacrebleu", "bleu", "google_bleu", "chrf", "ter"]:
    metric = evaluate.load(name)
    out[name] = metric.compute(predictions=preds, references=[[r] for r in refs])
    out[name + " by rapidbleu"] = "computed by rapidbleu" in metric.description
print(json.dumps(out, sort_keys=True))
