"""The metrics' declarations: every name they give resolves, and the house reads them.

:mod:`rapidbleu.metrics.declarations` is the one place that says, per metric, its class, its
oracle, its ``evaluate.load`` names and the module paths accelerator mode answers with it. These
tests check that each declared path names what it says, that the registry, the accelerator's
tables and ``rapidbleu.evaluate`` are exactly the declared ones, and that reading the
declarations imports no metric (the accelerator's import hook reads them at interpreter start).
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from rapidbleu.accelerate.targets import EVALUATE, METRIC_MODULES
from rapidbleu.evaluate import METRICS
from rapidbleu.metrics import Metric
from rapidbleu.metrics.declarations import DECLARATIONS, Declaration, resolve
from rapidbleu.metrics.registry import metric_classes


@pytest.mark.parametrize("declared", DECLARATIONS, ids=[d.name for d in DECLARATIONS])
def test_each_declared_path_names_what_it_says(declared: Declaration) -> None:
    cls = resolve(declared.home)
    assert isinstance(cls, type) and issubclass(cls, Metric)
    assert cls.cli_name == declared.name
    assert metric_classes()[declared.name] is cls
    assert callable(resolve(declared.oracle))  # the oracle package is a test dependency
    for name, path in declared.evaluate.items():
        assert METRICS[name] is resolve(path)
    for module, (ours, requirement) in declared.accelerates.items():
        assert importlib.util.find_spec(module) is not None, module  # the real one exists
        assert importlib.import_module(ours).__name__ == ours
        assert requirement.split("==")[0].replace("-", "_") == module.split(".")[0]


def test_the_house_reads_the_declarations() -> None:
    assert list(metric_classes()) == sorted(d.name for d in DECLARATIONS)
    assert set(METRICS) == EVALUATE == {n for d in DECLARATIONS for n in d.evaluate}
    assert METRIC_MODULES == {m: t for d in DECLARATIONS for m, t in d.accelerates.items()}
    evaluate_names = [n for d in DECLARATIONS for n in d.evaluate]
    accelerated = [m for d in DECLARATIONS for m in d.accelerates]
    # No two metrics answer the same name.
    assert len(evaluate_names) == len(set(evaluate_names))
    assert len(accelerated) == len(set(accelerated))


def test_reading_the_declarations_imports_no_metric() -> None:
    code = (
        "import sys, rapidbleu.accelerate.targets; "
        "print(sorted(m for m in sys.modules if m.startswith('rapidbleu.metrics.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert out.strip() == "['rapidbleu.metrics.declarations']"
