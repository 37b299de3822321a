"""Old import path of :mod:`rapidbleu.analysis.selfbleu` (kept so that existing code works)."""

from rapidbleu.analysis.selfbleu import (
    CONVENTIONS,
    self_bleu,
    self_bleu_scores,
)

__all__ = ["CONVENTIONS", "self_bleu", "self_bleu_scores"]
