"""Metrics with sacreBLEU's class names (``sacrebleu.metrics``)."""

from rapidbleu.metrics.base import Score, Signature
from rapidbleu.metrics.bleu import BLEU, BLEUScore, BLEUSignature

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "Score", "Signature"]
