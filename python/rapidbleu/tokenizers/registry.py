"""The tokenizer registry: each tokenizer name (``-tok``) -> where it runs and its class.

One line per tokenizer, in sacreBLEU's order (its ``BLEU.TOKENIZERS``), with the class at
sacreBLEU's module path (its ``_TOKENIZERS`` table, relative to :mod:`rapidbleu.tokenizers`).
Every list of tokenizer names (BLEU's ``TOKENIZERS`` and ``-tok`` choices, the Rust and the
Python families, the error messages that list them) is read from here.

- ``rust``: runs in the Rust core (``rapidbleu._core.TOKENIZERS``); the class is a thin
  :class:`~rapidbleu.tokenizers.tokenizer_base.RustTokenizer`.
- ``mecab`` and ``spm``: built in Python from an extra
  (:func:`rapidbleu.tokenizers.get_python_tokenizer`); their output reaches the core as
  pre-tokenized text.

Example:
    >>> TOKENIZERS[:3], family("ja-mecab"), is_rust_tokenizer("13a")
    (('none', 'zh', '13a'), 'mecab', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from rapidbleu._lazy import submodule
from rapidbleu.errors import InvalidOptionError

__all__ = [
    "PYTHON_TOKENIZERS",
    "RUST_TOKENIZERS",
    "SPM_TOKENIZERS",
    "TOKENIZERS",
    "Family",
    "family",
    "is_rust_tokenizer",
    "tokenizer_class",
]

#: Where a tokenizer runs: in the Rust core, or in Python on MeCab or SentencePiece.
Family = Literal["rust", "mecab", "spm"]

#: Name -> (family, class at sacreBLEU's module path below ``rapidbleu.tokenizers``).
_REGISTRY: Mapping[str, tuple[Family, str]] = MappingProxyType(
    {
        "none": ("rust", "tokenizer_none.NoneTokenizer"),
        "zh": ("rust", "tokenizer_zh.TokenizerZh"),
        "13a": ("rust", "tokenizer_13a.Tokenizer13a"),
        "intl": ("rust", "tokenizer_intl.TokenizerV14International"),
        "char": ("rust", "tokenizer_char.TokenizerChar"),
        "ja-mecab": ("mecab", "tokenizer_ja_mecab.TokenizerJaMecab"),
        "ko-mecab": ("mecab", "tokenizer_ko_mecab.TokenizerKoMecab"),
        "spm": ("spm", "tokenizer_spm.TokenizerSPM"),
        "flores101": ("spm", "tokenizer_spm.Flores101Tokenizer"),
        "flores200": ("spm", "tokenizer_spm.Flores200Tokenizer"),
        "spBLEU-1K": ("spm", "tokenizer_spm.spBLEU1KTokenizer"),
    }
)

#: Every tokenizer name, in sacreBLEU's order (``BLEU.TOKENIZERS``).
TOKENIZERS: tuple[str, ...] = tuple(_REGISTRY)
#: Tokenizers implemented in Rust, byte-identical to sacreBLEU 2.6.0.
RUST_TOKENIZERS: tuple[str, ...] = tuple(n for n, (f, _) in _REGISTRY.items() if f == "rust")
#: Tokenizers implemented in Python on top of optional dependencies.
PYTHON_TOKENIZERS: tuple[str, ...] = tuple(n for n in TOKENIZERS if n not in RUST_TOKENIZERS)
#: The SentencePiece tokenizers (the ones that take a model file).
SPM_TOKENIZERS: tuple[str, ...] = tuple(n for n, (f, _) in _REGISTRY.items() if f == "spm")


def family(name: str) -> Family:
    """Where the tokenizer ``name`` runs: ``rust``, ``mecab`` or ``spm``.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``name`` is not a tokenizer; the message lists
            the tokenizers.

    Example:
        >>> family("flores200")
        'spm'
    """
    try:
        return _REGISTRY[name][0]
    except (KeyError, TypeError):
        raise InvalidOptionError(
            f"unknown tokenizer {name!r}; allowed: " + ", ".join(TOKENIZERS)
        ) from None


def is_rust_tokenizer(name: str) -> bool:
    """Whether ``name`` is one of the tokenizers implemented in Rust.

    Example:
        >>> is_rust_tokenizer("intl"), is_rust_tokenizer("ja-mecab"), is_rust_tokenizer("x")
        (True, False, False)
    """
    return name in RUST_TOKENIZERS


def tokenizer_class(name: str) -> Any:
    """The class of tokenizer ``name`` at sacreBLEU's module path (imported when asked for).

    Importing the class of a Python tokenizer does not import its extra.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``name`` is not a tokenizer.

    Example:
        >>> tokenizer_class("13a").__name__
        'Tokenizer13a'
    """
    family(name)
    module, cls = _REGISTRY[name][1].split(".")
    return getattr(submodule("rapidbleu.tokenizers", module), cls)
