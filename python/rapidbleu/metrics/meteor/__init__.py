"""METEOR as NLTK 3.10.4 computes it (``nltk.translate.meteor_score``).

Example:
    >>> from rapidbleu.metrics.meteor import METEOR
    >>> m = METEOR(wordnet=False)
    >>> m.score_tokens([["the", "cat", "sat"]], ["the", "cat", "sits"])
    0.625
"""

from rapidbleu.metrics.meteor.metric import METEOR
from rapidbleu.metrics.meteor.score import METEORScore, METEORSignature

__all__ = ["METEOR", "METEORScore", "METEORSignature"]
