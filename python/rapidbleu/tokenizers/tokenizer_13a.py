r"""``sacrebleu.tokenizers.tokenizer_13a``: ``Tokenizer13a`` (mteval-v13a), run in Rust.

Example:
    >>> Tokenizer13a()('It\'s 3.5$.')
    "It's 3.5 $ ."
"""

from __future__ import annotations

from rapidbleu.tokenizers.tokenizer_base import RustTokenizer

__all__ = ["Tokenizer13a"]


class Tokenizer13a(RustTokenizer):
    """sacreBLEU's ``Tokenizer13a``: the ``13a`` tokenizer."""

    name = "13a"
