"""``sacrebleu.tokenizers.tokenizer_char``: ``TokenizerChar`` (one token a character), run in Rust.

Example:
    >>> TokenizerChar()('abc')
    'a b c'
"""

from __future__ import annotations

from rapidbleu.tokenizers.tokenizer_base import RustTokenizer

__all__ = ["TokenizerChar"]


class TokenizerChar(RustTokenizer):
    """sacreBLEU's ``TokenizerChar``: the ``char`` tokenizer."""

    name = "char"
