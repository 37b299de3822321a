"""Settings read from the environment: threads, seed and output format, in one place.

Every entry point (metrics, dialects, token IDs, significance tests, the command) asks this
module; nothing else reads these variables. The order of precedence is the same for each:

1. a value passed explicitly (``num_threads=``, ``seed=``, ``-f``);
2. the environment: ``RAPIDBLEU_NUM_THREADS``, ``SACREBLEU_SEED``, ``SACREBLEU_FORMAT``
   (sacreBLEU's own variables keep sacreBLEU's meaning; ``SACREBLEU_FORMAT`` overrides ``-f``,
   as in sacreBLEU);
3. the default: all cores, seed 12345, JSON.

Variables are read when a value is needed (a test may change them between calls), and a value
that cannot be used is an :class:`~rapidbleu.errors.InvalidOptionError` naming the variable.

Example:
    >>> num_threads(2)
    2
    >>> seed(7)
    ('7', 7)
"""

from __future__ import annotations

import operator
import os
import sys
from collections.abc import Collection
from types import ModuleType
from typing import Any, Union

from rapidbleu.errors import InvalidOptionError

__all__ = [
    "DEFAULT_SEED",
    "MAX_RESAMPLES",
    "MAX_THREADS",
    "Seed",
    "integer",
    "is_bool",
    "loaded_numpy",
    "num_threads",
    "output_format",
    "seed",
]

#: The most bootstrap resamples or randomisation trials one call draws (sacreBLEU's defaults
#: are 1,000 and 10,000): more only costs memory (every draw is held at once, as in sacreBLEU).
MAX_RESAMPLES = 10_000_000
#: The most threads the core is asked to run. More threads than this are never useful on a
#: machine of today and only cost memory and start-up time (each pool keeps its threads).
MAX_THREADS = 1024
#: sacreBLEU's default seed (``SACREBLEU_SEED``).
DEFAULT_SEED = 12345

#: A seed: an int, ``None`` (fresh entropy) or ``"env"`` (``$SACREBLEU_SEED``, the default).
Seed = Union[int, None, str]


def loaded_numpy() -> ModuleType | None:
    """NumPy if something has imported it already, else ``None``; it is not imported here.

    For type checks against NumPy's scalar types: a NumPy value exists only once NumPy is
    loaded, and the command's corpus path never loads it (it would be a third of its start-up).

    Example:
        >>> import numpy
        >>> loaded_numpy() is numpy
        True
    """
    return sys.modules.get("numpy")


def is_bool(value: Any) -> bool:
    """Whether ``value`` is a bool: Python's, or NumPy's (``np.True_``).

    Example:
        >>> import numpy as np
        >>> is_bool(np.False_), is_bool(True), is_bool(1)
        (True, True, False)
    """
    if isinstance(value, bool):
        return True
    np = loaded_numpy()
    return np is not None and isinstance(value, np.bool_)


def integer(value: Any) -> int | None:
    """``value`` as an int when it is an integer (an int or a NumPy integer), else ``None``.

    A bool is not an integer here (``True`` as a count or an ID is a mistake), nor is a float.

    Example:
        >>> import numpy as np
        >>> integer(np.int64(3)), integer(True), integer(3.0)
        (3, None, None)
    """
    if is_bool(value):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


_as_int = integer


def num_threads(value: Any = None) -> int:
    """Threads for the Rust core: ``value``, else ``$RAPIDBLEU_NUM_THREADS``, else 0 (all cores).

    Args:
        value: An explicit thread count (0: all cores, 1: the calling thread), or ``None``.

    Returns:
        A count between 0 and :data:`MAX_THREADS`.

    Raises:
        rapidbleu.errors.InvalidOptionError: Not an integer, negative, or above the bound.

    Example:
        >>> num_threads(0), num_threads(1)
        (0, 1)
    """
    what = "num_threads"
    if value is None:
        env = os.environ.get("RAPIDBLEU_NUM_THREADS", "").strip()
        if not env:
            return 0
        what = "RAPIDBLEU_NUM_THREADS"
        try:
            value = int(env)
        except ValueError:
            raise InvalidOptionError(
                f"RAPIDBLEU_NUM_THREADS must be an integer from 0 (all cores) to {MAX_THREADS}, "
                f"got {env!r}"
            ) from None
    n = _as_int(value)
    if n is None or not 0 <= n <= MAX_THREADS:
        raise InvalidOptionError(
            f"{what} must be an integer from 0 (all cores) to {MAX_THREADS}, got {value!r}"
        )
    return n


def seed(value: Seed = "env") -> tuple[str, int | None]:
    """A random seed and its text for signatures (sacreBLEU's ``seed:`` field).

    Args:
        value: ``"env"``: ``$SACREBLEU_SEED`` as sacreBLEU reads it (default 12345; ``none``
            for fresh entropy); or a non-negative int; or ``None`` (fresh entropy).

    Returns:
        ``(text, seed)``: the text sacreBLEU writes in signatures, and the seed for
        ``numpy.random.default_rng`` (``None``: entropy from the OS).

    Raises:
        rapidbleu.errors.InvalidOptionError: Not a non-negative integer (or ``none``).

    Example:
        >>> seed(None)
        ('none', None)
    """
    if isinstance(value, str) and value == "env":
        text = os.environ.get("SACREBLEU_SEED", str(DEFAULT_SEED))
        if text.lower() == "none":
            return "none", None
        try:
            n = int(text)
        except ValueError:
            n = -1
        if n < 0:
            raise InvalidOptionError(
                f"SACREBLEU_SEED must be a non-negative integer or 'none', got {text!r}"
            )
        return text.lower(), n
    if value is None:
        return "none", None
    given = _as_int(value)
    if given is None or given < 0:
        raise InvalidOptionError(
            "seed must be a non-negative integer, None (random) or 'env' ($SACREBLEU_SEED), "
            f"got {value!r}"
        )
    return str(given), given


def output_format(value: str, allowed: Collection[str]) -> str:
    """The command's output format: ``$SACREBLEU_FORMAT`` when one of ``allowed``, else ``value``.

    sacreBLEU lets the environment variable override ``-f`` (and ignores an invalid one).

    Args:
        value: The format asked for on the command line.
        allowed: The formats the variable may name (sacreBLEU's ``--format`` choices:
            :data:`rapidbleu.cli.formats.SACREBLEU_FORMATS`).

    Returns:
        One of ``allowed``, or ``value`` unchanged (the caller checks it).

    Example:
        >>> output_format("text", ("json", "text", "latex")) in ("json", "text", "latex")
        True
    """
    env = os.environ.get("SACREBLEU_FORMAT", "").lower()
    return env if env in allowed else value
