"""Tokenizer names and the tokenizers that run in Python.

The tokenizers ``none``, ``zh``, ``13a``, ``intl`` and ``char`` run in Rust
(``rapidbleu._core``). ``ja-mecab`` and ``ko-mecab`` (MeCab) and ``spm``, ``flores101``,
``flores200`` and ``spBLEU-1K`` (SentencePiece) run in Python through optional extras; their
output is passed to Rust as pre-tokenized text (the ``none`` tokenizer).

Example:
    >>> from rapidbleu.tokenizers import TOKENIZERS, is_rust_tokenizer
    >>> "13a" in TOKENIZERS and is_rust_tokenizer("13a")
    True
"""

from __future__ import annotations

import os
from typing import Protocol

from rapidbleu.errors import InvalidOptionError

__all__ = [
    "PYTHON_TOKENIZERS",
    "RUST_TOKENIZERS",
    "TOKENIZERS",
    "PythonTokenizer",
    "get_python_tokenizer",
    "is_rust_tokenizer",
]

#: Tokenizers implemented in Rust, byte-identical to sacreBLEU 2.6.0.
RUST_TOKENIZERS: tuple[str, ...] = ("none", "zh", "13a", "intl", "char")
#: Tokenizers implemented in Python on top of optional dependencies.
PYTHON_TOKENIZERS: tuple[str, ...] = (
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
    "spBLEU-1K",
)
#: Every tokenizer name, in sacreBLEU's order (``BLEU.TOKENIZERS``).
TOKENIZERS: tuple[str, ...] = (
    "none",
    "zh",
    "13a",
    "intl",
    "char",
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
    "spBLEU-1K",
)


class PythonTokenizer(Protocol):
    """A tokenizer that runs in Python: ``tok(line)`` returns sacreBLEU's tokenized string."""

    def __call__(self, line: str) -> str:
        """Tokenizes one (lowercased if asked, ``rstrip()``-ed) segment."""
        ...

    def signature(self) -> str:
        """The ``tok:`` field of the signature, as sacreBLEU writes it."""
        ...


def is_rust_tokenizer(name: str) -> bool:
    """Whether ``name`` is one of the tokenizers implemented in Rust."""
    return name in RUST_TOKENIZERS


_MECAB: dict[str, PythonTokenizer] = {}


def get_python_tokenizer(
    name: str, spm_model: str | os.PathLike[str] | None = None
) -> PythonTokenizer:
    """Builds the Python tokenizer called ``name`` (one of :data:`PYTHON_TOKENIZERS`).

    The optional dependency is imported here, not when :mod:`rapidbleu` is imported.

    Args:
        name: ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``, ``flores200`` or ``spBLEU-1K``.
        spm_model: For the SentencePiece tokenizers, the path of the model file. ``None`` looks
            in sacreBLEU's cache (``$SACREBLEU/models``, default ``~/.sacrebleu/models``).
            rapidbleu never downloads a model.

    Returns:
        A tokenizer: ``tok(line)`` gives sacreBLEU's tokenized line, ``tok.signature()`` its
        ``tok:`` signature field.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``name`` is not a Python tokenizer, or
            ``spm_model`` was given for a MeCab tokenizer.
        rapidbleu.errors.MissingDependencyError: the extra it needs is not installed.
        rapidbleu.errors.MissingModelError: no SentencePiece model file was found.

    Example:
        >>> from rapidbleu.errors import InvalidOptionError
        >>> from rapidbleu.tokenizers import get_python_tokenizer
        >>> get_python_tokenizer("ja-mecab")("吾輩は猫である。")  # doctest: +SKIP
        '吾輩 は 猫 で ある 。'
        >>> try:
        ...     get_python_tokenizer("13a")
        ... except InvalidOptionError as e:
        ...     print(str(e).split(";")[0])
        '13a' is not a Python tokenizer (it runs in Rust)
    """
    # Imported here so that `import rapidbleu` never imports MeCab or sentencepiece.
    if name in ("ja-mecab", "ko-mecab"):
        if spm_model is not None:
            raise InvalidOptionError(
                "spm_model is only for the SentencePiece tokenizers "
                f"(spm, flores101, flores200, spBLEU-1K), not {name!r}"
            )
        # One shared instance per MeCab tokenizer, so that its line cache serves every BLEU
        # object, as sacreBLEU's class-level lru_cache does: scoring several systems against the
        # same references tokenizes the references once.
        if name not in _MECAB:
            from rapidbleu.tokenizers.mecab import TokenizerJaMecab, TokenizerKoMecab

            _MECAB[name] = TokenizerJaMecab() if name == "ja-mecab" else TokenizerKoMecab()
        return _MECAB[name]
    if name in PYTHON_TOKENIZERS:
        from rapidbleu.tokenizers.spm import TokenizerSPM

        return TokenizerSPM(name, spm_model=spm_model)
    where = " (it runs in Rust)" if name in RUST_TOKENIZERS else ""
    raise InvalidOptionError(
        f"{name!r} is not a Python tokenizer{where}; allowed: " + ", ".join(PYTHON_TOKENIZERS)
    )
