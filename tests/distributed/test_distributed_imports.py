"""``import rapidbleu`` imports no engine, and neither does importing rapidbleu.distributed.

Run in fresh interpreters, so that what other tests imported does not count.
"""

from __future__ import annotations

import subprocess
import sys

ENGINES = ("ray", "pyarrow", "pandas", "pyspark", "dask", "distributed")


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return out.stdout.strip()


def test_no_engine_is_imported() -> None:
    code = (
        "import sys, rapidbleu, rapidbleu.distributed.ray, rapidbleu.distributed.recipes.spark,"
        " rapidbleu.distributed.recipes.dask, rapidbleu.distributed.blocks\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {ENGINES!r}))"
    )
    assert _run(code) == "[]"


def test_missing_ray_says_how_to_install_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['ray'] = None  # as if Ray were not installed\n"
        "from rapidbleu.distributed.ray import local_cluster\n"
        "from rapidbleu.errors import MissingDependencyError\n"
        "try:\n"
        "    local_cluster().__enter__()\n"
        "except MissingDependencyError as e:\n"
        "    print(e)\n"
    )
    # The hint names installable packages (rapidbleu is on no registry yet): issue 26.
    assert _run(code) == (
        "rapidbleu.distributed.ray needs Ray Data (the 'ray' extra): pip install \"ray[data]\" "
        '(or, in a rapidbleu checkout: pip install ".[ray]")'
    )
