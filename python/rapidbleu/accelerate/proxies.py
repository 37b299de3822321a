"""Accelerated names: a call runs on rapidbleu, and falls back to the real package when refused.

A function becomes :func:`accelerated_function`; a class becomes an :class:`AcceleratedClass`
(constructing it constructs rapidbleu's class, in a subclass whose public methods fall back to
an instance of the real class built with the same arguments; ``isinstance`` accepts instances
of either class; a class that inherits from it inherits from the *real* class, so that user
subclasses, which may override sacreBLEU's private methods, keep sacreBLEU's behaviour).

"Refused" means a :class:`rapidbleu.errors.RapidBleuError`: an option value, an input or a
feature that rapidbleu does not take. The real package then gets the very same call: it
computes the result (never a different number: rapidbleu is exact where it answers) or raises
its own exception, as the program would have seen without the mode. Without the real package
the rapidbleu error (a named one) is raised.
"""

from __future__ import annotations

import functools
import inspect
import threading
import warnings
from collections.abc import Callable
from time import perf_counter
from typing import Any

from rapidbleu.accelerate.logs import held, release
from rapidbleu.accelerate.nesting import CORPUS_CALLS, warn_if_nested
from rapidbleu.accelerate.profile import PROFILE
from rapidbleu.accelerate.result_names import home, rename_private
from rapidbleu.errors import LengthMismatchError, RapidBleuError
from rapidbleu.metrics.per_call import GENERAL

__all__ = ["AcceleratedClass", "accelerated", "accelerated_function"]

#: Where an instance keeps its constructor's arguments and, once built, its real twin.
_ARGS = "_rapidbleu_accelerate_args"
_TWIN = "_rapidbleu_accelerate_twin"
#: The public attributes as the constructor left them (those changed since go to the twin).
_AS_BUILT = "_rapidbleu_accelerate_as_built"


#: Whether this thread is inside an accelerated call already (``score`` calls ``score_multi``):
#: an inner call is part of the outer one, which is counted, checked and falls back as a whole.
_INSIDE = threading.local()


def _run(name: str, fast: Callable[..., Any], real: Any, args: Any, kwargs: Any) -> Any:
    if getattr(_INSIDE, "active", False):
        return fast(*args, **kwargs)
    if name.rpartition(".")[2] in CORPUS_CALLS:
        warn_if_nested(name, args, kwargs)
    start = perf_counter()
    _INSIDE.active = True
    try:
        result = fast(*args, **kwargs)
    except RapidBleuError as e:
        _INSIDE.active = False
        return _fall_back(name, e, real, args, kwargs, 4)
    except BaseException:
        release(send=True)
        raise
    finally:
        _INSIDE.active = False
    if held():
        release(send=True)
    if PROFILE.enabled:
        PROFILE.add(name, "rapidbleu", perf_counter() - start)
    return result


def _fall_back(
    name: str, error: RapidBleuError, real: Any, args: Any, kwargs: Any, stacklevel: int
) -> Any:
    """The real package's answer to a call rapidbleu refused with ``error`` (or ``error``).

    ``stacklevel``: the program's frame, counted from here (its warning is attributed there).
    """
    # rapidbleu's log records of the refused call (held: see logs.py) are dropped, since the
    # real package logs its own.
    release(send=real is None)
    if real is None:
        raise error
    if isinstance(error, LengthMismatchError) and _truncated(args, kwargs):
        # The field's most common bug (references nested per segment, where sacreBLEU wants
        # streams): the real package answers as it always did, often with a number computed
        # on part of the input, so say what rapidbleu saw.
        warnings.warn(
            f"rapidbleu.accelerate: {name} fell back to the real package, whose result "
            f"may be computed on part of the input: {error}",
            stacklevel=stacklevel,
        )
    start = perf_counter()
    try:
        out = real(*args, **kwargs)
        rename_private(out)  # the real package's names, not its private copy's
        return out
    finally:
        if PROFILE.enabled:
            PROFILE.add(name, "fallback", perf_counter() - start)


def _truncated(args: Any, kwargs: Any) -> bool:
    """Whether sacreBLEU's ``zip(hypotheses, *references)`` drops part of this call's input.

    A flat list of strings whose every string has as many characters as there are hypotheses
    is read by sacreBLEU as streams of characters, all of it: nothing is dropped, nothing to
    warn about. Where the arguments cannot be read so, the warning stays.
    """
    hyps = args[0] if args else kwargs.get("hypotheses", kwargs.get("hyps"))
    refs = args[1] if len(args) > 1 else kwargs.get("references", kwargs.get("refs"))
    try:
        return any(len(stream) != len(hyps) for stream in refs)
    except TypeError:
        return True


