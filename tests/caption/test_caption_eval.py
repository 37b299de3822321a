"""rapidbleu.caption: the evaluation as users run it, against pycocoevalcap with ``==``."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from caption_data import generated
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

from rapidbleu.caption import evaluate
from rapidbleu.errors import InvalidOptionError

HERE = Path(__file__).resolve().parent


def test_coco_eval_cap_with_meteor_in_java() -> None:
    # The PTB tokenizer and METEOR 1.5 run in Java (pycocoevalcap's jars, Java 17).
    run = subprocess.run(
        [sys.executable, str(HERE / "coco_eval_script.py"), "60"],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().endswith("equal"), run.stdout + run.stderr[-3000:]


def test_evaluate_dicts() -> None:
    gts, res = generated(random.Random(3), 60, (1, 6), 8)
    scores, per_image = evaluate(gts, res)
    bleu, bleu_imgs = Bleu(4).compute_score(gts, res, verbose=0)
    rouge, rouge_imgs = Rouge().compute_score(gts, res)
    cider, cider_imgs = Cider().compute_score(gts, res)
    assert scores == {
        "Bleu_1": bleu[0],
        "Bleu_2": bleu[1],
        "Bleu_3": bleu[2],
        "Bleu_4": bleu[3],
        "ROUGE_L": rouge,
        "CIDEr": cider,
    }
    for i, key in enumerate(gts):
        assert per_image[key] == {
            "image_id": key,
            **{f"Bleu_{k + 1}": bleu_imgs[k][i] for k in range(4)},
            "ROUGE_L": rouge_imgs[i],
            "CIDEr": cider_imgs[i],
        }
    only, _ = evaluate(gts, res, ["CIDEr"])
    assert only == {"CIDEr": cider}
    with pytest.raises(InvalidOptionError, match="allowed"):
        evaluate(gts, res, ["BLEU"])
