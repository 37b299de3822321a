"""The mode's report includes calls made in multiprocessing.Pool workers (each start method)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = str(Path(__file__).resolve().parent / "programs" / "pool_workers.py")


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_pool_workers_calls_are_in_the_report(method: str, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    environ = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    environ["RAPIDBLEU_ACCELERATE_REPORT"] = str(report)
    environ["TMPDIR"] = str(tmp_path)  # where the run's folder is made, and removed
    argv = [sys.executable, "-m", "rapidbleu.accelerate", PROGRAM, method, "7"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=environ)
    assert done.returncode == 0, done.stderr
    plain = subprocess.run(
        [sys.executable, PROGRAM, method, "7"],
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in environ.items() if k != "RAPIDBLEU_ACCELERATE_REPORT"},
    )
    assert json.loads(done.stdout) == json.loads(plain.stdout)
    counts = {c["name"]: c["count"] for c in json.loads(report.read_text())["calls"]}
    # 7 sentence scores in the workers (which `with Pool` terminates), 1 corpus score in the parent.
    assert counts == {"sacrebleu.sentence_bleu": 7, "sacrebleu.corpus_bleu": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_a_worker_killed_by_sigkill_is_counted(tmp_path: Path) -> None:
    """A worker's counts are on disk as it makes its calls: no exit, handler or signal needed.

    The mode once wrote them at a worker's end, from a SIGTERM handler among other places; a
    SIGTERM that landed just before the worker blocked on its task queue was never handled,
    and ``Pool.terminate`` waited on that worker forever.
    """
    report = tmp_path / "report.json"
    environ = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    environ["RAPIDBLEU_ACCELERATE_REPORT"] = str(report)
    environ["TMPDIR"] = str(tmp_path)
    program = str(Path(PROGRAM).with_name("killed_worker.py"))
    argv = [sys.executable, "-m", "rapidbleu.accelerate", program]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=environ)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"sigterm_default": "True", "signal": 9}
    counts = {c["name"]: c["count"] for c in json.loads(report.read_text())["calls"]}
    assert counts == {"sacrebleu.sentence_bleu": 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
