"""A program written for sacreBLEU: scores the example files and prints the results.

``python examples/score_with_sacrebleu.py`` runs it on sacreBLEU (when installed);
``python -m rapidbleu.accelerate examples/score_with_sacrebleu.py`` runs it, unchanged, on
rapidbleu, with the same output (docs/accelerate.md).
"""

from __future__ import annotations

from pathlib import Path

import sacrebleu
from sacrebleu.metrics import CHRF

HERE = Path(__file__).resolve().parent


def lines(name: str) -> list[str]:
    return (HERE / name).read_text(encoding="utf-8").splitlines()


hyps = lines("hyp.en")
refs = [lines("ref.en"), lines("ref2.en")]
print(sacrebleu.corpus_bleu(hyps, refs))
print(CHRF(word_order=2).corpus_score(hyps, refs))
