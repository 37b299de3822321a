"""``sacrebleu.tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab`` (extra ``ja``)."""

from rapidbleu.tokenizers.mecab import TokenizerJaMecab

__all__ = ["TokenizerJaMecab"]
