"""In accelerator mode, the classes of rapidbleu's results carry the real classes' names.

A program prints ``type(score)``, logs ``type(score).__module__`` or compares it: without the
mode it reads ``sacrebleu.metrics.bleu.BLEUScore`` (``rouge_score.scoring.Score``). When a
namespace module is made (:mod:`rapidbleu.accelerate.namespace`), each class of rapidbleu's
results that it exports (a :class:`~rapidbleu.metrics.score.Score` or
:class:`~rapidbleu.metrics.score.Signature` subclass, a named tuple) takes the real class's
module and qualified name, and :func:`restore` gives them back at ``uninstall()``. So do the
tokenizer classes (``print(bleu.tokenizer)``).

Pickling is unchanged: a named tuple is found under its real name, where the mode's module
holds this very class (and where a process without the mode finds the real package's class,
of the same fields); any other renamed class pickles its instances through
:mod:`copyreg`, by its home in rapidbleu (:func:`rebuild`), so the accelerated class of the
same name is never looked up.

Example:
    >>> from rapidbleu.metrics.chrf import CHRFScore
    >>> class Real:
    ...     __module__ = "_rapidbleu_real.sacrebleu.metrics.chrf"
    ...     __qualname__ = "CHRFScore"
    >>> rename(CHRFScore, Real)
    >>> CHRFScore.__module__
    'sacrebleu.metrics.chrf'
    >>> restore(); CHRFScore.__module__
    'rapidbleu.metrics.chrf.score'
"""

from __future__ import annotations

import copyreg
import importlib
import sys
from typing import Any

from rapidbleu.accelerate.real import PREFIX, public_name

__all__ = ["home", "is_renamed", "is_result", "rebuild", "rename", "rename_private", "restore"]

PRIVATE = f"{PREFIX}."

#: Each renamed class -> its own (module, qualified name).
_HOMES: dict[type, tuple[str, str]] = {}


def is_result(cls: type) -> bool:
    """Whether ``cls`` is a class of rapidbleu's results or their parts.

    A score, a signature, a named tuple, or a tokenizer (what ``BLEU.tokenizer`` gives).
    """
    from rapidbleu.metrics.score import Score, Signature
    from rapidbleu.tokenizers.tokenizer_base import BaseTokenizer

    return issubclass(cls, (Score, Signature, tuple, BaseTokenizer))


def is_renamed(cls: type) -> bool:
    """Whether ``cls`` is one of rapidbleu's classes that carries a real class's names now."""
    return cls in _HOMES


def home(cls: type) -> tuple[str, str]:
    """Where ``cls`` lives in rapidbleu: its module and qualified name, renamed or not.

    Example:
        >>> from rapidbleu.metrics.chrf import CHRF
        >>> home(CHRF)
        ('rapidbleu.metrics.chrf.metric', 'CHRF')
    """
    return _HOMES.get(cls, (cls.__module__, cls.__qualname__))


def rename(fast: type, real: type) -> None:
    """Gives ``fast`` the real class's module (without the private prefix) and qualified name."""
    if fast not in _HOMES:
        _HOMES[fast] = (fast.__module__, fast.__qualname__)
        if not issubclass(fast, tuple):
            copyreg.pickle(fast, _reduce)
    fast.__module__ = public_name(real.__module__)
    fast.__qualname__ = real.__qualname__


def rename_private(value: Any) -> None:
    """Gives the real package's classes of a fallback's ``value`` their public names.

    A fallback runs the private copy of the real package (:mod:`rapidbleu.accelerate.real`),
    whose classes' module paths start with ``_rapidbleu_real.``: the object a program gets (a
    score, a metric object, a list or dict of scores) shows the real package's own names. Named
    tuples keep theirs (pickle finds a named tuple by its name, which is the mode's class).
    """
    first = value
    if isinstance(value, (list, tuple)) and value and type(value) in (list, tuple):
        first = value[0]
    elif type(value) is dict and value:
        first = next(iter(value.values()))
    parts = list(vars(value).values()) if hasattr(value, "__dict__") else []
    for obj in (value, first, *parts):  # a metric object's parts: its tokenizer
        module = type(obj).__module__
        if module.startswith(PRIVATE):
            # Its module's other classes too: a real metric object's results are made there.
            for cls in list(vars(sys.modules.get(module, object)).values()):
                if (
                    isinstance(cls, type)
                    and cls.__module__ == module
                    and not issubclass(cls, (tuple, BaseException))
                ):
                    rename(cls, cls)


def restore() -> None:
    """Gives every renamed class its own names back (``uninstall()``)."""
    for cls, (module, qualname) in _HOMES.items():
        cls.__module__, cls.__qualname__ = module, qualname
        copyreg.dispatch_table.pop(cls, None)
    _HOMES.clear()


def _reduce(obj: Any) -> tuple[Any, ...]:
    return (rebuild, home(type(obj)), dict(vars(obj)))


def rebuild(module: str, qualname: str) -> Any:
    """An empty instance of the class ``module.qualname`` (pickle sets its state after).

    Example:
        >>> type(rebuild("rapidbleu.metrics.chrf.score", "CHRFScore")).__name__
        'CHRFScore'
    """
    try:
        cls = getattr(importlib.import_module(module), qualname)
    except ImportError:  # a private copy's class, in a process that has not loaded the copy
        cls = getattr(importlib.import_module(public_name(module)), qualname)
        cls = getattr(cls, "_real", None) or cls  # the mode's form of it: the real class
    return cls.__new__(cls)
