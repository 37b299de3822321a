"""Namespace modules: a real package's module path, answered with rapidbleu's names.

A namespace module holds the accelerated form (:func:`~rapidbleu.accelerate.proxies.accelerated`)
of each public name of rapidbleu's module of that shape; any other name is the real module's
(a private copy, :mod:`rapidbleu.accelerate.real`), so nothing a program uses goes missing.
Without the real package such a name raises :class:`NotAcceleratedError`, which names the
package to install.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from rapidbleu.accelerate.proxies import accelerated
from rapidbleu.accelerate.result_names import is_renamed, is_result, rename
from rapidbleu.errors import RapidBleuError

__all__ = ["NotAcceleratedError", "namespace_module", "public_names"]


class NotAcceleratedError(RapidBleuError, AttributeError):
    """A name of a real package that rapidbleu does not implement, and the package is missing.

    An ``AttributeError``, so that ``hasattr`` and ``getattr(module, name, default)`` work as on
    a module that lacks the name; the message says which package to install.
    """


def public_names(mod: ModuleType) -> list[str]:
    """``mod.__all__``, else its names that do not start with ``_``.

    Example:
        >>> import rapidbleu.metrics.helpers as h
        >>> "extract_all_word_ngrams" in public_names(h)
        True
    """
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return list(names)


def _own(value: Any) -> bool:
    """Whether ``value`` is rapidbleu's own function or class (not a re-exported helper)."""
    return str(getattr(value, "__module__", "")).startswith("rapidbleu")


def namespace_module(
    name: str, fast: ModuleType, real: ModuleType | None, package: str
) -> ModuleType:
    """The module ``name``: rapidbleu's names of ``fast``, the others from ``real``.

    Args:
        name: The real module path (``sacrebleu.metrics.bleu``).
        fast: rapidbleu's module of that shape.
        real: The real module (a private copy), or ``None`` when the package is not installed.
        package: What to install for names rapidbleu lacks (``sacrebleu==2.6.0``).

    Example:
        >>> import rapidbleu.metrics.helpers as h
        >>> ns = namespace_module("demo.helpers", h, None, "demo")
        >>> ns.extract_all_word_ngrams("a b a", 1, 1)[0]
        Counter({('a',): 2, ('b',): 1})
        >>> hasattr(ns, "no_such_name")
        False
    """
    ns = ModuleType(name, fast.__doc__)
    ns.__dict__["__rapidbleu_accelerated__"] = True
    for attr in public_names(fast):
        value = getattr(fast, attr)
        if isinstance(value, ModuleType):
            continue  # submodules are namespace modules of their own, set by the import
        # Exceptions and value types (named tuples: rouge-score's Score) are rapidbleu's as
        # they are: there is no call to fall back from.
        plain = isinstance(value, type) and issubclass(value, (BaseException, tuple))
        real_value = getattr(real, attr, None)
        own = _own(value) or (isinstance(value, type) and is_renamed(value))
        if own and isinstance(value, type) and isinstance(real_value, type):
            if is_result(value):  # `type(score)` shows the real class's names
                rename(value, real_value)
        if own and not plain:
            value = accelerated(f"{name}.{attr}", value, real_value)
        ns.__dict__[attr] = value

    def __getattr__(attr: str) -> Any:
        if real is not None and not attr.startswith("__rapidbleu"):
            try:
                return getattr(real, attr)
            except AttributeError:
                pass
        if attr.startswith("__"):
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        raise NotAcceleratedError(
            f"{name}.{attr} is not implemented by rapidbleu, and its fallback, the real "
            f"package, is not installed: pip install {package}"
        )

    ns.__dict__["__getattr__"] = __getattr__
    return ns
