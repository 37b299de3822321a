"""A per-item method's fast path in the mode (``metrics/per_call.py``): unwrapped, and exact.

Without a report the mode's ``RougeScorer`` wraps only ``score``'s general path, so the common
call is one core call; refused calls still reach rouge-score through the general path's
wrapper. With a report every ``score`` call is wrapped and counted once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = Path(__file__).resolve().parent / "programs" / "scores_item_by_item.py"


def _run(mode: list[str], report: Path | None) -> dict[str, list[str]]:
    environ = dict(os.environ)
    environ.pop("RAPIDBLEU_ACCELERATE", None)
    environ.pop("RAPIDBLEU_ACCELERATE_REPORT", None)
    if report is not None:
        environ["RAPIDBLEU_ACCELERATE_REPORT"] = str(report)
    done = subprocess.run(
        [sys.executable, *mode, str(PROGRAM)],
        capture_output=True,
        text=True,
        timeout=300,
        env=environ,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    out: dict[str, list[str]] = json.loads(done.stdout)
    return out


@pytest.fixture(scope="module")
def plain() -> dict[str, list[str]]:
    return _run([], None)


def test_without_a_report_the_fast_path_is_unwrapped_and_answers_as_rouge_score(
    plain: dict[str, list[str]],
) -> None:
    fast = _run(["-m", "rapidbleu.accelerate"], None)
    assert fast["calls"] == plain["calls"]
    assert plain["calls"][3].startswith("{'rouge1': Score(precision=1.0")
    assert plain["calls"][4].startswith("AttributeError")
    assert plain["calls"][5].startswith("ValueError")
    assert fast["wrapped"] == ["_score_general"]


def test_with_a_report_every_call_is_wrapped_and_counted_once(
    plain: dict[str, list[str]], tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    fast = _run(["-m", "rapidbleu.accelerate"], report)
    assert fast["calls"] == plain["calls"]
    assert fast["wrapped"] == ["score"]
    calls = json.loads(report.read_text())["calls"]
    counts = {(c["name"], c["where"]): c["count"] for c in calls}
    name = "rouge_score.rouge_scorer.RougeScorer.score"
    assert counts[(name, "rapidbleu")] == 4
    assert counts[(name, "fallback")] == 2
