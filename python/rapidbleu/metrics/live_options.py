"""Options set as attributes after construction, honoured as the oracle honours them.

sacreBLEU and rouge-score read most options from ``self`` at call time, so a program may write
``bleu.lowercase = True`` after ``BLEU()`` and the next call lowercases. rapidbleu's metrics
check their options once into a frozen ``_core`` options object; :class:`Rebuilds` keeps the two
in step without a cost on any call: it is a class attribute with ``__set__`` and no ``__get__``,
so reading ``metric.lowercase`` is a plain instance-dict lookup (CPython's
``PyObject_GenericGetAttr`` returns the instance's value when the data descriptor has no
``__get__``), and only an assignment runs Python code. The value stays in the instance's
``__dict__`` under its own name, where sacreBLEU keeps it (``get_signature`` reads it there).

Once the metric is built (:func:`built`), an assignment calls the metric's
``_rebuild_options()``, which makes new ``_core`` options from the attributes as they are now.
Where that fails (a value the core does not take), or where the metric's state is one the
oracle would compute something odd from (:func:`refuse`), ``_options`` becomes a
:class:`Refused` stand-in that raises the :mod:`rapidbleu.errors` exception on the next call,
so that the call fails loudly (and in ``python -m rapidbleu.accelerate`` falls back to the real
package, which computes what it computes) instead of returning a different number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from rapidbleu.errors import InvalidOptionError, RapidBleuError

__all__ = ["Rebuilds", "Refused", "built", "refuse"]

#: The instance-dict key saying that construction is over (assignments now rebuild).
_BUILT = "_rapidbleu_built"


class Rebuilds:
    """An option attribute whose assignment after construction rebuilds the core's options.

    Example:
        >>> class M:
        ...     order = Rebuilds()
        ...     def __init__(self):
        ...         self.order = 4
        ...         self.rebuilt = 0
        ...         built(self)
        ...     def _rebuild_options(self):
        ...         self.rebuilt += 1
        >>> m = M()
        >>> m.order = 2
        >>> m.order, m.rebuilt, vars(m)["order"]
        (2, 1, 2)
    """

    if TYPE_CHECKING:  # for mypy only: at run time a read is the instance's own value

        def __get__(self, obj: Any, owner: Any) -> Any: ...

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __set__(self, obj: Any, value: Any) -> None:
        state = obj.__dict__
        state[self._name] = value
        if state.get(_BUILT):
            try:
                obj._rebuild_options()
            except RapidBleuError as e:
                state["_options"] = Refused(e)


def built(obj: Any) -> None:
    """Marks ``obj`` as constructed: from now on an assignment to a :class:`Rebuilds` rebuilds."""
    obj.__dict__[_BUILT] = True


def refuse(obj: Any, reason: str) -> None:
    """Makes every later call of ``obj`` raise :class:`InvalidOptionError` with ``reason``.

    Example:
        >>> class M:
        ...     pass
        >>> m = M()
        >>> refuse(m, "no")
        >>> m._options.statistics
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InvalidOptionError: no
    """
    obj.__dict__["_options"] = Refused(InvalidOptionError(reason))


class Refused:
    """Stands for a metric's ``_core`` options that cannot be made: any use raises ``error``."""

    def __init__(self, error: RapidBleuError) -> None:
        self._error = error

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):  # copy, pickle and friends probe for optional hooks
            raise AttributeError(name)
        raise type(self._error)(*self._error.args)

    def __reduce__(self) -> tuple[type[Refused], tuple[RapidBleuError]]:
        return (Refused, (self._error,))
