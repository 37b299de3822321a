"""Runs sacreBLEU 2.6.0's own tests (``test/``, unchanged) against rapidbleu through ``shim/``.

Run as ``cd tests/upstream/sacrebleu && python -m pytest`` (upstream's ``pytest.ini``: the
tests read ``./test/wmt17_en_de_systems.pkl.bz2``, so the working directory is this one);
``tests/compat/test_sacrebleu_upstream.py`` does exactly that in a subprocess, so that the shim's
``sacrebleu`` never meets the real sacreBLEU that the rest of the suite uses as its oracle.

This file puts ``shim/`` first on ``sys.path`` and imports the shim before any upstream test
module is collected, then checks that ``sacrebleu`` is rapidbleu. :data:`DESELECTED` is the one
list of upstream tests that are not run, each with its reason; a stale entry is an error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "shim"))

import sacrebleu  # the shim: after the path change, before the tests

import rapidbleu.sacrebleu

# Every `sacrebleu.*` module is rapidbleu's, but the registry (see shim/sacrebleu/__init__.py).
_NOT_OURS = {
    name: module.__name__
    for name, module in sys.modules.items()
    if (name == "sacrebleu" or name.startswith("sacrebleu."))
    and not module.__name__.startswith("rapidbleu")
    and not module.__name__.startswith("_sacrebleu_installed.dataset")
}
if sacrebleu is not rapidbleu.sacrebleu or _NOT_OURS:
    raise RuntimeError(f"`sacrebleu` is not rapidbleu's namespace here: {_NOT_OURS or sacrebleu}")

_NETWORK = (
    "downloads a test set (wmt19, mtnt1.1, wmt19/google/ar) through sacreBLEU's own registry, "
    "which rapidbleu uses as is; the machines that run this suite are offline and the WMT data "
    "is not ours to ship. rapidbleu's path through that registry is tested offline with a "
    "sacreBLEU-laid-out cache in tests/cli/test_cli_testsets.py"
)

#: Upstream tests that are not run: node id -> why. Nothing else is left out.
DESELECTED: dict[str, str] = {
    **{
        f"test/test_api.py::{test}[{case}]": _NETWORK
        for test in ("test_api_get_source", "test_api_get_reference")
        for case in (
            "wmt19-de-en-1-Sch\\xf6ne M\\xfcnchnerin 2018: Sch\\xf6ne M\\xfcnchnerin 2018 in "
            "Hvar: Neun Dates-The Beauty of Munich 2018: the Beauty of Munich 2018 in Hvar: "
            "Nine dates",
            "mtnt1.1/train-ja-en-10-0\\u6b73\\u304b\\u3089100\\u6b73\\u306e\\u5973\\u6027\\u304c"
            "\\u767b\\u5834\\u3059\\u308b\\u6d77\\u5916\\u306e\\u30b9\\u30ad\\u30f3\\u30b1\\u30a2"
            "CM-The overseas skin care commercial in which 0 to 100 year old females appear.",
            "wmt19/google/ar-en-de-1-Welsh AMs worried about 'looking like muppets'-Walisische "
            "Abgeordnete bef\\xfcrchten als ,Idioten\\u2019 dazustehen.",
        )
    },
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselects :data:`DESELECTED` (and fails on an entry that names no collected test)."""
    ids = {item.nodeid for item in items}
    files = {nodeid.split("::")[0] for nodeid in ids}
    stale = sorted(d for d in DESELECTED if d.split("::")[0] in files and d not in ids)
    if stale:
        raise pytest.UsageError(f"DESELECTED names tests that were not collected: {stale}")
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid in DESELECTED])
    items[:] = [item for item in items if item.nodeid not in DESELECTED]
