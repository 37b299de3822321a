"""``evaluate.load`` in accelerator mode: rapidbleu's loading scripts for its metrics' names.

``evaluate.load("sacrebleu")`` (and ``bleu``, ``google_bleu``, ``chrf``, ``ter``: :data:`EVALUATE`)
loads rapidbleu's local loading script for that metric (:func:`rapidbleu.evaluate.script_path`)
with the same arguments, so the program gets a real ``evaluate.Metric``, with evaluate's
batching, caching and distributed gathering, that computes with rapidbleu. A ``compute`` that
rapidbleu refuses is handed to evaluate's own metric of that name (loaded then, from the Hub or
evaluate's cache). Every other name is evaluate's own ``load``.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from rapidbleu.accelerate.proxies import accelerated_function
from rapidbleu.accelerate.targets import EVALUATE

__all__ = ["patch", "unpatch"]


def _accelerated_load(original: Any) -> Any:
    from rapidbleu.evaluate import script_path

    @functools.wraps(original)
    def load(path: Any, *args: Any, **kwargs: Any) -> Any:
        if not (isinstance(path, str) and path in EVALUATE):
            return original(path, *args, **kwargs)
        metric = original(script_path(path), *args, **kwargs)

        def real_compute(*a: Any, **kw: Any) -> Any:
            return original(path, *args, **kwargs)._compute(*a, **kw)

        # evaluate's compute() gathers the inputs, then calls self._compute(**inputs, **options).
        metric._compute = accelerated_function(
            f"evaluate.load({path!r}).compute", metric._compute, real_compute
        )
        return metric

    load.__rapidbleu_original__ = original  # type: ignore[attr-defined]
    return load


def patch(module: ModuleType) -> None:
    """Makes ``module.load`` (``evaluate.load``) answer :data:`EVALUATE` with rapidbleu."""
    original = vars(module)["load"]
    if not hasattr(original, "__rapidbleu_original__"):
        setattr(module, "load", _accelerated_load(original))  # noqa: B010 (a module's name)


def unpatch(module: ModuleType) -> None:
    """Gives ``evaluate.load`` back its original."""
    load = vars(module)["load"]
    setattr(module, "load", getattr(load, "__rapidbleu_original__", load))  # noqa: B010
