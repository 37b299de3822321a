"""Old import path of :mod:`rapidbleu.dialects.nltk` (kept so that existing code works)."""

from rapidbleu.dialects.nltk import (
    Fraction,
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    corpus_score,
    modified_precision,
    sentence_bleu,
    sentence_bleu_batch,
)

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_score",
    "modified_precision",
    "sentence_bleu",
    "sentence_bleu_batch",
]
