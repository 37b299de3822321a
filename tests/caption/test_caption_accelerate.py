"""The accelerator answers pycocoevalcap's Bleu, Rouge, Cider and COCOEvalCap with rapidbleu's,
same numbers (``==``), same printed text, and pycocoevalcap's own code for what rapidbleu
refuses (Bleu(5), verbose=2, Cider(n=3), captions that are not str)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from caption_data import generated
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

HERE = Path(__file__).resolve().parent


def test_unchanged_program_runs_on_rapidbleu() -> None:
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    run = subprocess.run(
        [sys.executable, str(HERE / "accelerated_script.py"), "11"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    gts, res = generated(random.Random(11), 40, (1, 5), 8)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        bleu = Bleu(4).compute_score(gts, res)
        bleu2 = Bleu(2).compute_score(gts, res, verbose=2)
    assert got["bleu"] == [list(bleu[0]), [list(s) for s in bleu[1]]]
    assert got["bleu_verbose2"] == [list(bleu2[0]), [list(s) for s in bleu2[1]]]
    assert got["printed"] == printed.getvalue()
    mean, scores = Rouge().compute_score(gts, res)
    assert got["rouge"] == [float(mean), scores.tolist()]
    mean, scores = Cider().compute_score(gts, res)
    assert got["cider"] == [float(mean), scores.tolist()]
    assert got["bleu5"] == "IndexError" and got["cider3"] == "IndexError"
    byte_gts = {k: [r.encode() for r in v] for k, v in gts.items()}
    byte_res = {k: [v[0].encode()] for k, v in res.items()}
    theirs = Bleu(4).compute_score(byte_gts, byte_res, verbose=0)
    assert got["bleu_bytes"] == [list(theirs[0]), [list(s) for s in theirs[1]]]
    assert got["none_reference"] == "AttributeError"
    assert got["isinstance"] is True
    where = {tuple(p) for p in got["profile"]}
    assert ("pycocoevalcap.bleu.bleu.Bleu.compute_score", "rapidbleu") in where
    assert ("pycocoevalcap.bleu.bleu.Bleu.compute_score", "fallback") in where
    assert ("pycocoevalcap.rouge.rouge.Rouge.compute_score", "rapidbleu") in where
    assert ("pycocoevalcap.cider.cider.Cider.compute_score", "rapidbleu") in where
