"""The metrics registry: each metric's name (``-m``) -> its class, one line per metric.

The command's ``-m`` choices and ``--help``, its per-metric option groups, ``--jsonl`` fields,
the report's default metrics and every other list of "the metrics" read this registry, and
nothing else: a :class:`~rapidbleu.metrics.base.Metric` subclass is listed only once
:func:`register` is called with it (never because it was defined, as subclass discovery would
do), under its ``cli_name``. A metric registered for a while (a test's toy metric) is added
and removed by :func:`registered`. The built-in metrics are those of
:data:`~rapidbleu.metrics.declarations.DECLARATIONS`, which also says what else each answers
(evaluate's names, the accelerator's module paths).

Example:
    >>> metric_names()
    ['bleu', 'chrf', 'meteor', 'rouge', 'ter']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.declarations import DECLARATIONS, resolve

__all__ = [
    "metric_class",
    "metric_classes",
    "metric_names",
    "register",
    "registered",
    "unregister",
]

M = TypeVar("M", bound=type[Metric[Any]])

#: A name the command line can take as one ``-m`` value and as part of an option's ``dest``.
_NAME = re.compile(r"[a-z][a-z0-9_]*")

_METRICS: dict[str, type[Metric[Any]]] = {}


def register(cls: M) -> M:
    """Registers the metric ``cls`` under its ``cli_name``; returns it (a class decorator).

    Registering the class that is already there is a no-op.

    Args:
        cls: A subclass of :class:`~rapidbleu.metrics.base.Metric` with a ``cli_name``.

    Returns:
        ``cls``.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``cls`` is not a metric class, its ``cli_name``
            is empty or not a lowercase name, or another class has that name.

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> register(BLEU) is BLEU
        True
    """
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise InvalidOptionError(f"register takes a Metric subclass, not {cls!r}")
    name = cls.cli_name
    if not (isinstance(name, str) and _NAME.fullmatch(name)):
        raise InvalidOptionError(
            f"{cls.__name__}.cli_name must be a lowercase name (letters, digits, _) to register "
            f"it, got {name!r}"
        )
    held = _METRICS.get(name)
    if held is not None and held is not cls:
        raise InvalidOptionError(
            f"the metric name {name!r} is taken by {held.__module__}.{held.__qualname__}; "
            "unregister it first"
        )
    _METRICS[name] = cls
    return cls


def unregister(name: str) -> None:
    """Removes the metric registered as ``name``.

    Raises:
        rapidbleu.errors.InvalidOptionError: No metric has that name.

    Example:
        >>> unregister("toy")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InvalidOptionError: no metric named 'toy'; registered: bleu, chrf, ...
    """
    if name not in _METRICS:
        raise InvalidOptionError(
            f"no metric named {name!r}; registered: " + ", ".join(metric_names())
        )
    del _METRICS[name]


@contextmanager
def registered(*classes: type[Metric[Any]]) -> Iterator[None]:
    """Registers ``classes`` for the ``with`` block only (what was registered before stays).

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> with registered(BLEU):
        ...     "bleu" in metric_names()
        True
    """
    added = [cls for cls in classes if _METRICS.get(cls.cli_name) is not cls]
    try:
        for cls in added:
            register(cls)
        yield
    finally:
        for cls in added:
            if _METRICS.get(cls.cli_name) is cls:
                del _METRICS[cls.cli_name]


def metric_names() -> list[str]:
    """The registered metrics' names, sorted (sacreBLEU's bleu, chrf, ter keep its order).

    Example:
        >>> metric_names()
        ['bleu', 'chrf', 'meteor', 'rouge', 'ter']
    """
    return sorted(_METRICS)


def metric_classes() -> dict[str, type[Metric[Any]]]:
    """The registered metric classes by name, sorted by name (a copy).

    Example:
        >>> metric_classes()["chrf"].__name__
        'CHRF'
    """
    return {name: _METRICS[name] for name in metric_names()}


def metric_class(name: str) -> type[Metric[Any]]:
    """The metric class registered as ``name``.

    Raises:
        rapidbleu.errors.InvalidOptionError: No metric has that name; the message lists those
            that do.

    Example:
        >>> metric_class("ter").__name__
        'TER'
    """
    try:
        return _METRICS[name]
    except KeyError:
        raise InvalidOptionError(
            f"unknown metric {name!r}; registered: " + ", ".join(metric_names())
        ) from None


# The built-in metrics (tests/metrics/test_metric_seam.py checks that each is registered under
# its declared name).
for _declared in DECLARATIONS:
    register(resolve(_declared.home))
