"""``sacrebleu.tokenizers.tokenizer_intl``: ``TokenizerV14International`` (mteval-v14), run in Rust.

Example:
    >>> TokenizerV14International()('Grüße, «Welt»!')
    'Grüße , « Welt » !'
"""

from __future__ import annotations

from rapidbleu.tokenizers.tokenizer_base import RustTokenizer

__all__ = ["TokenizerV14International"]


class TokenizerV14International(RustTokenizer):
    """sacreBLEU's ``TokenizerV14International``: the ``intl`` tokenizer."""

    name = "intl"
