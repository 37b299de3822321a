"""``sacrebleu.tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab`` (extra ``ko``)."""

from rapidbleu.tokenizers.mecab import TokenizerKoMecab

__all__ = ["TokenizerKoMecab"]
