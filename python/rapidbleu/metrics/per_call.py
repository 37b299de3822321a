"""Per-item methods whose common case is one core call, answered before any other Python.

Programs call ``RougeScorer.score`` once per item, so a method's fixed cost is the cost. Such a
method starts with a fast path (one core call that neither logs, nor calls another
accelerated method, nor lets a :class:`rapidbleu.errors.RapidBleuError` out) and otherwise
returns its *general* method's result for the same arguments. :func:`answers_first` names that
general method, so that :mod:`rapidbleu.accelerate` can wrap the general method alone (its
fallback, log and nesting rules) and leave the fast path unwrapped: the wrapper's own Python
would cost as much as the core call.

Example:
    >>> class M:
    ...     @answers_first("_slow")
    ...     def f(self, x):
    ...         return x if x > 0 else self._slow(x)
    ...     def _slow(self, x):
    ...         return -x
    >>> M().f(-2), M.f.__rapidbleu_general__
    (2, '_slow')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["GENERAL", "answers_first"]

#: The attribute of a method marked by :func:`answers_first`: its general method's name.
GENERAL = "__rapidbleu_general__"

F = TypeVar("F", bound=Callable[..., object])


def answers_first(general: str) -> Callable[[F], F]:
    """Marks a method whose fast path answers first, and whose other calls are ``general``'s.

    Args:
        general: The name of the method, with the same parameters, that the marked method
            returns the result of whenever its fast path does not answer.
    """

    def mark(method: F) -> F:
        setattr(method, GENERAL, general)
        return method

    return mark
