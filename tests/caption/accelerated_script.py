"""Run by test_caption_accelerate.py in a subprocess: pycocoevalcap's scorers imported
unchanged under ``rapidbleu.accelerate``; prints the results as JSON (floats by ``repr``)."""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys

import rapidbleu.accelerate
from rapidbleu.accelerate.profile import PROFILE

PROFILE.enabled = True  # count the calls (as a reported run does) without printing a report
rapidbleu.accelerate.install()

from caption_data import generated  # noqa: E402
from pycocoevalcap.bleu.bleu import Bleu  # noqa: E402
from pycocoevalcap.cider.cider import Cider  # noqa: E402
from pycocoevalcap.eval import COCOEvalCap  # noqa: E402
from pycocoevalcap.rouge.rouge import Rouge  # noqa: E402


def main() -> int:
    gts, res = generated(random.Random(int(sys.argv[1])), 40, (1, 5), 8)
    out: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        out["bleu"] = Bleu(4).compute_score(gts, res)
        # Not rapidbleu's: pycocoevalcap's own code answers (per-image lines printed).
        out["bleu_verbose2"] = Bleu(2).compute_score(gts, res, verbose=2)
    out["printed"] = printed.getvalue()
    mean, scores = Rouge().compute_score(gts, res)
    out["rouge"] = [float(mean), scores.tolist()]
    mean, scores = Cider().compute_score(gts, res)
    out["cider"] = [float(mean), scores.tolist()]
    try:
        Bleu(5).compute_score(gts, res, verbose=0)
    except IndexError:
        out["bleu5"] = "IndexError"
    try:
        Cider(n=3).compute_score(gts, res)
    except Exception as e:  # pycocoevalcap's own error
        out["cider3"] = type(e).__name__
    # Captions rapidbleu refuses (InputTypeError) are pycocoevalcap's: bytes it scores, a None
    # reference fails in its `.split()`.
    byte_gts = {k: [r.encode() for r in v] for k, v in gts.items()}
    byte_res = {k: [v[0].encode()] for k, v in res.items()}
    out["bleu_bytes"] = Bleu(4).compute_score(byte_gts, byte_res, verbose=0)
    try:
        Bleu(4).compute_score({1: [None]}, {1: ["a"]}, verbose=0)
    except AttributeError:
        out["none_reference"] = "AttributeError"
    out["isinstance"] = isinstance(Bleu(), Bleu) and COCOEvalCap.__name__ == "COCOEvalCap"
    out["profile"] = sorted({(r["name"], r["where"]) for r in PROFILE.rows()})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
