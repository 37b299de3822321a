"""Accelerated names: a call runs on rapidbleu, and falls back to the real package when refused.

A function becomes :func:`accelerated_function`; a class becomes an :class:`AcceleratedClass`
(constructing it constructs rapidbleu's class; ``isinstance`` accepts instances of either
class; a class that inherits from it inherits from the *real* class, so that user subclasses,
which may override sacreBLEU's private methods, keep sacreBLEU's behaviour exactly).

"Refused" means a :class:`rapidbleu.errors.RapidBleuError`: an option value, an input or a
feature that rapidbleu does not take. The real package then gets the very same call: it
computes the result (never a different number: rapidbleu is exact where it answers) or raises
its own exception, as the program would have seen without the mode. Without the real package
the rapidbleu error (a named one) is raised.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from time import perf_counter
from typing import Any

from rapidbleu.accelerate.profile import PROFILE
from rapidbleu.errors import RapidBleuError

__all__ = ["AcceleratedClass", "accelerated", "accelerated_function"]


def _run(name: str, fast: Callable[..., Any], real: Any, args: Any, kwargs: Any) -> Any:
    start = perf_counter()
    try:
        result = fast(*args, **kwargs)
    except RapidBleuError:
        if real is None:
            raise
        start = perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            PROFILE.add(name, "fallback", perf_counter() - start)
    PROFILE.add(name, "rapidbleu", perf_counter() - start)
    return result


def accelerated_function(
    name: str, fast: Callable[..., Any], real: Callable[..., Any] | None
) -> Callable[..., Any]:
    """``fast`` under the real function's name, falling back to ``real`` when refused.

    Args:
        name: The dotted name reported (``sacrebleu.corpus_bleu``).
        fast: rapidbleu's function.
        real: The real package's function, or ``None`` when it is not installed.

    Example:
        >>> def fast(x):
        ...     if x < 0:
        ...         raise RapidBleuError("negative")
        ...     return x
        >>> f = accelerated_function("demo.f", fast, abs)
        >>> f(3), f(-3)
        (3, 3)
    """

    @functools.wraps(fast)
    def call(*args: Any, **kwargs: Any) -> Any:
        return _run(name, fast, real, args, kwargs)

    return call


class AcceleratedClass:
    """A class of the real package whose instances rapidbleu makes (see the module's notes).

    Attributes that are not about construction (``BLEU.TOKENIZER_DEFAULT``,
    ``BLEU.compute_bleu``, ...) are rapidbleu's class's.

    Args:
        name: The dotted name reported (``sacrebleu.metrics.bleu.BLEU``).
        fast: rapidbleu's class.
        real: The real package's class, or ``None`` when it is not installed.

    Example:
        >>> class Fast:
        ...     def __init__(self, k=1):
        ...         if k > 9:
        ...             raise RapidBleuError("too big")
        ...         self.k = k
        >>> class Real:
        ...     def __init__(self, k=1):
        ...         self.k = k
        >>> C = AcceleratedClass("demo.C", Fast, Real)
        >>> type(C(2)).__name__, type(C(10)).__name__, isinstance(C(10), C)
        ('Fast', 'Real', True)
        >>> class Mine(C):
        ...     pass
        >>> Mine.__mro__[1] is Real
        True
    """

    def __init__(self, name: str, fast: type, real: type | None) -> None:
        self._name = name
        self._fast = fast
        self._real = real
        functools.update_wrapper(self, fast, updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """An instance of rapidbleu's class, or of the real class when rapidbleu refuses."""
        return _run(self._name, self._fast, self._real, args, kwargs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return getattr(self._fast, attr)

    def _classes(self) -> tuple[type, ...]:
        return (self._fast,) if self._real is None else (self._fast, self._real)

    def __instancecheck__(self, obj: Any) -> bool:
        return isinstance(obj, self._classes())

    def __subclasscheck__(self, cls: type) -> bool:
        return issubclass(cls, self._classes())

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type]:
        return (self._fast if self._real is None else self._real,)

    def __repr__(self) -> str:
        return f"<accelerated class {self._name}>"


def accelerated(name: str, fast: Any, real: Any) -> Any:
    """The accelerated form of ``fast``: a class, a function, or ``fast`` itself (a value)."""
    if isinstance(fast, type):
        return AcceleratedClass(name, fast, real if isinstance(real, type) else None)
    if callable(fast):
        return accelerated_function(name, fast, real if callable(real) else None)
    return fast
