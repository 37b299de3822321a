"""Old import path of :mod:`rapidbleu.dialects.sacrebleu_r` (kept so that existing code works)."""

from rapidbleu.dialects.sacrebleu_r import (
    bleu_corpus,
    bleu_corpus_ids,
    bleu_sentence,
    bleu_sentence_ids,
    corpus_score,
)

__all__ = ["bleu_corpus", "bleu_corpus_ids", "bleu_sentence", "bleu_sentence_ids", "corpus_score"]