def inside_call() -> bool:
    """Whether this thread is inside an accelerated call (its log records wait for its end)."""
    return bool(getattr(_INSIDE, "active", False))  # only read when something logs


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


def _fallback_method(
    name: str, method: str, fast: Callable[..., Any], real: type, below: int = 0
) -> Any:
    """``fast`` (``real``'s ``method``) in the mode's wrapper: counted, falling back to the twin.

    ``below``: the frames between the program's call and this wrapper (a general path called
    by its method's fast path: 1), so that a warning names the program's line.
    """
    full = f"{name}.{method}"
    corpus = method in CORPUS_CALLS

    def on_real(self: Any, *a: Any, **kw: Any) -> Any:
        twin = _twin(self, real)
        try:
            return getattr(twin, method)(*a, **kw)
        finally:
            # What the call saw (sacreBLEU's `num_refs`): the signature describes it.
            for attr in _CALL_STATE:
                if attr in twin.__dict__:
                    self.__dict__[attr] = twin.__dict__[attr]

    # `_run` inlined: programs call these methods once per item (`sentence_score`,
    # `RougeScorer.score`), so the wrapper makes no closure, partial or name per call.
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        inside = _INSIDE
        if getattr(inside, "active", False):
            return fast(self, *args, **kwargs)
        if corpus:
            warn_if_nested(full, args, kwargs)
        start = perf_counter()
        inside.active = True
        try:
            result = fast(self, *args, **kwargs)
        except RapidBleuError as e:
            inside.active = False
            twin = functools.partial(on_real, self)
            return _fall_back(full, e, twin, args, kwargs, 3 + below)
        except BaseException:
            release(send=True)
            raise
        finally:
            inside.active = False
        if held():
            release(send=True)
        if PROFILE.enabled:
            PROFILE.add(full, "rapidbleu", perf_counter() - start)
        return result

    return functools.wraps(fast)(call)


def _twin(instance: Any, real: type) -> Any:
    """The real twin of ``instance`` (built once, from its arguments), given its options now."""
    twin = instance.__dict__.get(_TWIN)
    if twin is None:
        ctor_args, ctor_kwargs = instance.__dict__[_ARGS]
        twin = instance.__dict__[_TWIN] = real(*ctor_args, **ctor_kwargs)
    _sync_options(instance, twin)
    return twin


#: Attributes a call of the real package sets that the signature reads.
_CALL_STATE = ("num_refs", "n_bootstrap", "seed")


def _sync_options(instance: Any, twin: Any) -> None:
    """Gives the real twin the option attributes the program set on ``instance`` since.

    Only attributes both objects keep in their ``__dict__`` (``lowercase``, ``rouge_types``,
    ...): the twin then computes with what the program asked for, as the real object would.
    """
    mine, theirs = instance.__dict__, twin.__dict__
    as_built = mine.get(_AS_BUILT, {})
    for attr, value in mine.items():
        if (
            not attr.startswith("_")
            and attr in theirs
            and attr not in _CALL_STATE
            and as_built.get(attr, theirs) is not value
        ):
            setattr(twin, attr, value)


def rebuild_class(module: str, qualname: str) -> Any:
    """The class ``module.qualname`` (rapidbleu's home of a class)."""
    import importlib

    return getattr(importlib.import_module(module), qualname)


def _remade(module: str, qualname: str, fast_home: tuple[str, str]) -> Any:
    """An empty instance for unpickling: the mode's class where the mode is on, else ``fast``.

    In a worker in the mode (``spawn`` children inherit it) the object is what the program
    built, an instance of the accelerated class, whose methods fall back; elsewhere it is
    rapidbleu's own object.
    """
    import importlib
    import os

    fast = rebuild_class(*fast_home)
    form = None
    if os.environ.get("RAPIDBLEU_ACCELERATE") == "1":  # the mode is on: its module answers
        form = getattr(importlib.import_module(module), qualname, None)
    if isinstance(form, AcceleratedClass) and form._fast is fast:
        return object.__new__(form._make)
    return object.__new__(fast)


