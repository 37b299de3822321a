"""SacreBLEU's ``sacrebleu.compat`` module shape: its functions, metric and score classes.

sacreBLEU's ``compat`` holds the functions (``corpus_bleu``, ...) and imports the metric and
score classes (``from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore``), so
``isinstance(score, sacrebleu.compat.BLEUScore)`` is how some programs check a score; its
package does not export the score classes, so they live here and not in the package's list.

Example:
    >>> from rapidbleu.sacrebleu import compat
    >>> isinstance(compat.corpus_bleu(["a b"], [["a b"]]), compat.BLEUScore)
    True
"""

from __future__ import annotations

from rapidbleu.metrics import BLEU, CHRF, TER
from rapidbleu.metrics.bleu import BLEUScore
from rapidbleu.metrics.chrf import CHRFScore
from rapidbleu.metrics.ter import TERScore
from rapidbleu.sacrebleu.functions import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "TERScore",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
