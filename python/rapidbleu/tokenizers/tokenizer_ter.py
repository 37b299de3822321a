"""``sacrebleu.tokenizers.tokenizer_ter``: ``TercomTokenizer``, run in Rust.

The steps are sacreBLEU's (``TercomTokenizer.__call__``): lowercase unless case-sensitive
(Python's ``str.lower()``, here too), Tercom's normalisation (with the Asian rules when asked),
punctuation removal, whitespace collapse. The Rust core does every step after lowercasing.

Example:
    >>> TercomTokenizer(normalized=True)("Jim's car.")
    "jim 's car ."
    >>> TercomTokenizer(no_punct=True).signature()
    'tercom'
"""

from __future__ import annotations

import rapidbleu._core as _core
from rapidbleu.errors import InputTypeError
from rapidbleu.tokenizers.tokenizer_base import BaseTokenizer

__all__ = ["TercomTokenizer"]


class TercomTokenizer(BaseTokenizer):
    """sacreBLEU's ``TercomTokenizer``, with its constructor arguments.

    Args:
        normalized: Tercom's normalisation (XML entities, punctuation tokenisation; with
            ``asian_support`` also CJK characters split one by one).
        no_punct: Remove punctuation (with ``asian_support`` also CJK and full-width marks).
        asian_support: The Asian rules; only with ``normalized`` and/or ``no_punct``.
        case_sensitive: Do not lowercase.

    Example:
        >>> TercomTokenizer(normalized=True, asian_support=True)("美众院公布对特")
        '美 众 院 公 布 对 特'
    """

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self._normalized = normalized
        self._no_punct = no_punct
        self._asian_support = asian_support
        self._case_sensitive = case_sensitive
        self._options = _core.TerOptions(
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        )

    @property
    def options(self) -> _core.TerOptions:
        """The core's options (``rapidbleu._core.TerOptions``)."""
        return self._options

    def __call__(self, sent: str) -> str:
        """The tokenized ``sent``, exactly as sacreBLEU's ``TercomTokenizer`` gives it.

        Raises:
            rapidbleu.errors.InputTypeError: ``sent`` is not a str.
        """
        if not isinstance(sent, str):
            raise InputTypeError(f"sent must be a str, not {type(sent).__name__}")
        if not sent:
            return ""
        if not self._case_sensitive and not sent.isascii():
            # Python's own Unicode tables (the core lowercases ASCII itself).
            sent = sent.lower()
        return self._options.tokenize(sent)

    def signature(self) -> str:
        """The ``tok:`` field of the signature."""
        return "tercom"
