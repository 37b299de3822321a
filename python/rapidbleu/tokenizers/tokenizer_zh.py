"""``sacrebleu.tokenizers.tokenizer_zh``: ``TokenizerZh`` (Chinese), run in Rust.

Example:
    >>> TokenizerZh()('我爱NLP。')
    '我 爱 NLP 。'
"""

from __future__ import annotations

from rapidbleu.tokenizers.tokenizer_base import RustTokenizer

__all__ = ["TokenizerZh"]


class TokenizerZh(RustTokenizer):
    """sacreBLEU's ``TokenizerZh``: the ``zh`` tokenizer."""

    name = "zh"
