"""BLEU as sacreBLEU 2.6.0 computes it (``sacrebleu.metrics.bleu``), on the Metric template.

The package mirrors the core's ``bleu/`` folder: :mod:`.metric` (the :class:`BLEU` class),
:mod:`.score` (its score, signature and the float arithmetic of sacreBLEU's
``compute_bleu``), :mod:`.options` (the command's options), :mod:`.tokenize` (tokenizer
choice and words), :mod:`.tokens` (token IDs) and :mod:`.recent_references` (references
counted once across calls).

Example:
    >>> from rapidbleu.metrics.bleu import BLEU
    >>> text = ["the cat sat on the mat"]
    >>> round(BLEU().corpus_score(text, [text]).score, 1)
    100.0
"""

from rapidbleu.metrics.bleu.metric import BLEU
from rapidbleu.metrics.bleu.score import MAX_NGRAM_ORDER, BLEUScore, BLEUSignature

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature"]
