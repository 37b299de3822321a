"""Tokenizer names and the tokenizers that run outside the Rust tokenizer family.

The tokenizers ``none``, ``zh``, ``13a``, ``intl`` and ``char`` run in Rust
(``rapidbleu._core``). ``ja-mecab`` and ``ko-mecab`` (MeCab) and ``spm``, ``flores101``,
``flores200`` and ``spBLEU-1K`` (SentencePiece) come from optional extras; their output is
passed to the core as pre-tokenized text (the ``none`` tokenizer). Each has two backends, with
the same output for every line:

- ``engine`` (the default where available): whole batches at once on several threads with the
  GIL released. MeCab runs in the Rust core, which loads the MeCab C library bundled with the
  binding's wheel (:mod:`rapidbleu.tokenizers.mecab`); SentencePiece runs its own batch
  encoder (:mod:`rapidbleu.tokenizers.spm`).
- ``python``: one line at a time through the Python binding, exactly as sacreBLEU calls it.

``auto`` (the default) picks ``engine`` and falls back to ``python`` where the engine cannot run
(e.g. a MeCab binding without a bundled library): speed changes, numbers never do. The
backend is the tokenizer's ``backend=`` argument, else ``$RAPIDBLEU_TOKENIZER_BACKEND``.

Only BLEU uses these tokenizers. sacreBLEU 2.6.0's chrF takes no tokenizer at all (character
n-grams of the raw text, whitespace removed; word n-grams for chrF++ from ``str.split()``), and
its TER has only its own ``TercomTokenizer`` (``normalized``, ``no_punct``, ``asian_support``):
``ja-mecab``, ``ko-mecab`` and the SentencePiece tokenizers never reach either metric.

The names, and where each tokenizer runs, are in :mod:`rapidbleu.tokenizers.registry`.

Example:
    >>> from rapidbleu.tokenizers import rust_tokenizer
    >>> rust_tokenizer("13a")("Hello, world!")
    'Hello , world !'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol

from rapidbleu._lazy import submodule
from rapidbleu.errors import InvalidOptionError
from rapidbleu.tokenizers.backend import resolve_backend
from rapidbleu.tokenizers.registry import (
    PYTHON_TOKENIZERS,
    RUST_TOKENIZERS,
    SPM_TOKENIZERS,
    family,
    is_rust_tokenizer,
    tokenizer_class,
)

__all__ = [
    "PythonTokenizer",
    "Tokenizer",
    "get_python_tokenizer",
    "rust_tokenizer",
    "tokenize_batch",
]


class Tokenizer(Protocol):
    """sacreBLEU's tokenizer objects: ``tok(line)`` and ``tok.signature()``."""

    def __call__(self, line: str) -> str:
        """Tokenizes one (lowercased if asked, ``rstrip()``-ed) segment."""
        ...

    def signature(self) -> str:
        """The ``tok:`` field of the signature, as sacreBLEU writes it."""
        ...


class PythonTokenizer(Tokenizer, Protocol):
    """A tokenizer from an extra: ``tok(line)`` returns sacreBLEU's tokenized string."""

    def tokenize_batch(self, lines: Sequence[str], num_threads: int = 0) -> list[str]:
        """``[tok(line) for line in lines]``, on ``num_threads`` threads (0: all cores)."""
        ...

    def preprocess_batch(
        self, lines: Sequence[str | None], lowercase: bool = False, num_threads: int = 0
    ) -> Sequence[str | None]:
        """Each line as sacreBLEU's ``_preprocess_segment`` makes it (lower, rstrip, tokenize)."""
        ...


def tokenize_batch(
    tok: PythonTokenizer, lines: Sequence[str | None], num_threads: int = 0
) -> list[str | None]:
    """Tokenizes every line with ``tok`` in one batch; ``None`` (a missing reference) stays.

    This is what a metric calls instead of ``tok(line)`` per line: the lines go to
    ``tok.tokenize_batch`` at once (a tokenizer without that method is called per line).

    Args:
        tok: A tokenizer from :func:`get_python_tokenizer`.
        lines: Segments, already lowercased if asked and ``rstrip()``-ed, or ``None``.
        num_threads: Threads (0: all cores).

    Returns:
        ``[None if line is None else tok(line) for line in lines]``.

    Example:
        >>> class Upper:
        ...     def __call__(self, line: str) -> str:
        ...         return line.upper()
        >>> tokenize_batch(Upper(), ["a b", None, "c"])  # type: ignore[arg-type]
        ['A B', None, 'C']
    """
    batch = getattr(tok, "tokenize_batch", None)
    present = [line for line in lines if line is not None]
    done = iter(batch(present, num_threads) if batch is not None else map(tok, present))
    return [None if line is None else next(done) for line in lines]


