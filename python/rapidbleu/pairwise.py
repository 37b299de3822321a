"""Old import path of :mod:`rapidbleu.analysis.pairwise` (kept so that existing code works)."""

from rapidbleu.analysis.pairwise import (
    aggregate_mbr_scores,
    aggregate_mbr_statistics,
    mbr_select,
    pairwise_bleu,
    pairwise_bleu_batch,
    pairwise_scores,
)

__all__ = [
    "aggregate_mbr_scores",
    "aggregate_mbr_statistics",
    "mbr_select",
    "pairwise_bleu",
    "pairwise_bleu_batch",
    "pairwise_scores",
]
