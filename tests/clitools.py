"""Helpers for the command-line tests: run ``sacrebleu`` and ``rapidbleu`` side by side.

``ours`` runs :func:`rapidbleu.cli.main` in-process (capturing stdout/stderr with capsys);
``sacrebleu`` runs the installed sacreBLEU 2.6.0 command as a subprocess with a clean
environment; ``rapidbleu_cmds`` lists the installed ``rapidbleu`` script and
``python -m rapidbleu``.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rapidbleu.cli import main

BIN = Path(sys.executable).parent

# Real files in ../shared/data (paths relative to it).
DE = ["wmt22.en-de/ref.A.de", "-i", "wmt22.en-de/hyp.PROMT.de"]
DE2 = ["wmt22.en-de/ref.A.de", "wmt22.en-de/ref.B.de", "-i", "wmt22.en-de/hyp.Online-B.de"]
ZH = ["wmt22.en-zh/ref.A.zh", "-i", "wmt22.en-zh/hyp.Online-W.zh"]
EN2 = ["wmt22.zh-en/ref.A.en", "wmt22.zh-en/ref.B.en", "-i", "wmt22.zh-en/hyp.NiuTrans.en"]


def sacrebleu_cmd() -> list[str]:
    exe = shutil.which("sacrebleu", path=str(BIN)) or shutil.which("sacrebleu")
    return [exe] if exe else [sys.executable, "-m", "sacrebleu"]


def env() -> dict[str, str]:
    e = dict(os.environ)
    for var in ("SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU"):
        e.pop(var, None)
    e["PYTHONIOENCODING"] = "utf-8"
    return e


def sacrebleu(
    args: list[str], cwd: Path, stdin: bytes | None = None, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*sacrebleu_cmd(), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env={**env(), **(extra_env or {})},
        timeout=300,
    )


def ours(
    args: list[str],
    cwd: Path,
    capsys: pytest.CaptureFixture[str],
    stdin: str | bytes | None = None,
) -> tuple[int, str, str]:
    """Runs ``main(args)`` in ``cwd``; returns (exit code, stdout, stderr)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        capsys.readouterr()
        src: io.IOBase | None = None
        if isinstance(stdin, str):
            src = io.StringIO(stdin)
        elif isinstance(stdin, bytes):
            src = io.BytesIO(stdin)
        rc = main(args, stdin=src)  # type: ignore[arg-type]
        out, err = capsys.readouterr()
    finally:
        os.chdir(old)
    return rc, out, err


def rapidbleu_cmds() -> list[list[str]]:
    script = shutil.which("rapidbleu", path=str(BIN)) or shutil.which("rapidbleu")
    cmds = [[sys.executable, "-m", "rapidbleu"]]
    if script:
        cmds.insert(0, [script])
    return cmds


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)
