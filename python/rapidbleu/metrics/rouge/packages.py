"""The real ROUGE packages' modules, whether or not the accelerator answers their names.

Under ``python -m rapidbleu.accelerate``, ``rouge.rouge``, ``rouge_chinese.rouge`` and
``multilingual_rouge.rouge_scorer`` are namespace modules over rapidbleu's dialects (ROUGE's
declaration in :mod:`rapidbleu.metrics.declarations`). A dialect that runs the real package
(a fallback) or uses its parts (XL-Sum's tokenizers) must reach the real module, else it
would call itself: that is the private copy the accelerator loaded behind the namespace.

Example:
    >>> real_module("rouge.rouge").Rouge.__module__.endswith("rouge.rouge")
    True
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

__all__ = ["real_module"]


def real_module(name: str) -> ModuleType:
    """The real module ``name`` (a package's own code, never rapidbleu's namespace).

    Raises:
        ImportError: The package is not installed.
    """
    module = importlib.import_module(name)
    if not getattr(module, "__rapidbleu_accelerated__", False):
        return module
    from rapidbleu.accelerate.real import private_name

    return sys.modules[private_name(name)]
