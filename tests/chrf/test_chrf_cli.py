"""``rapidbleu -m chrf`` against the ``sacrebleu`` command, byte for byte (but the version).

Every ``--chrf-*`` option, text / JSON / LaTeX, sentence level, several metrics and systems,
``-ci`` / ``-pbs`` / ``-par`` with several metrics, on real WMT lines (the first 300 of each
file, so that sacreBLEU's pure-Python chrF runs in seconds), plus generated lines whose ends
the command strips. One deliberate difference: sacreBLEU's default JSON output of a paired test
with chrF crashes under NumPy 2; rapidbleu prints it (see ``test_paired_json_numpy2``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from clitools import ours, sacrebleu
from conftest import DATA, read_lines, strip_version

LINES = 300
SYSTEMS = ["hyp.PROMT.de", "hyp.Online-B.de", "hyp.OpenNMT.de"]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU_SEED"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first lines of the real en-de files (two references, three systems)."""
    d = tmp_path_factory.mktemp("chrf_cli")
    for name in ["ref.A.de", "ref.B.de", *SYSTEMS]:
        lines = read_lines(DATA / "wmt22.en-de" / name)[:LINES]
        (d / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    # Lines with spaces at both ends and Python-only whitespace: the command strips line ends
    # (rstrip) and chrF itself does not, so `--chrf-whitespace` sees the leading ones.
    odd = ["  a b (hi) ", "\x1cx\x1fy\u200bz", "", " ¿qué? «a»\t", "İstanbul ΣΑΣ"]
    (d / "odd.hyp").write_text("".join(s + "\n" for s in odd), encoding="utf-8")
    (d / "odd.ref").write_text("".join(s[::-1] + " \n" for s in odd), encoding="utf-8")
    return d


def _same(args: list[str], cwd: Path, capsys: pytest.CaptureFixture[str]) -> str:
    theirs = sacrebleu(args, cwd)
    assert theirs.returncode == 0, theirs.stderr
    rc, out, err = ours(args, cwd, capsys)
    assert rc == 0, err
    assert strip_version(out) == theirs.stdout.decode("utf-8")
    return out


ONE_SYSTEM = [
    ["-m", "chrf"],
    ["-m", "chrf", "-f", "text"],
    ["-m", "chrf", "-f", "latex"],
    ["-m", "chrf", "-cw", "2"],
    ["-m", "chrf", "--chrf-word-order", "2", "-f", "text", "-sh"],
    ["-m", "chrf", "-cc", "4", "-cw", "1", "--chrf-beta", "3", "-w", "4"],
    ["-m", "chrf", "--chrf-whitespace", "--chrf-lowercase", "-f", "text"],
    ["-m", "chrf", "--chrf-eps-smoothing", "--chrf-char-order", "2", "-b", "-w", "6"],
    ["-m", "chrf", "--chrf-beta", "0", "-f", "text"],
    ["-m", "bleu", "chrf"],
    ["-m", "chrf", "bleu", "-f", "text", "-w", "3"],
    ["-m", "chrf", "bleu", "-f", "latex", "-sh"],
    ["-m", "chrf", "bleu", "-cw", "2", "-b"],
    ["-m", "chrf", "bleu", "-ci", "--confidence-n", "100"],
    ["-m", "chrf", "-cw", "2", "-ci", "--confidence-n", "60", "-f", "text"],
    ["-m", "chrf", "-sl"],
    ["-m", "chrf", "-sl", "-cw", "2", "-sh", "-w", "4"],
    ["-m", "chrf", "-sl", "--chrf-eps-smoothing", "-b"],
]


@pytest.mark.parametrize("extra", ONE_SYSTEM, ids=" ".join)
@pytest.mark.parametrize("refs", [["ref.A.de"], ["ref.A.de", "ref.B.de"]], ids=len)
def test_one_system(
    extra: list[str], refs: list[str], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _same([*refs, "-i", SYSTEMS[0], *extra], files, capsys)


@pytest.mark.parametrize(
    "extra",
    [
        ["-m", "chrf", "--chrf-whitespace", "-f", "text"],
        ["-m", "chrf", "-cw", "2", "--chrf-lowercase", "-f", "text"],
        ["-m", "chrf", "-sl", "--chrf-whitespace", "-cw", "2", "-w", "8"],
    ],
    ids=" ".join,
)
def test_stripped_lines(extra: list[str], files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _same(["odd.ref", "-i", "odd.hyp", *extra], files, capsys)


SEVERAL_SYSTEMS = [
    ["-m", "chrf", "-f", "text"],
    ["-m", "chrf", "bleu"],
    ["-m", "bleu", "chrf", "-f", "latex", "-cw", "2"],
    ["-m", "chrf", "bleu", "-pbs", "-pbsn", "100", "-f", "text"],
    ["-m", "bleu", "chrf", "-pbs", "-pbsn", "100", "-f", "latex", "-cw", "2"],
    ["-m", "chrf", "bleu", "-par", "-parn", "200", "-f", "text", "--chrf-eps-smoothing"],
    ["-m", "chrf", "-par", "-parn", "100", "-f", "text", "-w", "3"],
    ["-m", "chrf", "-par", "-parn", "100"],  # JSON: AR scores are float64, no crash
]


@pytest.mark.parametrize("extra", SEVERAL_SYSTEMS, ids=" ".join)
def test_several_systems(extra: list[str], files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _same(["ref.A.de", "-i", *SYSTEMS, *extra], files, capsys)


def test_stdin_systems(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cols = [read_lines(files / s)[:LINES] for s in SYSTEMS[:2]]
    data = "".join(f"{a}\t{b}\n" for a, b in zip(*cols)).encode("utf-8")
    args = ["ref.A.de", "-m", "chrf", "bleu", "-f", "text"]
    theirs = sacrebleu(args, files, stdin=data)
    rc, out, _ = ours(args, files, capsys, stdin=data)
    assert rc == theirs.returncode == 0
    assert strip_version(out) == theirs.stdout.decode("utf-8")


def test_paired_json_numpy2(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SacreBLEU's bug, not copied: its JSON of a paired bootstrap test with chrF.

    Under NumPy 2 chrF's resampled scores are ``np.float32`` and sacreBLEU's ``json.dumps``
    fails (``Object of type float32 is not JSON serializable``); ``-f text`` works. rapidbleu
    prints the JSON (sacreBLEU's layout, as under NumPy 1) with the numbers ``-f text`` shows.
    """
    args = ["ref.A.de", "-i", *SYSTEMS[:2], "-m", "bleu", "chrf", "-pbs", "-pbsn", "100"]
    theirs = sacrebleu(args, files)
    import numpy as np

    if int(np.__version__.split(".")[0]) >= 2:
        assert theirs.returncode != 0
        assert b"Object of type float32 is not JSON serializable" in theirs.stderr
    rc, out, err = ours(args, files, capsys)
    assert rc == 0, err
    table = json.loads(out)
    assert [row["system"] for row in table] == ["Baseline: hyp.PROMT.de", "hyp.Online-B.de"]
    rc, text, _ = ours([*args, "-f", "text", "-w", "4"], files, capsys)
    text_theirs = sacrebleu([*args, "-f", "text", "-w", "4"], files)
    assert strip_version(text) == text_theirs.stdout.decode("utf-8")
    for row in table:
        shown = (
            f"{row['chrF2']['score']:.4f} ({row['chrF2']['mean']:.4f} ± {row['chrF2']['ci']:.4f})"
        )
        assert shown in text


def test_installed_command(files: Path) -> None:
    """The ``rapidbleu`` script in a subprocess, as users run it."""
    import shutil
    import sys

    exe = shutil.which("rapidbleu", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "rapidbleu"]
    args = ["ref.A.de", "-i", SYSTEMS[0], "-m", "bleu", "chrf", "-cw", "2", "-f", "text"]
    got = subprocess.run([*cmd, *args], cwd=files, capture_output=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert strip_version(got.stdout.decode("utf-8")) == sacrebleu(args, files).stdout.decode()


@pytest.mark.parametrize(
    "extra,fragment",
    [
        (["-m", "chrf", "-cc", "-1"], "-cc/--chrf-char-order must be >= 0"),
        (["-m", "chrf", "-cc", "0"], "char_order and word_order are both 0"),
        (["-m", "chrf", "--chrf-beta", "-2"], "--chrf-beta must be >= 0"),
        (["-m", "chrf", "--chrf-beta", "2.5"], "invalid int value"),
        (["-m", "chrf", "-cc", "101"], "char_order must be an integer from 0 to 100, got 101"),
        (["-m", "chrf", "bleu", "-sl"], "Only one metric can be used in sentence-level mode."),
        (["-m", "chrf", "chrf"], "each metric at most once"),
    ],
)
def test_bad_options(
    extra: list[str], fragment: str, files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = ours(["ref.A.de", "-i", SYSTEMS[0], *extra], files, capsys)
    assert rc == 2 and out == ""
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_mismatched_lines(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = ours(["ref.A.de", "-i", "odd.hyp", "-m", "chrf"], files, capsys)
    assert rc == 1 and out == "" and err.startswith("rapidbleu: error:")
