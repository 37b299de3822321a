"""The installed ``rapidbleu`` script and ``python -m rapidbleu``, as real processes.

Output through the process boundary equals the in-process ``main``'s and the ``sacrebleu``
command's; exit codes cross it; stdin is split with universal newlines as sacreBLEU does.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clitools import BIN, DE2, env, ours, rapidbleu_cmds, sacrebleu, sacrebleu_cmd, write_lines
from conftest import DATA, strip_version


@pytest.mark.parametrize(
    "cmd", rapidbleu_cmds(), ids=lambda c: Path(c[0]).name + (" -m" if len(c) > 1 else "")
)
def test_installed_command(
    cmd: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*DE2, "-f", "text", "-w", "3"]
    proc = subprocess.run([*cmd, *args], cwd=data_dir, capture_output=True, env=env(), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    rc, out, _ = ours(args, data_dir, capsys)
    assert rc == 0 and proc.stdout.decode("utf-8") == out
    # stdin, and an exit code through the process boundary
    hyp = (data_dir / "wmt22.en-de/hyp.Online-B.de").read_bytes()
    proc = subprocess.run(
        [*cmd, "wmt22.en-de/ref.A.de", "-b"],
        cwd=data_dir,
        input=hyp,
        capture_output=True,
        env=env(),
        timeout=120,
    )
    assert proc.returncode == 0
    theirs = sacrebleu(["wmt22.en-de/ref.A.de", "-b"], data_dir, stdin=hyp)
    assert proc.stdout == theirs.stdout
    proc = subprocess.run([*cmd, "--no-such-option"], capture_output=True, env=env(), timeout=120)
    assert proc.returncode == 2 and proc.stdout == b""
    proc = subprocess.run(
        [*cmd, "missing.ref", "-i", "missing.hyp"],
        cwd=data_dir,
        capture_output=True,
        env=env(),
        timeout=120,
    )
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert proc.stderr.decode().count("\n") == 1


def test_installed_script_exists() -> None:
    assert shutil.which("rapidbleu", path=str(BIN)) or shutil.which("rapidbleu"), (
        f"no rapidbleu script in {BIN} or on PATH (pip install . / maturin develop)"
    )


@pytest.mark.skipif(not DATA.is_dir(), reason=f"{DATA} not found")
def test_sacrebleu_version_is_pinned() -> None:
    proc = subprocess.run([*sacrebleu_cmd(), "-V"], capture_output=True, env=env(), timeout=60)
    assert b"2.6.0" in proc.stdout + proc.stderr


def _run_both(args: list[str], cwd: Path, stdin: bytes) -> tuple[Any, Any]:
    cmd = rapidbleu_cmds()[0]
    mine = subprocess.run(
        [*cmd, *args], cwd=cwd, input=stdin, capture_output=True, env=env(), timeout=120
    )
    return mine, sacrebleu(args, cwd, stdin=stdin)


@pytest.mark.parametrize(
    "stdin",
    [b"a b\rc\nd e f\n", b"a b\r\nc\r\nd e f", b"a b\nc\rd e f\r", b"a b\r\rc d\n"],
    ids=["lone-cr", "crlf", "cr-at-end", "cr-cr"],
)
def test_stdin_newlines_like_sacrebleu(stdin: bytes, tmp_path: Path) -> None:
    """sacreBLEU wraps stdin in io.TextIOWrapper (universal newlines): a lone "\\r" ends a
    line there, while files are read with newline="\\n"."""
    n = stdin.replace(b"\r\n", b"\n").replace(b"\r", b"\n").rstrip(b"\n").count(b"\n") + 1
    write_lines(tmp_path / "ref", ["a b", "c", "d e f", "c d"][:n])
    mine, theirs = _run_both(["ref", "-f", "text"], tmp_path, stdin)
    assert mine.returncode == theirs.returncode, (mine.stderr, theirs.stderr)
    assert strip_version(mine.stdout.decode()) == theirs.stdout.decode()


def test_stdin_invalid_utf8_message(tmp_path: Path) -> None:
    """Undecodable bytes on stdin: exit 1 and a message about UTF-8 (sacreBLEU: a traceback)."""
    write_lines(tmp_path / "ref", ["a"])
    mine, theirs = _run_both(["ref"], tmp_path, b"caf\xe9\n")
    assert theirs.returncode != 0
    err = mine.stderr.decode()
    assert mine.returncode == 1 and "Traceback" not in err
    assert "UTF-8" in err and "surrogate" not in err, err


def test_output_into_closed_pipe(data_dir: Path) -> None:
    """`rapidbleu ... -sl | head -1`: no traceback when the reader goes away."""
    cmd = rapidbleu_cmds()[0]
    proc = subprocess.run(
        [
            "bash",
            "-c",
            f"{' '.join(cmd)} wmt22.en-de/ref.A.de -i wmt22.en-de/hyp.PROMT.de -sl | head -1",
        ],
        cwd=data_dir,
        capture_output=True,
        env=env(),
        timeout=120,
    )
    assert proc.stdout.count(b"\n") == 1
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
