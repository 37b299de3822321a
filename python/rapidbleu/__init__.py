"""rapidbleu: sacreBLEU's BLEU, bit for bit, a hundred times faster.

``import rapidbleu as sacrebleu`` works for ``corpus_bleu``, ``sentence_bleu``,
``raw_corpus_bleu`` and ``metrics.BLEU``. The per-item API (:func:`bleu`,
:func:`bleu_per_item`) scores lists of ``{"candidate": ..., "references": [...]}`` items on a
0..1 scale.

Example:
    >>> import rapidbleu
    >>> score = rapidbleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
    >>> round(score.score, 2)
    53.73
"""

from rapidbleu import errors
from rapidbleu.compat.sacrebleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from rapidbleu.items import BleuResult, bleu, bleu_per_item
from rapidbleu.metrics import BLEU, BLEUScore
from rapidbleu.version import SIGNATURE_VERSION, __version__

__all__ = [
    "BLEU",
    "SIGNATURE_VERSION",
    "BLEUScore",
    "BleuResult",
    "__version__",
    "bleu",
    "bleu_per_item",
    "corpus_bleu",
    "errors",
    "raw_corpus_bleu",
    "sentence_bleu",
]
