"""The mode's report includes calls made in multiprocessing.Pool workers (each start method)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = str(Path(__file__).resolve().parent / "programs" / "pool_workers.py")


def _run_reported(
    tmp_path: Path, program: str, *args: str, timeout: int = 300
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Runs ``program`` in the mode with its report in ``tmp_path``; its result and environment."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    environ["RAPIDBLEU_ACCELERATE_REPORT"] = str(tmp_path / "report.json")
    environ["TMPDIR"] = str(tmp_path)  # where the run's folder is made, and removed
    argv = [sys.executable, "-m", "rapidbleu.accelerate", program, *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=environ)
    assert done.returncode == 0, done.stderr
    return done, environ


def _counts(tmp_path: Path) -> dict[str, int]:
    report = json.loads((tmp_path / "report.json").read_text())
    return {c["name"]: c["count"] for c in report["calls"]}


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_pool_workers_calls_are_in_the_report(method: str, tmp_path: Path) -> None:
    done, environ = _run_reported(tmp_path, PROGRAM, method, "7")
    plain = subprocess.run(
        [sys.executable, PROGRAM, method, "7"],
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in environ.items() if k != "RAPIDBLEU_ACCELERATE_REPORT"},
    )
    assert json.loads(done.stdout) == json.loads(plain.stdout)
    # 7 sentence scores in the workers (which `with Pool` terminates), 1 corpus score in the parent.
    assert _counts(tmp_path) == {"sacrebleu.sentence_bleu": 7, "sacrebleu.corpus_bleu": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_a_worker_killed_by_sigkill_is_counted(tmp_path: Path) -> None:
    """A worker's counts are on disk as it makes its calls: no exit, handler or signal needed.

    The mode once wrote them at a worker's end, from a SIGTERM handler among other places; a
    SIGTERM that landed just before the worker blocked on its task queue was never handled,
    and ``Pool.terminate`` waited on that worker forever.
    """
    program = str(Path(PROGRAM).with_name("killed_worker.py"))
    done, _ = _run_reported(tmp_path, program, timeout=120)
    assert json.loads(done.stdout) == {"sigterm_default": "True", "signal": 9}
    assert _counts(tmp_path) == {"sacrebleu.sentence_bleu": 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
