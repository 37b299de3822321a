"""ROUGE as Google's rouge-score 0.1.2 computes it.

:mod:`.metric` holds the :class:`ROUGE` class (the Metric template), :mod:`.score` its score
and signature, and two modules mirror rouge-score's own: :mod:`.rouge_scorer`
(``rouge_score.rouge_scorer.RougeScorer``) and :mod:`.scoring` (``rouge_score.scoring``).

Example:
    >>> from rapidbleu.metrics.rouge import ROUGE
    >>> ROUGE(["rouge1"]).score("a b", "a b")["rouge1"].fmeasure
    1.0
"""

from rapidbleu.metrics.rouge.metric import ROUGE
from rapidbleu.metrics.rouge.score import ROUGEScore, ROUGESignature

__all__ = ["ROUGE", "ROUGEScore", "ROUGESignature"]
