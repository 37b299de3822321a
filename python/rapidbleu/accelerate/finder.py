"""The import hook of accelerator mode: which module an ``import`` of a real package gets.

:class:`Finder` sits first in :data:`sys.meta_path` and answers:

- ``sacrebleu`` and every module path of it that rapidbleu has (:func:`sacrebleu_modules`):
  a namespace module (:mod:`rapidbleu.accelerate.namespace`), with sacreBLEU's
  submodules imported with the package, as sacreBLEU's own ``__init__`` does;
- any other ``sacrebleu.*`` path (``sacrebleu.dataset``, ...): the real package's module,
  from the private copy (so ``sacrebleu.dataset`` is sacreBLEU's own);
- the single modules of other packages that the metrics declare (:data:`METRIC_MODULES`:
  ``nltk.translate.bleu_score`` over rapidbleu's NLTK dialect, ``rouge_score.rouge_scorer`` /
  ``rouge_score.scoring`` over rapidbleu's ROUGE modules, ...): a namespace module over
  rapidbleu's, with the real module (a private copy) behind it;
- ``evaluate``: the real package, whose ``load`` then answers :data:`EVALUATE` names with
  rapidbleu's loading scripts (:mod:`rapidbleu.accelerate.evaluate_load`);
- mbrs' ``mbrs.metrics.bleu`` / ``chrf`` / ``ter`` (:data:`MBRS`): the real modules, whose
  metric classes then score batches with rapidbleu's matrices
  (:mod:`rapidbleu.accelerate.mbrs_metrics`).

Every other import is left to the finders after it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType
from typing import Any

from rapidbleu.accelerate import real as real_packages
from rapidbleu.accelerate.namespace import namespace_module
from rapidbleu.accelerate.targets import MBRS, METRIC_MODULES, sacrebleu_modules

__all__ = ["FINDER", "Finder"]

#: The origin shown in a namespace module's repr.
ORIGIN = "rapidbleu.accelerate"

#: What the namespace modules tell users to install for names rapidbleu lacks.
SACREBLEU_PIN = "sacrebleu==2.6.0"


class _Made(Loader):
    """A loader whose module is made by a function (namespace modules, aliases)."""

    def __init__(self, make: Callable[[], ModuleType], after: Callable[[], None] | None = None):
        self._make = make
        self._after = after
        self._spec: ModuleSpec | None = None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = self._make()
        self._spec = module.__spec__  # an existing module (an alias) keeps its own spec
        return module

    def exec_module(self, module: ModuleType) -> None:
        if self._spec is not None:
            module.__spec__ = self._spec  # the import system set the alias's spec; undo that
        if self._after is not None:
            self._after()


class _Patched(Loader):
    """The real loader of a module, then ``patch(module)``."""

    def __init__(self, loader: Loader, patch: Callable[[ModuleType], None]) -> None:
        self._loader = loader
        self._patch = patch

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._patch(module)

    def __getattr__(self, attr: str) -> Any:  # resource readers and the like: the real loader's
        return getattr(self._loader, attr)


#: sacreBLEU's command (``python -m sacrebleu``): its own code, run under its public names, so
#: that its relative imports (``from .metrics import METRICS``) reach the mode's modules.
COMMAND_MODULES = ("__main__", "sacrebleu")


def _command_spec(fullname: str, real_top: ModuleType) -> ModuleSpec:
    """The real file of a command module, loaded (with ``get_code``, for runpy) as ``fullname``."""
    folder = real_top.__spec__.submodule_search_locations if real_top.__spec__ else None
    spec = PathFinder.find_spec(fullname, list(folder or []))
    if spec is None:
        raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
    return spec


def _sacrebleu_spec(fullname: str) -> ModuleSpec:
    rel = fullname.partition(".")[2]
    table = sacrebleu_modules()
    real_top = real_packages.real_sacrebleu()
    if rel not in table:  # a path rapidbleu does not have: the real module, or a clear error
        if real_top is None:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: rapidbleu does not implement it, and its "
                f"fallback, the real package, is not installed (pip install {SACREBLEU_PIN})",
                name=fullname,
            )
        if rel in COMMAND_MODULES:
            return _command_spec(fullname, real_top)
        private = real_packages.private_name(fullname)
        return ModuleSpec(fullname, _Made(lambda: importlib.import_module(private)))

    is_package = rel in ("", "metrics", "tokenizers")

    def make() -> ModuleType:
        real_mod = None
        if real_top is not None:
            real_mod = importlib.import_module(real_packages.private_name(fullname))
        ns = namespace_module(fullname, table[rel], real_mod, SACREBLEU_PIN)
        if is_package:
            ns.__path__ = []  # its submodules are found here too
        return ns

    def import_children() -> None:
        # sacreBLEU's __init__ imports its submodules, so `sacrebleu.metrics.bleu.BLEU` works
        # after `import sacrebleu`; the namespace does the same.
        if rel == "":
            for child in table:
                if child:
                    importlib.import_module(f"sacrebleu.{child}")

    return ModuleSpec(fullname, _Made(make, import_children), origin=ORIGIN, is_package=is_package)


def _module_spec(fullname: str, path: Sequence[str] | None) -> ModuleSpec | None:
    real_spec = PathFinder.find_spec(fullname, path)
    if real_spec is None:
        return None  # the package's own import error, unchanged
    fast_name, package = METRIC_MODULES[fullname]

    def make() -> ModuleType:
        top = PathFinder.find_spec(fullname.partition(".")[0])
        if top is not None and top.origin is None:  # a namespace package (pycocoevalcap's)
            real_packages.namespace_parents(fullname)
        real_mod = real_packages.load_copy(fullname, real_spec)
        fast = importlib.import_module(fast_name)
        return namespace_module(fullname, fast, real_mod, package)

    return ModuleSpec(fullname, _Made(make), origin=real_spec.origin)


def _evaluate_spec(fullname: str, path: Sequence[str] | None) -> ModuleSpec | None:
    real_spec = PathFinder.find_spec(fullname, path)
    if real_spec is None or real_spec.loader is None:
        return None
    from rapidbleu.accelerate.evaluate_load import patch

    real_spec.loader = _Patched(real_spec.loader, patch)
    return real_spec


def _mbrs_spec(fullname: str, path: Sequence[str] | None) -> ModuleSpec | None:
    real_spec = PathFinder.find_spec(fullname, path)
    if real_spec is None or real_spec.loader is None:
        return None
    from rapidbleu.accelerate.mbrs_metrics import patch

    real_spec.loader = _Patched(real_spec.loader, patch)
    return real_spec


class Finder(MetaPathFinder):
    """The accelerator's entry in :data:`sys.meta_path` (see the module's notes)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """A spec for the modules the accelerator answers, else ``None``."""
        if fullname == "sacrebleu" or fullname.startswith("sacrebleu."):
            return _sacrebleu_spec(fullname)
        if fullname in METRIC_MODULES:
            return _module_spec(fullname, path)
        if fullname == "evaluate":
            return _evaluate_spec(fullname, path)
        if fullname in MBRS:
            return _mbrs_spec(fullname, path)
        return None


#: The one finder installed by :func:`rapidbleu.accelerate.install`.
FINDER = Finder()


def owned(name: str) -> bool:
    """Whether the module ``name`` is one the finder answers (the mode's modules)."""
    return name == "sacrebleu" or name.startswith("sacrebleu.") or name in METRIC_MODULES


def loaded_modules() -> dict[str, ModuleType]:
    """The modules in :data:`sys.modules` that the finder answers."""
    return {k: v for k, v in sys.modules.items() if owned(k)}
