"""Submodules imported when first named, for the packages' ``__getattr__`` (PEP 562).

``import rapidbleu`` loads almost nothing (see :mod:`rapidbleu`), so a package's submodules
are not attributes until something imports them. Each package answers a missing attribute that
names one of its submodules by importing it: ``rapidbleu.tokenizers.tokenizer_13a`` and
``rapidbleu.metrics.helpers`` work from a bare ``import rapidbleu``, as in sacreBLEU.

Example:
    >>> submodule("rapidbleu.metrics", "helpers").__name__
    'rapidbleu.metrics.helpers'
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["submodule"]


def submodule(package: str, name: str) -> ModuleType:
    """``package.name`` imported, or the ``AttributeError`` of a missing attribute.

    Raises:
        AttributeError: ``package`` has no submodule ``name``.
    """
    if not name.startswith("__"):  # dunder probes (`__wrapped__`, ...) are never submodules
        full = f"{package}.{name}"
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as e:
            if e.name != full:  # the submodule exists; something it imports does not
                raise
    raise AttributeError(f"module {package!r} has no attribute {name!r}")