def rust_tokenizer(name: str) -> Tokenizer:
    """The tokenizer object of the Rust tokenizer ``name``, as sacreBLEU builds it.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``name`` is not a Rust tokenizer.

    Example:
        >>> rust_tokenizer("13a")("Hello, world!")
        'Hello , world !'
    """
    if not is_rust_tokenizer(name):
        raise InvalidOptionError(
            f"{name!r} is not a Rust tokenizer; allowed: " + ", ".join(RUST_TOKENIZERS)
        )
    # Imported when asked for, as sacreBLEU's _get_tokenizer does.
    tok: Tokenizer = tokenizer_class(name)()
    return tok


#: Shared tokenizers: one per (name, backend) for MeCab, per (name, model file, backend) for
#: SentencePiece (see get_python_tokenizer).
_MECAB: dict[tuple[str, str], PythonTokenizer] = {}
_SPM: dict[tuple[str, str, int, int, str], PythonTokenizer] = {}


def get_python_tokenizer(
    name: str,
    spm_model: str | os.PathLike[str] | None = None,
    backend: str | None = None,
) -> PythonTokenizer:
    """Builds the Python tokenizer ``name`` (a ``mecab`` or ``spm`` one of the registry).

    The optional dependency is imported here, not when :mod:`rapidbleu` is imported.

    Args:
        name: ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``, ``flores200`` or ``spBLEU-1K``.
        spm_model: For the SentencePiece tokenizers, the path of the model file. ``None`` looks
            in sacreBLEU's cache (``$SACREBLEU/models``, default ``~/.sacrebleu/models``).
            rapidbleu never downloads a model.
        backend: ``auto``, ``engine`` or ``python`` (see the module docs); ``None`` reads
            ``$RAPIDBLEU_TOKENIZER_BACKEND`` (default ``auto``).

    Returns:
        A tokenizer: ``tok(line)`` gives sacreBLEU's tokenized line, ``tok.signature()`` its
        ``tok:`` signature field.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``name`` is not a Python tokenizer,
            ``spm_model`` was given for a MeCab tokenizer, or ``backend`` is unknown.
        rapidbleu.errors.MissingDependencyError: the extra it needs is not installed.
        rapidbleu.errors.MissingModelError: no SentencePiece model file was found.

    Example:
        >>> from rapidbleu.errors import InvalidOptionError
        >>> from rapidbleu.tokenizers import get_python_tokenizer
        >>> get_python_tokenizer("ja-mecab")("吾輩は猫である。")  # needs the ja extra
        '吾輩 は 猫 で ある 。'
        >>> try:
        ...     get_python_tokenizer("13a")
        ... except InvalidOptionError as e:
        ...     print(str(e).split(";")[0])
        '13a' is not a Python tokenizer (it runs in Rust)
    """
    # Imported here so that `import rapidbleu` never imports MeCab or sentencepiece.
    kind = family(name) if name in PYTHON_TOKENIZERS else None
    if kind == "mecab":
        if spm_model is not None:
            raise InvalidOptionError(
                "spm_model is only for the SentencePiece tokenizers "
                f"({', '.join(SPM_TOKENIZERS)}), not {name!r}"
            )
        # One shared instance per MeCab tokenizer, so that its line cache serves every BLEU
        # object, as sacreBLEU's class-level lru_cache does: scoring several systems against the
        # same references tokenizes the references once.
        key = (name, resolve_backend(backend))
        if key not in _MECAB:
            _MECAB[key] = tokenizer_class(name)(backend=key[1])
        return _MECAB[key]
    if kind == "spm":
        from rapidbleu.tokenizers.spm import TokenizerSPM, sharing_key, warn_spm_alias

        # Shared like the MeCab tokenizers, per model file as it is now on disk (a file
        # replaced in place gets a new tokenizer); sacreBLEU's deprecation warning for 'spm'
        # is still given on every request, as sacreBLEU gives it for every tokenizer built.
        choice = resolve_backend(backend)
        spm_key, path = sharing_key(name, spm_model, choice)
        if spm_key in _SPM:
            warn_spm_alias(name)
        else:
            _SPM[spm_key] = TokenizerSPM(name, spm_model=path, backend=choice)
        return _SPM[spm_key]
    where = " (it runs in Rust)" if is_rust_tokenizer(name) else ""
    raise InvalidOptionError(
        f"{name!r} is not a Python tokenizer{where}; allowed: " + ", ".join(PYTHON_TOKENIZERS)
    )


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.tokenizers.<submodule>`, imported when named
