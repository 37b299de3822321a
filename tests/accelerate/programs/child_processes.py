"""A program whose children import sacrebleu: they must be in accelerator mode too."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys


def version(_: object = None) -> str:
    import sacrebleu

    return str(sacrebleu.__version__)


if __name__ == "__main__":
    code = "import sacrebleu; print(sacrebleu.__version__)"
    out = {
        "parent": version(),
        "subprocess": subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip(),
    }
    for method in ("spawn", "forkserver", "fork"):
        with multiprocessing.get_context(method).Pool(1) as pool:
            out[method] = pool.map(version, [0])[0]
    print(json.dumps(out))
