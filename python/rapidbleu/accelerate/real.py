"""The real packages, loaded under private names, for fallbacks.

In accelerator mode ``sacrebleu`` is rapidbleu's namespace, so the real sacreBLEU (when it is
installed) is loaded a second time as ``_rapidbleu_real.sacrebleu``: its relative imports
stay inside that copy, so a fallback runs sacreBLEU's own code from end to end. NLTK's
``bleu_score`` module is copied the same way (it imports the rest of NLTK by absolute names,
which stay NLTK's).

:func:`module` is how rapidbleu itself reaches sacreBLEU (its test-set registry): the real
package whether or not the accelerator has taken the name ``sacrebleu``.

Example:
    >>> module("sacrebleu.utils").__name__ in ("sacrebleu.utils", "_rapidbleu_real.sacrebleu.utils")
    True
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

__all__ = ["PREFIX", "load_copy", "module", "namespace_parents", "private_name", "public_name"]

#: The package under which the real packages' copies live.
PREFIX = "_rapidbleu_real"


def private_name(name: str) -> str:
    """The private name of the real module ``name`` (``sacrebleu.utils`` -> ...)."""
    return f"{PREFIX}.{name}"


def public_name(name: str) -> str:
    """The real name of a private copy's module (``_rapidbleu_real.sacrebleu`` -> ``sacrebleu``).

    Example:
        >>> public_name(private_name("sacrebleu.metrics.bleu")), public_name("sacrebleu")
        ('sacrebleu.metrics.bleu', 'sacrebleu')
    """
    return name[len(PREFIX) + 1 :] if name.startswith(f"{PREFIX}.") else name


def _prefix_package() -> None:
    if PREFIX not in sys.modules:
        package = ModuleType(PREFIX, "Real packages loaded by rapidbleu.accelerate.")
        package.__path__ = []
        sys.modules[PREFIX] = package


def load_copy(name: str, spec: ModuleSpec | None) -> ModuleType | None:
    """The real module ``name`` (found at ``spec``) loaded under :func:`private_name`.

    Args:
        name: The real module's name (``sacrebleu`` or ``nltk.translate.bleu_score``).
        spec: Where the real module is (``None``: it is not installed).

    Returns:
        The private copy, or ``None`` when the package is not installed.
    """
    if spec is None or spec.origin is None:
        return None
    private = private_name(name)
    if private in sys.modules:
        return sys.modules[private]
    _prefix_package()
    copy = importlib.util.spec_from_file_location(
        private, spec.origin, submodule_search_locations=spec.submodule_search_locations
    )
    if copy is None or copy.loader is None:
        return None
    mod = importlib.util.module_from_spec(copy)
    sys.modules[private] = mod
    try:
        copy.loader.exec_module(mod)
    except BaseException:
        del sys.modules[private]
        raise
    return mod


def namespace_parents(name: str) -> None:
    """Private parents of the module ``name`` whose packages are namespace packages.

    pycocoevalcap's folders have no ``__init__.py`` and its modules import their siblings
    relatively (``from .bleu_scorer import BleuScorer``): with private parents whose
    ``__path__`` is the real folders', the private copy of ``name`` loads private copies of
    its real siblings, so a fallback is the real package's code from end to end.
    """
    _prefix_package()
    parts = name.split(".")[:-1]
    path: list[str] | None = None
    for i in range(1, len(parts) + 1):
        parent = ".".join(parts[:i])
        spec = PathFinder.find_spec(parent, path)
        if spec is None or spec.submodule_search_locations is None:
            return
        path = list(spec.submodule_search_locations)
        private = private_name(parent)
        if private not in sys.modules:
            package = ModuleType(private)
            package.__path__ = path
            sys.modules[private] = package


def real_sacrebleu() -> ModuleType | None:
    """The private copy of the real sacreBLEU, loaded on first use (``None``: not installed)."""
    fresh = private_name("sacrebleu") not in sys.modules
    copy = load_copy("sacrebleu", PathFinder.find_spec("sacrebleu"))
    if copy is not None and fresh:
        # sacreBLEU's BLEU imports its tokenizer by absolute name
        # (`import_module(".tokenizers.x", "sacrebleu")`, metrics/bleu/metric.py `_get_tokenizer`),
        # which in accelerator mode is rapidbleu's namespace: point the copy at itself, so
        # that a fallback is sacreBLEU's own code from end to end.
        bleu = importlib.import_module(private_name("sacrebleu.metrics.bleu"))

        def import_module(name: str, package: str | None = None) -> ModuleType:
            if package == "sacrebleu":
                package = private_name(package)
            return importlib.import_module(name, package)

        bleu.import_module = import_module  # type: ignore[attr-defined]
    return copy


def module(name: str) -> ModuleType:
    """The real sacreBLEU module ``name``, whether or not the accelerator owns ``sacrebleu``.

    Raises:
        ImportError: sacreBLEU is not installed.
    """
    top = sys.modules.get("sacrebleu")
    if top is None or not getattr(top, "__rapidbleu_accelerated__", False):
        return importlib.import_module(name)
    if real_sacrebleu() is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    return importlib.import_module(private_name(name))
