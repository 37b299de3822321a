"""The ``>>>`` examples in rapidbleu's docstrings run and print what they say.

One test per module of the package (``rapidbleu.__main__`` excluded: importing it runs the
command). Equivalent to ``pytest --doctest-modules python/rapidbleu``, without needing the
package to be importable from its source folder.
"""

from __future__ import annotations

import doctest
import importlib
import logging
import pkgutil
from collections.abc import Iterator

import pytest

import rapidbleu


def _modules() -> list[str]:
    names = ["rapidbleu"]
    for info in pkgutil.walk_packages(rapidbleu.__path__, prefix="rapidbleu."):
        if info.name.endswith("__main__") or info.name.split(".")[-1].startswith("_core"):
            continue
        names.append(info.name)
    return sorted(names)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # Doctests of sentence_score print no log lines; keep warnings out of their output.
    logger = logging.getLogger("rapidbleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, (
        f"{results.failed} of {results.attempted} doctest examples failed in {name}:\n"
        + "".join(report)
    )
