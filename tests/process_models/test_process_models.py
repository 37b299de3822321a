"""Every process model scores after the parent has scored: no deadlock, the same numbers.

Before the core's thread pools belonged to the process that built them, a child made by
``fork`` waited forever on the parent's pool threads, which do not exist in a child. Each case
runs ``driver.py`` in its own interpreter under a timeout, so a regression fails here instead of
hanging the suite; the driver scores every metric and tokenizer (13a, intl, zh, char, ja-mecab,
ko-mecab, spm) in the parent first, then in the child, at the default thread count, and compares
the results with ``==``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA
from fuzzstats import record
from test_tokenizers_python import _train

HERE = Path(__file__).resolve().parent
MODELS = [
    "os.fork",
    "mp-fork",
    "mp-spawn",
    "mp-forkserver",
    "ProcessPoolExecutor",
    "datasets.map",
    "torch.DataLoader",
]


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _train(tmp_path_factory.mktemp("process_models"), "unigram")


@pytest.mark.parametrize("model", MODELS)
def test_child_scores_like_its_parent(model: str, spm_model: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("RAPIDBLEU_NUM_THREADS",)}
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    try:
        run = subprocess.run(
            [sys.executable, str(HERE / "driver.py"), model, str(DATA), str(spm_model)],
            capture_output=True,
            text=True,
            timeout=240,
            env=env,
        )
    except subprocess.TimeoutExpired:
        record(f"process model {model}", "crashed")  # a hang counts as a crash
        pytest.fail(f"{model}: the child did not finish in 240 s (deadlock)")
    record(f"process model {model}", "ok" if run.returncode == 0 else "differed")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "differing: []" in run.stdout
