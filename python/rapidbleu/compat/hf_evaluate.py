"""Old import path of :mod:`rapidbleu.dialects.hf_evaluate` (kept so that existing code works)."""

from rapidbleu.dialects.hf_evaluate import compute, compute_bleu, corpus_score

__all__ = ["compute", "compute_bleu", "corpus_score"]
