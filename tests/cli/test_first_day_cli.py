"""Issue 25 on the command: what an adversarial tester and a new user hit on the first day.

Each test is named after its finding (docs/notes/reliability.md has the table) and runs the
command as a process where the defect showed only there (a traceback printed while the
interpreter collects a generator).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    from contextlib import chdir
else:  # CPython 3.10 has no contextlib.chdir (scripts/test_pythons.sh runs this file there)

    @contextlib.contextmanager
    def chdir(path: Path) -> Any:
        old = os.getcwd()
        os.chdir(path)
        try:
            yield
        finally:
            os.chdir(old)


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


def _json_run(argv: list[str], cwd: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    from rapidbleu.cli.main import main

    with chdir(cwd):
        code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def systems(tmp_path: Path) -> Path:
    rng = random.Random(25)
    words = "the a cat dog sat ran on under mat tree quickly slowly".split()
    ref = [" ".join(rng.choices(words, k=rng.randint(3, 12))) for _ in range(60)]
    for name, noise in (("ref", 0.0), ("hyp", 0.3), ("hyp2", 0.5)):
        lines = [
            " ".join(w if rng.random() >= noise else rng.choice(words) for w in r.split())
            for r in ref
        ]
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "test",
    [
        ["-ci", "--confidence-n", "50"],
        ["-pbs", "--paired-bs-n", "50"],
        ["-par", "--paired-ar-n", "50"],
    ],
    ids=["ci", "pbs", "par"],
)
def test_finding_5_scale_unit_with_significance(
    systems: Path, test: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``--scale unit`` applies to -ci/-pbs/-par: scores, means and intervals / 100, p as is."""
    hyps = ["hyp"] if test[0] == "-ci" else ["hyp", "hyp2"]
    base = ["ref", "-i", *hyps, *test, "-m", "bleu", "chrf", "ter", "-f", "json", "-w", "4"]
    percent = _json_run([*base, "--scale", "percent"], systems, capsys)
    unit = _json_run([*base, "--scale", "unit", "-w", "6"], systems, capsys)
    if test[0] == "-ci":  # sacreBLEU's JSON list of scores, rounded to -w decimals
        for p, u in zip(percent, unit):
            for key in ("score", "confidence_mean", "confidence_var"):
                assert u[key] == pytest.approx(p[key] / 100, abs=1e-6), key
        return
    for p_sys, u_sys in zip(percent, unit):  # the paired tests' JSON: full precision
        for metric in ("BLEU", "chrF2", "TER"):
            p, u = p_sys[metric], u_sys[metric]
            assert u["p_value"] == p["p_value"]
            for key in ("score", "mean", "ci"):
                if p[key] is not None:
                    assert u[key] == pytest.approx(p[key] / 100, rel=1e-12), key


@pytest.mark.parametrize("argv", [["--list"], ["--list", "-l", "en-de"], ["--list", "-t", "wmt17"]])
def test_finding_9_list_without_datasets_extra_leaves_stdout_empty(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    from rapidbleu.cli.main import main

    for name in ("sacrebleu", "sacrebleu.dataset", "sacrebleu.utils"):
        monkeypatch.setitem(sys.modules, name, None)  # no `datasets` extra
    with chdir(tmp_path):
        code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "pip install sacrebleu" in err, err


@pytest.mark.parametrize(
    ("test", "caption", "absent"),
    [
        (["-par", "-parn", "50"], "p-values from paired approximate randomization (50 trials)",
         ["μ", "confidence interval", "samples"]),
        (["-pbs", "-pbsn", "50"], "μ ± x is the bootstrap mean and the half-width of its 95% "
         "confidence interval; p-values from paired bootstrap resampling (50 resamples)",
         [" samples"]),
    ],
    ids=["par", "pbs"],
)  # fmt: skip
def test_finding_10_card_caption_says_what_the_table_shows(
    systems: Path,
    capsys: pytest.CaptureFixture[str],
    test: list[str],
    caption: str,
    absent: list[str],
) -> None:
    from rapidbleu.cli.main import main

    with chdir(systems):
        code = main(["ref", "-i", "hyp", "hyp2", *test, "-f", "card", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    table, legend = out.split("\n\n")[1], out.split("\n\n")[2]
    assert caption in legend, legend
    for word in absent:
        assert word not in legend, legend
    assert ("μ" in table) == ("μ" in caption)


REPO = Path(__file__).resolve().parents[2]


def test_finding_13_test_script_needs_chromium_and_says_so(tmp_path: Path) -> None:
    """Without Chromium and without root, scripts/test.sh stops first, saying what to do."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "dirname").symlink_to(shutil.which("dirname") or "/usr/bin/dirname")
    (bin_dir / "id").write_text("#!/bin/sh\necho 1000\n")  # not root
    (bin_dir / "id").chmod(0o755)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    bash = shutil.which("bash") or "/bin/bash"
    proc = subprocess.run(
        [bash, str(REPO / "scripts" / "test.sh")], env=env, capture_output=True, timeout=60
    )
    err = proc.stderr.decode()
    assert proc.returncode == 1, (proc.stdout, err)
    assert (
        "no Chromium" in err and "apt-get install chromium" in err and "RAPIDBLEU_CHROMIUM" in err
    )
    # Nothing else ran: no virtual environment, no cargo.
    assert b"== rust" not in proc.stdout and not (tmp_path / ".venv").exists()


def test_finding_13_test_script_pip_installs_are_not_silent() -> None:
    script = (REPO / "scripts" / "test.sh").read_text()
    assert "pip install -q" not in script and "--progress-bar off" in script
    assert "apt-get install" in script  # and .ci/run leaves Chromium to it
    assert "apt-get" not in (REPO / ".ci" / "run").read_text()
