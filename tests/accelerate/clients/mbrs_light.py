"""mbrs' own sacreBLEU metric classes and decoders, importable without mbrs' model metrics.

``import mbrs.metrics`` runs ``mbrs/metrics/__init__.py``, which imports every metric of mbrs
0.1.8: BERTScore, BLEURT, COMET and MetricX need ``bert_score``, ``bleurt_pytorch``,
``unbabel-comet`` and transformers, whose pins conflict with this project's (unbabel-comet
wants NumPy < 2, transformers 4.57 huggingface-hub < 1 and tokenizers <= 0.23.0), so CI installs
mbrs with ``--no-deps`` (scripts/test.sh). :func:`load` runs that ``__init__`` with the lines
importing those six model metrics left out, and nothing else changed: ``mbrs.metrics.base``,
``bleu``, ``chrf``, ``ter``, ``mbrs.decoders`` and ``mbrs.selectors`` are mbrs' own files, run
as mbrs runs them (they need torch, sacreBLEU and fastchrf). Where ``import mbrs.metrics``
works (every dependency installed), :func:`load` is just that import.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType

#: mbrs' model metrics, whose imports need the packages above.
MODEL_METRICS = ("bertscore", "bleurt", "comet", "cometkiwi", "metricx", "xcomet")


def load() -> ModuleType:
    """``mbrs.metrics``: the real package, or its ``__init__`` without the model metrics."""
    try:
        return importlib.import_module("mbrs.metrics")
    except ImportError:
        for name in [
            n for n in sys.modules if n == "mbrs.metrics" or n.startswith("mbrs.metrics.")
        ]:
            del sys.modules[name]
    spec = importlib.util.find_spec("mbrs.metrics")
    assert spec is not None and spec.origin is not None and spec.loader is not None
    with open(spec.origin, encoding="utf-8") as f:
        lines = f.read().split("\n")
    kept = [
        line
        for line in lines
        if not any(line.startswith(f"from .{m} import") for m in MODEL_METRICS)
    ]
    assert len(lines) - len(kept) == len(MODEL_METRICS), "mbrs.metrics' __init__ has changed"
    module = importlib.util.module_from_spec(spec)
    sys.modules["mbrs.metrics"] = module
    exec(compile("\n".join(kept), spec.origin, "exec"), module.__dict__)
    return module
