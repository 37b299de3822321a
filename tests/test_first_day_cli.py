"""Issue 25 on the command: what an adversarial tester and a new user hit on the first day.

Each test is named after its finding (docs/notes/reliability.md has the table) and runs the
command as a process where the defect showed only there (a traceback printed while the
interpreter collects a generator).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def _run(
    args: list[str], cwd: Path, stdin: bytes = b"", env: dict[str, str] | None = None, **kw: Any
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rapidbleu", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
        **kw,
    )


def _one_line_error(proc: subprocess.CompletedProcess[bytes], code: int, *fragments: str) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == code, err
    assert err.count("\n") == 1 and err.startswith("rapidbleu: error: "), err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    for f in fragments:
        assert f in err, err
    assert proc.stdout == b""
    return err


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])  # the Rust and the Python reader
def test_finding_1_stdin_columns_with_sentence_level(tmp_path: Path, encoding: str) -> None:
    (tmp_path / "ref.txt").write_text("a\n", encoding="utf-8")
    proc = _run(["ref.txt", "-sl", "-e", encoding], tmp_path, stdin=b"a\tb\n")
    _one_line_error(proc, 2, "only one system can be evaluated in sentence-level mode")


@pytest.mark.parametrize("extra", [[], ["-m", "chrf"], ["-b"], ["-f", "json"]])
def test_finding_3_empty_input_with_sentence_level(tmp_path: Path, extra: list[str]) -> None:
    (tmp_path / "empty").write_bytes(b"")
    proc = _run(["empty", "-i", "empty", "-sl", *extra], tmp_path)
    _one_line_error(proc, 1, "nothing to score")
