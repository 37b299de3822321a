"""chrF and chrF++ as sacreBLEU 2.6.0 computes them (``sacrebleu.metrics.chrf``).

:mod:`.metric` holds the :class:`CHRF` class, :mod:`.score` its score, signature and F-score
arithmetic, :mod:`.tokens` the token-ID path.

Example:
    >>> from rapidbleu.metrics.chrf import CHRF
    >>> CHRF().corpus_score(["abc"], [["abc"]]).score
    100.0
"""

from rapidbleu.metrics.chrf.metric import CHRF
from rapidbleu.metrics.chrf.score import CHRFScore, CHRFSignature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
