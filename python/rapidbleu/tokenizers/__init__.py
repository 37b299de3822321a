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

from typing import Protocol

__all__ = [
    "TOKENIZERS",
    "RUST_TOKENIZERS",
    "PYTHON_TOKENIZERS",
    "PythonTokenizer",
    "is_rust_tokenizer",
    "get_python_tokenizer",
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


def get_python_tokenizer(name: str, spm_model: str | None = None) -> PythonTokenizer:
    """Builds the Python tokenizer called ``name`` (one of :data:`PYTHON_TOKENIZERS`).

    Args:
        name: ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``, ``flores200`` or ``spBLEU-1K``.
        spm_model: For the SentencePiece tokenizers, the path of the model file. ``None`` looks
            in sacreBLEU's cache (``$SACREBLEU/models``, default ``~/.sacrebleu/models``).

    Raises:
        rapidbleu.errors.MissingDependencyError: the extra it needs is not installed.
        rapidbleu.errors.MissingModelError: no SentencePiece model file was found.
    """
    raise NotImplementedError(name)  # filled in by tokenizers/mecab.py and tokenizers/spm.py
