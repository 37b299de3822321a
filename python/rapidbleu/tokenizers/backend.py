"""Which backend the MeCab and SentencePiece tokenizers run on: the core's or the binding's.

``engine`` runs the tokenizer's C/C++ library from the Rust core on many threads; ``python``
calls the Python binding line by line (sacreBLEU's path); ``auto`` takes the engine where it
can. Read from the argument, else ``$RAPIDBLEU_TOKENIZER_BACKEND``.

Example:
    >>> resolve_backend("engine")
    'engine'
"""

from __future__ import annotations

import os

from rapidbleu.errors import InvalidOptionError

__all__ = ["BACKENDS", "resolve_backend"]

#: Backends of the MeCab and SentencePiece tokenizers (see the module docs).
BACKENDS: tuple[str, ...] = ("auto", "engine", "python")


def resolve_backend(backend: str | None) -> str:
    """The backend to use: ``backend``, else ``$RAPIDBLEU_TOKENIZER_BACKEND``, else ``auto``.

    Args:
        backend: ``auto``, ``engine``, ``python`` or ``None``.

    Raises:
        InvalidOptionError: the value is not one of :data:`BACKENDS`.

    Example:
        >>> resolve_backend("python")
        'python'
    """
    where = "backend"
    if backend is None:
        where = "RAPIDBLEU_TOKENIZER_BACKEND"
        backend = os.environ.get("RAPIDBLEU_TOKENIZER_BACKEND", "") or "auto"
    if backend not in BACKENDS:
        raise InvalidOptionError(f"{where} must be one of {', '.join(BACKENDS)}, got {backend!r}")
    return backend
