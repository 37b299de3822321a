"""TER as sacreBLEU 2.6.0 computes it (``sacrebleu.metrics.ter``).

Example:
    >>> from rapidbleu.metrics.ter import TER
    >>> TER().corpus_score(["a b c"], [["a b d"]]).score
    33.33333333333333
"""

from rapidbleu.metrics.ter.metric import TER, TERScore, TERSignature

__all__ = ["TER", "TERScore", "TERSignature"]
