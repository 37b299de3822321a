"""``sacrebleu.tokenizers.tokenizer_base``, and the class behind each tokenizer run in Rust.

``Tokenizer13a()(line)`` and the other classes at sacreBLEU's module paths
(``rapidbleu.tokenizers.tokenizer_13a``, ...) return exactly sacreBLEU's tokenized string;
the work is done by ``rapidbleu._core.tokenize``.

Example:
    >>> from rapidbleu.tokenizers.tokenizer_13a import Tokenizer13a
    >>> tok = Tokenizer13a()
    >>> tok("Hello, world!"), tok.signature()
    ('Hello , world !', '13a')
"""

from __future__ import annotations

from typing import ClassVar

import rapidbleu._core as _core

__all__ = ["BaseTokenizer", "RustTokenizer"]


class BaseTokenizer:
    """sacreBLEU's ``BaseTokenizer``: ``tok(line) -> str`` and ``tok.signature() -> str``."""

    def signature(self) -> str:
        """The ``tok:`` field of the signature."""
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        """Tokenizes one line."""
        raise NotImplementedError()


class RustTokenizer(BaseTokenizer):
    """A tokenizer of the Rust core, named by :attr:`name` (``13a``, ``intl``, ...)."""

    #: The tokenizer's name in ``rapidbleu._core`` and in the signature.
    name: ClassVar[str] = ""

    def signature(self) -> str:
        """The ``tok:`` field of the signature (the tokenizer's name)."""
        return self.name

    def __call__(self, line: str) -> str:
        """The tokenized ``line``, exactly as sacreBLEU's tokenizer gives it."""
        return _core.tokenize(self.name, line)