def _with_fallback(name: str, fast: type, real: type) -> type:
    """A subclass of ``fast`` whose public methods fall back to a ``real`` twin.

    The twin is built on the first fallback, from the arguments the instance was built with.
    Pickled, an instance is remade as the mode's object where the mode is on (a worker
    process gets the same class, whose methods fall back), else as ``fast``'s own.
    """

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        self.__dict__[_ARGS] = (args, kwargs)
        super(cls, self).__init__(*args, **kwargs)
        self.__dict__[_AS_BUILT] = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __reduce_ex__(self: Any, protocol: Any) -> Any:
        state = {k: v for k, v in self.__dict__.items() if k not in (_TWIN, _AS_BUILT)}
        # rapidbleu's class by its home (a class renamed in the mode is not found by its name).
        return (_remade, (cls.__module__, cls.__qualname__, home(fast)), state)

    def __getattr__(self: Any, attr: str) -> Any:
        # A name the real class has and rapidbleu's lacks (sacreBLEU's private methods, such as
        # `_preprocess_segment`): the real twin's, given the same options.
        if attr.startswith("__") or attr.startswith("_rapidbleu") or not hasattr(real, attr):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {attr!r}")
        if _ARGS not in self.__dict__:  # not built yet (unpickling probes for hooks)
            raise AttributeError(attr)
        return getattr(_twin(self, real), attr)

    body: dict[str, Any] = {
        "__init__": __init__,
        "__reduce_ex__": __reduce_ex__,
        "__getattr__": __getattr__,
    }
    for method in dir(fast):
        member = inspect.getattr_static(fast, method)
        if not method.startswith("_") and inspect.isfunction(member) and hasattr(real, method):
            general = getattr(member, GENERAL, None)
            if general is None or PROFILE.enabled:
                body[method] = _fallback_method(name, method, member, real)
            else:
                # Its fast path answers unwrapped (metrics/per_call.py); the wrapper's rules
                # hold for its general path, which answers the rest. A reported run counts
                # every call, so there the whole method is wrapped.
                slow = inspect.getattr_static(fast, general)
                body[general] = _fallback_method(name, method, slow, real, below=1)
    # The real class's names (its module without the private copy's prefix): `type(obj)` and
    # the default `repr(obj)` show what they show without the mode.
    from rapidbleu.accelerate.real import public_name

    body.update(
        __module__=public_name(real.__module__),
        __qualname__=real.__qualname__,
        __doc__=fast.__doc__,
    )
    cls: type[Any] = type(real.__name__, (fast,), body)
    return cls


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
        ...     def double(self):
        ...         return 2 * self.k
        >>> C = AcceleratedClass("demo.C", Fast, Real)
        >>> isinstance(C(2), Fast), isinstance(C(10), Fast), isinstance(C(10), C)
        (True, False, True)
        >>> type(C(2)).__name__  # rapidbleu's object, under the real class's names
        'Real'
        >>> class Mine(C):
        ...     pass
        >>> Mine.__mro__[1] is Real
        True
    """

    def __init__(self, name: str, fast: type, real: type | None) -> None:
        self._name = name
        self._fast = fast
        self._real = real
        self._make = fast if real is None else _with_fallback(name, fast, real)
        functools.update_wrapper(self, fast, updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """An instance of rapidbleu's class, or of the real class when rapidbleu refuses."""
        return _run(self._name, self._make, self._real, args, kwargs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        try:
            return getattr(self._fast, attr)
        except AttributeError:
            if self._real is None:
                raise
            return getattr(self._real, attr)  # a name only the real class has

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


#: Each (rapidbleu's object, the real one) pair's accelerated form, made once.
_MADE: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
_MADE_LOCK = threading.Lock()


def accelerated(name: str, fast: Any, real: Any) -> Any:
    """The accelerated form of ``fast``: a class, a function, or ``fast`` itself (a value).

    One form per pair of objects, whatever path names it: the real package exports one class
    under several paths (``sacrebleu.BLEU is sacrebleu.metrics.bleu.BLEU``), and programs
    compare them by identity. The form keeps the name it was made under: the package's own
    name where it has one (``sacrebleu.BLEU``: a package's namespace is made before its
    submodules'), which the report shows for every call of it.

    Example:
        >>> def fast():
        ...     return 1
        >>> accelerated("a.f", fast, None) is accelerated("b.f", fast, None)
        True
    """
    if not (isinstance(fast, type) or callable(fast)):
        return fast
    key = (id(fast), id(real))
    with _MADE_LOCK:
        made = _MADE.get(key)
        if made is None:
            form: Any
            if isinstance(fast, type):
                form = AcceleratedClass(name, fast, real if isinstance(real, type) else None)
            else:
                form = accelerated_function(name, fast, real if callable(real) else None)
            # The objects are kept with their form, so that their ids are not reused.
            made = _MADE[key] = (form, fast, real)
    return made[0]
