"""``rapidbleu`` paired tests and confidence intervals against the ``sacrebleu`` command.

Output must be sacreBLEU 2.6.0's byte for byte (text table, JSON), apart from the signature's
version field; run on the real WMT17 en-de systems.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import strip_version

from rapidbleu.cli import main, paired

BIN = Path(sys.executable).parent
SYS = ["hyp.C-3MA.4959.de", "hyp.FBK.4870.de", "hyp.online-A.0.de"]


def _sacrebleu(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    exe = shutil.which("sacrebleu", path=str(BIN)) or shutil.which("sacrebleu")
    cmd = [exe] if exe else [sys.executable, "-m", "sacrebleu"]
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "NO_COLOR")}
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("SACREBLEU_SEED", None)
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, env=env, timeout=300)


def _ours(args: list[str], cwd: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        capsys.readouterr()
        rc = main(args)
        out, err = capsys.readouterr()
    finally:
        os.chdir(old)
    return rc, out, err


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU_SEED"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def wmt17(data_dir: Path) -> Path:
    return data_dir / "wmt17.en-de"


CASES = [
    ["-pbs", "-pbsn", "100", "-f", "text"],
    ["-pbs", "-pbsn", "100"],
    ["-pbs", "-pbsn", "50", "-f", "text", "-w", "3", "-sh"],
    ["-par", "-parn", "200", "-f", "text"],
    ["-par", "-parn", "200", "-f", "json", "-w", "2"],
    ["-par", "-parn", "100", "-f", "latex"],
    ["-pbs", "-pbsn", "0", "-f", "text", "-tok", "intl", "-lc"],
    ["-par", "-parn", "100", "-f", "text", "-s", "add-k", "-sv", "0.5"],
]


@pytest.mark.parametrize("extra", CASES, ids=" ".join)
def test_paired_table_equals_sacrebleu(
    extra: list[str], wmt17: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ref.A.de", "-i", *SYS, *extra]
    theirs = _sacrebleu(args, wmt17)
    assert theirs.returncode == 0, theirs.stderr
    rc, out, err = _ours(args, wmt17, capsys)
    assert rc == 0, err
    assert strip_version(out) == theirs.stdout.decode("utf-8")


def test_paired_defaults_equal_sacrebleu(wmt17: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sacreBLEU's default sizes (1,000 resamples / 10,000 trials), once each."""
    for test in ("-pbs", "-par"):
        args = ["ref.A.de", "-i", *SYS[:2], test, "-f", "text"]
        theirs = _sacrebleu(args, wmt17)
        rc, out, _ = _ours(args, wmt17, capsys)
        assert rc == 0
        assert strip_version(out) == theirs.stdout.decode("utf-8")


@pytest.mark.parametrize(
    "extra",
    [["-ci", "-cin", "100", "-f", "text"], ["-ci", "-cin", "100"], ["-ci", "-w", "3", "-sh"]],
    ids=" ".join,
)
def test_confidence_equals_sacrebleu(
    extra: list[str], wmt17: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ref.A.de", "-i", SYS[0], *extra]
    theirs = _sacrebleu(args, wmt17)
    rc, out, _ = _ours(args, wmt17, capsys)
    assert rc == 0
    assert strip_version(out) == theirs.stdout.decode("utf-8")


def test_baseline_given_twice_is_skipped(wmt17: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ref.A.de", "-i", SYS[0], SYS[1], SYS[0], "-pbs", "-pbsn", "20", "-f", "text"]
    theirs = _sacrebleu(args, wmt17)
    rc, out, _ = _ours(args, wmt17, capsys)
    assert rc == 0
    assert strip_version(out) == theirs.stdout.decode("utf-8")


def test_errors(wmt17: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _ours(["ref.A.de", "-i", SYS[0], "-pbs"], wmt17, capsys)
    # Exit codes follow rapidbleu's rule (2: command line, 1: input), not sacreBLEU's 1 for all.
    assert rc == 2 and out == "" and "multiple input systems" in err and err.count("\n") == 1
    rc, _, err = _ours(["ref.A.de", "-i", SYS[0], SYS[1], "-pbs", "-par"], wmt17, capsys)
    assert rc == 2 and "not allowed with" in err
    rc, _, err = _ours(["ref.A.de", "-i", SYS[0], SYS[1], SYS[1], "-pbs"], wmt17, capsys)
    assert rc == 1 and "already used" in err
    rc, _, err = _ours(["ref.A.de", "-i", SYS[0], SYS[1], "-ci"], wmt17, capsys)
    assert rc == 2 and "paired test" in err


def test_colours_only_on_a_terminal(wmt17: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    parser = __import__("argparse").ArgumentParser()
    paired.add_arguments(parser)
    args = parser.parse_args(["-pbs", "-pbsn", "10"])
    args.format, args.width, args.short = "text", 1, False
    refs = [["a b c d", "e f g h"]]
    systems = [("bl", ["a b c d", "e f x h"]), ("sys", ["a b c x", "e f g h"])]
    tty = Tty()
    paired.run_paired(args, systems, refs, {}, tty)
    assert "\x1b[33m" in tty.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    tty = Tty()
    paired.run_paired(args, systems, refs, {}, tty)
    assert "\x1b[" not in tty.getvalue()
