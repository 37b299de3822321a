"""The command never crashes, never prints a traceback and never leaves half an output.

Each case of the reliability review runs the installed command as a process (closed standard
streams and a full disk need a real process): one line on stderr, the documented exit code,
nothing on stdout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def _run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, **kw: Any
) -> subprocess.CompletedProcess[bytes]:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(
        [sys.executable, "-m", "rapidbleu", *args],
        cwd=cwd,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
        **kw,
    )


def _one_line_error(proc: subprocess.CompletedProcess[bytes], code: int, *fragments: str) -> None:
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == code, err
    assert err.count("\n") == 1 and err.startswith("rapidbleu: error: "), err
    assert "Traceback" not in err
    for f in fragments:
        assert f in err, err
    if proc.stdout is not None:
        assert proc.stdout == b""


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "ref").write_text("a b c\nd e f\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("a b c\nd e x\n", encoding="utf-8")
    (tmp_path / "hyp2").write_text("a b x\nd e f\n", encoding="utf-8")
    return tmp_path


def test_utf16_without_bom(files: Path) -> None:
    _one_line_error(_run(["ref", "-i", "hyp", "-e", "utf-16"], files), 1, "utf-16", "BOM")


def test_closed_stdin(files: Path) -> None:
    proc = _run(["ref"], files, stdin=None, preexec_fn=lambda: os.close(0))
    _one_line_error(proc, 1, "standard input is closed", "-i FILE")


def test_closed_stdout(files: Path) -> None:
    proc = _run(["ref", "-i", "hyp"], files, stdout=None, preexec_fn=lambda: os.close(1))
    _one_line_error(proc, 1, "standard output is closed")


def test_full_disk(files: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = _run(["ref", "-i", "hyp"], files, stdout=full)
    _one_line_error(proc, 1, "cannot write the output", "No space left")


def test_deeply_nested_jsonl(files: Path) -> None:
    (files / "deep.jsonl").write_text("[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    _one_line_error(_run(["--jsonl", "deep.jsonl"], files), 1, "line 1", "nested too deeply")


def test_negative_seed(files: Path) -> None:
    proc = _run(["ref", "-i", "hyp", "-ci"], files, env={"SACREBLEU_SEED": "-5"})
    _one_line_error(proc, 2, "SACREBLEU_SEED", "'-5'")
    # Paired tests too, before sacreBLEU's informational lines.
    for test in ("-pbs", "-par"):
        proc = _run(["ref", "-i", "hyp", "hyp2", test], files, env={"SACREBLEU_SEED": "-5"})
        _one_line_error(proc, 2, "SACREBLEU_SEED", "'-5'")


def test_absurd_resample_count(files: Path) -> None:
    proc = _run(["ref", "-i", "hyp", "hyp2", "-pbs", "-pbsn", "100000000000"], files)
    _one_line_error(proc, 2, "n_samples", "10,000,000")


@pytest.mark.parametrize("late", ["count", "utf8"])
def test_sentence_level_output_is_all_or_nothing(files: Path, late: str) -> None:
    """An error found at line 40,001 leaves nothing on stdout (sacreBLEU writes nothing)."""
    n = 40_000
    (files / "big.ref").write_text("a b c\n" * (n + 1), encoding="utf-8")
    hyp = b"a b c\n" * n + (b"\xff\n" if late == "utf8" else b"")
    (files / "big.hyp").write_bytes(hyp)
    proc = _run(["big.ref", "-i", "big.hyp", "-sl"], files)
    fragment = "byte offset" if late == "utf8" else "line counts differ"
    _one_line_error(proc, 1, fragment)


def test_broken_pipe_is_quiet(files: Path) -> None:
    (files / "big.ref").write_text("a b c\n" * 30_000, encoding="utf-8")
    (files / "big.hyp").write_text("a b c\n" * 30_000, encoding="utf-8")
    cmd = [sys.executable, "-m", "rapidbleu", "big.ref", "-i", "big.hyp", "-sl", "-b"]
    with subprocess.Popen(cmd, cwd=files, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as p:
        assert p.stdout is not None and p.stderr is not None
        assert p.stdout.readline() == b"100.0\n"
        p.stdout.close()
        err = p.stderr.read()
        assert p.wait(timeout=120) == 141
    assert b"Traceback" not in err


@pytest.mark.parametrize("bad_id", ["NaN", "Infinity", "-Infinity", "1e999", '{"x": [NaN]}'])
def test_non_finite_ids_are_refused(files: Path, bad_id: str) -> None:
    """Python's json reads NaN, Infinity and 1e999 (inf); --per-item could not write them back
    as valid JSON, so the line is refused by number."""
    good = '{"candidate": "a b c", "references": ["a b c"], "id": 1}'
    bad = f'{{"candidate": "a b c", "references": ["a b c"], "id": {bad_id}}}'
    (files / "items.jsonl").write_text(f"{good}\n{bad}\n", encoding="utf-8")
    for extra in ([], ["--per-item"]):
        proc = _run(["--jsonl", "items.jsonl", *extra], files)
        _one_line_error(proc, 1, "items.jsonl: line 2", "not finite")


def test_per_item_output_is_valid_json(files: Path) -> None:
    import json

    lines = [
        '{"candidate": "a b c", "references": ["a b c"], "id": 1e300}',
        '{"candidate": "a b", "references": ["a x"], "id": [1, "x", null]}',
    ]
    (files / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = _run(["--jsonl", "items.jsonl", "--per-item"], files)
    assert proc.returncode == 0, proc.stderr

    def refuse(constant: str) -> None:
        pytest.fail(f"{constant} in the output")

    for line in proc.stdout.decode().splitlines():
        json.loads(line, parse_constant=refuse)


@pytest.mark.parametrize(
    "extra", [["-f", "text"], ["-par", "-parn", "20"]], ids=["stream", "whole-corpus"]
)
def test_many_systems_under_a_low_open_file_limit(files: Path, extra: list[str]) -> None:
    """100 system files under `ulimit -n 40`: sacreBLEU reads one file at a time and succeeds;
    rapidbleu reads the systems in batches that fit the limit, with the same output."""
    import resource

    names = []
    for i in range(100):
        (files / f"sys{i:03}").write_text(f"a b c\nd e {i}\n", encoding="utf-8")
        names.append(f"sys{i:03}")
    args = ["ref", "-i", *names, *extra]
    unlimited = _run(args, files)
    assert unlimited.returncode == 0, unlimited.stderr

    def low_limit() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (40, hard))

    limited = _run(args, files, preexec_fn=low_limit)
    assert limited.returncode == 0, limited.stderr
    assert limited.stdout == unlimited.stdout
    # The limit is real: the process cannot hold every file open at once.
    probe = subprocess.run(
        [sys.executable, "-c", f"fs = [open(n) for n in {names!r}]"],
        cwd=files,
        preexec_fn=low_limit,
        capture_output=True,
        check=False,
    )
    assert probe.returncode != 0 and b"Too many open files" in probe.stderr
