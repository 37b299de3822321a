"""Run by test_caption_eval.py in a subprocess (Java: the PTB tokenizer and METEOR 1.5):
pycocoevalcap's COCOEvalCap (SPICE replaced by a stub, since its Stanford models are a download)
against rapidbleu.caption.COCOEvalCap without SPICE (one METEOR process serves both), on real
text. Prints "equal" when the ``eval`` and ``imgToEval`` dicts (SPICE left out) and the printed
lines are equal."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import pycocoevalcap.eval as real_eval
import pycocoevalcap.meteor.meteor as real_meteor
from pycocotools.coco import COCO

import rapidbleu.caption

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt17.en-de"


class _NoSpice:
    def compute_score(self, gts: Any, res: Any) -> tuple[float, list[float]]:
        return 0.0, [0.0] * len(gts)

    def method(self) -> str:
        return "SPICE"


def cocos(n: int) -> tuple[COCO, COCO]:
    def lines(name: str) -> list[str]:
        return (DATA / name).read_text(encoding="utf-8").split("\n")[:n]

    refs = [lines(f) for f in ("ref.A.de", "hyp.FBK.4870.de", "hyp.online-A.0.de")]
    hyps = lines("hyp.uedin-nmt.4722.de")
    anns = [
        {"id": len(refs) * i + r, "image_id": 100 + i, "caption": refs[r][i]}
        for i in range(n)
        for r in range(len(refs))
    ]
    coco = COCO()
    coco.dataset = {"images": [{"id": 100 + i} for i in range(n)], "annotations": anns}
    with contextlib.redirect_stdout(io.StringIO()):
        coco.createIndex()
        res = coco.loadRes([{"image_id": 100 + i, "caption": hyps[i]} for i in range(n)])
    return coco, res


def main() -> int:
    coco, res = cocos(int(sys.argv[1]))
    real_eval.Spice = _NoSpice  # type: ignore[attr-defined,misc]
    # One METEOR JVM for both evaluations (it loads its paraphrase tables for ~25 s): METEOR is
    # pycocoevalcap's own code in both, and each evaluation still calls it.
    shared = real_meteor.Meteor()
    real_eval.Meteor = real_meteor.Meteor = lambda: shared  # type: ignore[assignment,misc]
    theirs = real_eval.COCOEvalCap(coco, res)
    out_theirs = io.StringIO()
    with contextlib.redirect_stdout(out_theirs):
        theirs.evaluate()
    ours = rapidbleu.caption.COCOEvalCap(coco, res, scorers=("Bleu", "METEOR", "ROUGE_L", "CIDEr"))
    out_ours = io.StringIO()
    with contextlib.redirect_stdout(out_ours):
        ours.evaluate()
    their_eval = {k: v for k, v in theirs.eval.items() if k != "SPICE"}
    their_imgs = {
        i: {k: v for k, v in e.items() if k != "SPICE"} for i, e in theirs.imgToEval.items()
    }
    their_text = out_theirs.getvalue().split("computing SPICE")[0]
    checks = {
        "eval": ours.eval == their_eval and list(ours.eval) == list(their_eval),
        "types": [type(v) for v in ours.eval.values()] == [type(v) for v in their_eval.values()],
        "imgToEval": ours.imgToEval == their_imgs,
        "evalImgs": ours.evalImgs == list(their_imgs.values()),
        "printed": out_ours.getvalue() == their_text,
        "meteor": 0 < ours.eval["METEOR"] < 1,
    }
    print(checks)
    print("equal" if all(checks.values()) else "DIFFERENT")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
