"""The ``rapidbleu`` command against the ``sacrebleu`` command on the real WMT files.

``rapidbleu.cli.main(argv, stdin=...)`` runs in-process; ``sacrebleu`` runs as a subprocess
(the installed 2.6.0). Standard output must be byte-identical apart from the signature's
version field (``2.6.0+rapidbleu.X.Y.Z`` for ``2.6.0``). Then exit codes and messages for bad
input, and a subprocess smoke test of the installed ``rapidbleu`` script and
``python -m rapidbleu``.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, strip_version

from rapidbleu.cli import main

BIN = Path(sys.executable).parent


def _sacrebleu_cmd() -> list[str]:
    exe = shutil.which("sacrebleu", path=str(BIN)) or shutil.which("sacrebleu")
    return [exe] if exe else [sys.executable, "-m", "sacrebleu"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU"):
        env.pop(var, None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)


def _sacrebleu(
    args: list[str], cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*_sacrebleu_cmd(), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=_env(),
        timeout=120,
    )


def _ours(
    args: list[str], cwd: Path, capsys: pytest.CaptureFixture[str], stdin: str | None = None
) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        capsys.readouterr()
        rc = main(args, stdin=io.StringIO(stdin) if stdin is not None else None)
        out, err = capsys.readouterr()
    finally:
        os.chdir(old)
    return rc, out, err


DE = ["wmt22.en-de/ref.A.de", "-i", "wmt22.en-de/hyp.PROMT.de"]
DE2 = ["wmt22.en-de/ref.A.de", "wmt22.en-de/ref.B.de", "-i", "wmt22.en-de/hyp.Online-B.de"]
ZH = ["wmt22.en-zh/ref.A.zh", "-i", "wmt22.en-zh/hyp.Online-W.zh"]
EN2 = ["wmt22.zh-en/ref.A.en", "wmt22.zh-en/ref.B.en", "-i", "wmt22.zh-en/hyp.NiuTrans.en"]

CASES = {
    "json-default": DE,
    "json-2refs": DE2,
    "text": [*DE, "-f", "text"],
    "text-2refs": [*DE2, "-f", "text"],
    "score-only": [*DE, "-b"],
    "score-only-text-w3": [*DE2, "-b", "-w", "3", "-f", "text"],
    "width-2": [*DE, "-w", "2", "-f", "text"],
    "width-3-json": [*DE, "-w", "3"],
    "short-text": [*DE, "-sh", "-f", "text"],
    "short-json": [*DE, "-sh"],  # JSON always has the long signature
    "lowercase": [*DE, "-lc", "-f", "text"],
    "tok-intl": [*DE2, "-tok", "intl", "-f", "text"],
    "tok-char": [*ZH, "-tok", "char", "-f", "text"],
    "tok-none-json": [*DE, "-tok", "none"],
    "tok-zh": [*ZH, "-tok", "zh"],
    "smooth-floor": [*DE, "-s", "floor", "-f", "text"],
    "smooth-floor-value": [*DE, "-s", "floor", "-sv", "0.5", "-f", "text"],
    "smooth-add-k": [*EN2, "-s", "add-k", "-f", "text", "-w", "4"],
    "smooth-add-k-value": [*DE, "-s", "add-k", "-sv", "2"],
    "smooth-none": [*DE, "-s", "none", "-f", "text"],
    "langpair-de": [*DE, "-l", "en-de", "-f", "text"],
    "langpair-zh": [*ZH, "-l", "en-zh"],
    "langpair-zh-explicit-intl": [*ZH, "-l", "en-zh", "-tok", "intl", "-f", "text"],
    "combined": [*DE2, "-lc", "-tok", "intl", "-s", "floor", "-sh", "-w", "2", "-f", "text"],
    "sentence-level": [*DE, "-sl"],
    "sentence-level-2refs-short-w3": [*DE2, "-sl", "-sh", "-w", "3", "-tok", "intl"],
    "sentence-level-score-only": [*ZH, "-sl", "-b", "-l", "en-zh"],
    "sentence-level-text-smooth": [*EN2, "-sl", "-f", "text", "-s", "add-k", "-lc"],
    "force": [*DE, "--force", "-f", "text"],
    "long-options": [
        "wmt22.en-de/ref.A.de",
        "--input",
        "wmt22.en-de/hyp.PROMT.de",
        "--tokenize",
        "intl",
        "--lowercase",
        "--smooth-method",
        "floor",
        "--smooth-value",
        "0.2",
        "--width",
        "3",
        "--short",
        "--format",
        "text",
    ],
}


@pytest.mark.parametrize("args", list(CASES.values()), ids=list(CASES))
def test_same_output_as_sacrebleu(
    args: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = _sacrebleu(args, data_dir)
    assert theirs.returncode == 0, theirs.stderr.decode()
    rc, out, err = _ours(args, data_dir, capsys)
    assert rc == 0, err
    expected = theirs.stdout.decode("utf-8")
    assert strip_version(out) == expected, (
        f"rapidbleu {' '.join(args)}\n--- ours\n{out[:2000]}\n--- sacrebleu\n{expected[:2000]}"
    )
    if "-b" not in args:
        assert "2.6.0+rapidbleu." in out  # the version field names rapidbleu


@pytest.mark.parametrize(
    "extra", [[], ["-f", "text", "-w", "3"], ["-sl", "-b"]], ids=["json", "text", "sentence"]
)
def test_stdin(extra: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = (data_dir / "wmt22.en-de/hyp.OpenNMT.de").read_bytes()
    args = ["wmt22.en-de/ref.A.de", *extra]
    theirs = _sacrebleu(args, data_dir, stdin=hyp)
    assert theirs.returncode == 0, theirs.stderr.decode()
    rc, out, _ = _ours(args, data_dir, capsys, stdin=hyp.decode("utf-8"))
    assert rc == 0
    assert strip_version(out) == theirs.stdout.decode("utf-8")


# --- bad input -----------------------------------------------------------------------------------


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_mismatched_line_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = _write(tmp_path / "ref.txt", ["a b c", "d e f", "g h i"])
    hyp = _write(tmp_path / "hyp.txt", ["a b c", "d e f"])
    theirs = _sacrebleu([ref, "-i", hyp], tmp_path)
    assert theirs.returncode != 0
    rc, out, err = _ours([ref, "-i", hyp], tmp_path, capsys)
    assert rc != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for fragment in ("ref.txt", "3", "hyp.txt", "2"):
        assert fragment in lines[0], f"message lacks {fragment!r}: {lines[0]!r}"


def test_mismatched_second_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref1 = _write(tmp_path / "r1", ["a", "b"])
    ref2 = _write(tmp_path / "r2", ["a", "b", "c"])
    hyp = _write(tmp_path / "h", ["a", "b"])
    rc, out, err = _ours([ref1, ref2, "-i", hyp], tmp_path, capsys)
    assert rc != 0 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "r2" in err and "3" in err and "2" in err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = _write(tmp_path / "ref.txt", ["a"])
    for args, missing in (
        ([ref, "-i", "nope.txt"], "nope.txt"),
        (["absent.ref", "-i", ref], "absent.ref"),
    ):
        rc, out, err = _ours(args, tmp_path, capsys)
        assert rc not in (0, 2) and out == ""
        assert missing in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_invalid_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = _write(tmp_path / "ref.txt", ["a"])
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9\n")
    rc, out, err = _ours([ref, "-i", str(bad)], tmp_path, capsys)
    assert rc == 1 and out == ""
    assert "bad.txt" in err and "UTF-8" in err


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["-i", "hyp"],
        ["ref", "--no-such-option"],
        ["ref", "-tok", "bogus"],
        ["ref", "-s", "Exp"],
        ["ref", "-w", "two"],
        ["ref", "-f", "yaml"],
        ["ref", "-l", "ende"],
    ],
    ids=[
        "nothing",
        "no-refs",
        "unknown-option",
        "bad-tokenizer",
        "bad-smooth",
        "bad-width",
        "bad-format",
        "bad-langpair",
    ],
)
def test_usage_errors_exit_2(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "ref", ["a b"])
    _write(tmp_path / "hyp", ["a b"])
    if "-i" not in args and args:
        args = [*args, "-i", "hyp"]
    rc, out, err = _ours(args, tmp_path, capsys)
    assert rc == 2, (rc, err)
    assert out == "" and "error" in err


def test_usage_error_messages_name_the_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "ref", ["a"])
    _, _, err = _ours(["ref", "-i", "ref", "-tok", "bogus"], tmp_path, capsys)
    assert "'bogus'" in err and "13a" in err and "intl" in err
    _, _, err = _ours(["ref", "-i", "ref", "-s", "bogus"], tmp_path, capsys)
    assert "'bogus'" in err and "floor" in err and "add-k" in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    assert "usage" in capsys.readouterr().out.lower()


# --- the installed command -----------------------------------------------------------------------


def _rapidbleu_cmds() -> list[list[str]]:
    script = shutil.which("rapidbleu", path=str(BIN)) or shutil.which("rapidbleu")
    cmds = [[sys.executable, "-m", "rapidbleu"]]
    if script:
        cmds.insert(0, [script])
    return cmds


@pytest.mark.parametrize(
    "cmd", _rapidbleu_cmds(), ids=lambda c: Path(c[0]).name + (" -m" if len(c) > 1 else "")
)
def test_installed_command(
    cmd: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*DE2, "-f", "text", "-w", "3"]
    proc = subprocess.run([*cmd, *args], cwd=data_dir, capture_output=True, env=_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    rc, out, _ = _ours(args, data_dir, capsys)
    assert rc == 0 and proc.stdout.decode("utf-8") == out
    # stdin, and an exit code through the process boundary
    hyp = (data_dir / "wmt22.en-de/hyp.Online-B.de").read_bytes()
    proc = subprocess.run(
        [*cmd, "wmt22.en-de/ref.A.de", "-b"],
        cwd=data_dir,
        input=hyp,
        capture_output=True,
        env=_env(),
        timeout=120,
    )
    assert proc.returncode == 0
    theirs = _sacrebleu(["wmt22.en-de/ref.A.de", "-b"], data_dir, stdin=hyp)
    assert proc.stdout == theirs.stdout
    proc = subprocess.run([*cmd, "--no-such-option"], capture_output=True, env=_env(), timeout=120)
    assert proc.returncode == 2 and proc.stdout == b""
    proc = subprocess.run(
        [*cmd, "missing.ref", "-i", "missing.hyp"],
        cwd=data_dir,
        capture_output=True,
        env=_env(),
        timeout=120,
    )
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr


def test_installed_script_exists() -> None:
    assert shutil.which("rapidbleu", path=str(BIN)) or shutil.which("rapidbleu"), (
        f"no rapidbleu script in {BIN} or on PATH (pip install -e . / maturin develop)"
    )


@pytest.mark.skipif(not DATA.is_dir(), reason=f"{DATA} not found")
def test_sacrebleu_version_is_pinned() -> None:
    proc = subprocess.run([*_sacrebleu_cmd(), "-V"], capture_output=True, env=_env(), timeout=60)
    assert b"2.6.0" in proc.stdout + proc.stderr


# --- standard input through the real process ------------------------------------------------------


def _run_both(args: list[str], cwd: Path, stdin: bytes) -> tuple[Any, Any]:
    cmd = _rapidbleu_cmds()[0]
    ours = subprocess.run(
        [*cmd, *args], cwd=cwd, input=stdin, capture_output=True, env=_env(), timeout=120
    )
    return ours, _sacrebleu(args, cwd, stdin=stdin)


def test_stdin_carriage_return_splits_lines_like_sacrebleu(tmp_path: Path) -> None:
    """sacreBLEU wraps stdin in io.TextIOWrapper (universal newlines): a lone "\\r" ends a
    line there, while files are read with newline="\\n" (reference §6, gotcha 16)."""
    _write(tmp_path / "ref", ["a b", "c", "d e f"])
    stdin = b"a b\rc\nd e f\n"  # 3 lines for sacreBLEU
    ours, theirs = _run_both(["ref", "-f", "text"], tmp_path, stdin)
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == theirs.returncode, ours.stderr.decode()
    assert strip_version(ours.stdout.decode()) == theirs.stdout.decode()


def test_stdin_invalid_utf8_message(tmp_path: Path) -> None:
    """Undecodable bytes on stdin: exit 1 and a message about UTF-8 (as for a file), not one
    about lone surrogates and errors='replace' (which a command-line user cannot pass)."""
    _write(tmp_path / "ref", ["a"])
    ours, theirs = _run_both(["ref"], tmp_path, b"caf\xe9\n")
    assert theirs.returncode != 0
    err = ours.stderr.decode()
    assert ours.returncode == 1 and "Traceback" not in err
    assert "UTF-8" in err and "surrogate" not in err, err
