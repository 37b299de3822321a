"""``sacrebleu.tokenizers.tokenizer_none``: ``NoneTokenizer`` (the line as it is), run in Rust.

Example:
    >>> NoneTokenizer()('a  b')
    'a  b'
"""

from __future__ import annotations

from rapidbleu.tokenizers.tokenizer_base import RustTokenizer

__all__ = ["NoneTokenizer"]


class NoneTokenizer(RustTokenizer):
    """sacreBLEU's ``NoneTokenizer``: the ``none`` tokenizer."""

    name = "none"
