"""sacreBLEU's informational stderr lines ("Found N systems.", the paired test being run), which
``-q`` hides; stdout stays sacreBLEU's byte for byte (tests/cli/test_cli_parity.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clitools import ours, write_lines


@pytest.fixture
def files(tmp_path: Path) -> Path:
    write_lines(tmp_path / "ref", ["a b c d", "e f g h"])
    write_lines(tmp_path / "a", ["a b c d", "e f g x"])
    write_lines(tmp_path / "b", ["a b c x", "e f g h"])
    return tmp_path


def test_found_systems(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = ours(["ref", "-i", "a", "b", "-f", "text"], files, capsys)
    assert rc == 0 and err == "rapidbleu: Found 2 systems.\n"
    rc, _, err = ours(["ref", "-i", "a", "-f", "text"], files, capsys)
    assert rc == 0 and err == ""
    rc, _, err = ours(["ref", "-i", "a", "b", "-q"], files, capsys)
    assert rc == 0 and err == ""


@pytest.mark.parametrize(
    ("opts", "line"),
    [
        (["-pbs", "-pbsn", "10"], " > Performing paired bootstrap resampling test (# resamples: 1"),
        (["-par", "-parn", "10"], " > Performing paired approximate randomization test (# trials:"),
    ],
)
def test_paired_progress(
    opts: list[str], line: str, files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = ours(["ref", "-i", "a", "b", *opts], files, capsys)
    assert rc == 0 and err.splitlines()[0] == "rapidbleu: Found 2 systems."
    assert err.splitlines()[1].startswith(f"rapidbleu: {line}") and len(err.splitlines()) == 2
    rc, _, err = ours(["ref", "-i", "a", "b", *opts, "-q"], files, capsys)
    assert rc == 0 and err == ""
