"""`import rapidbleu` never imports rapidbleu.torch nor torch; without torch, a clear error."""

from __future__ import annotations

import json
import subprocess
import sys


def _run(code: str) -> object:
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_import_rapidbleu_imports_no_torch() -> None:
    loaded = _run(
        "import json, sys, rapidbleu, rapidbleu.metrics.bleu.tokens, rapidbleu.io.tokens\n"
        "import rapidbleu.dialects.nltk, rapidbleu.metrics\n"
        "from rapidbleu import *\n"
        "print(json.dumps(['torch' in sys.modules, 'rapidbleu.torch' in sys.modules]))"
    )
    assert loaded == [False, False]


def test_without_torch_the_error_names_the_extra() -> None:
    message = _run(
        "import json, sys\n"
        "sys.modules['torch'] = None  # as if torch were not installed\n"
        "from rapidbleu.errors import MissingDependencyError\n"
        "try:\n"
        "    import rapidbleu.torch\n"
        "except MissingDependencyError as e:\n"
        "    print(json.dumps(str(e)))\n"
    )
    assert message == (
        "rapidbleu.torch needs PyTorch: pip install torch (or, in a rapidbleu checkout: "
        'pip install ".[torch]")'
    )
