"""A program that scores summaries with rouge-score; prints its results as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from rouge_score import rouge_scorer, scoring

data = Path(sys.argv[1])
preds = (data / "wmt22.zh-en/hyp.NiuTrans.en").read_text(encoding="utf-8").splitlines()[:150]
refs = (data / "wmt22.zh-en/ref.A.en").read_text(encoding="utf-8").splitlines()[:150]
others = (data / "wmt22.zh-en/ref.B.en").read_text(encoding="utf-8").splitlines()[:150]

scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
aggregator = scoring.BootstrapAggregator()
out: dict[str, object] = {"items": []}
for pred, ref, other in zip(preds, refs, others):
    one = scorer.score(ref, pred)
    best = scorer.score_multi([ref, other], pred)
    aggregator.add_scores(best)
    out["items"].append({t: [list(one[t]), list(best[t])] for t in one})  # type: ignore[union-attr]
np.random.seed(3)
result = aggregator.aggregate()
out["aggregate"] = {t: [list(s) for s in agg] for t, agg in result.items()}
out["is_score"] = isinstance(one["rouge1"], scoring.Score)
out["next_random"] = np.random.random(3).tolist()
try:
    rouge_scorer.RougeScorer(["rouge0"]).score("a", "a")
except ValueError as e:  # rouge-score's own error, however it is answered
    out["error"] = type(e).__name__
print(json.dumps(out, sort_keys=True))
