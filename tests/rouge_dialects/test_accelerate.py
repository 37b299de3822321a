"""Accelerator mode: ``import rouge``, ``rouge_chinese`` and ``multilingual_rouge`` reach rapidbleu.

A program using the three packages prints the same JSON run plainly and under ``python -m
rapidbleu.accelerate``, and the mode's report shows rapidbleu computed the calls (the invalid
inputs fall back to, or raise as, the real package).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import DATA

PROGRAM = Path(__file__).resolve().parent / "programs" / "uses_rouge_dialects.py"


def run(argv: list[str], tmp_path: Path) -> tuple[Any, dict[str, set[str]]]:
    report = tmp_path / f"report-{len(list(tmp_path.iterdir()))}.json"
    environ = {**os.environ, "RAPIDBLEU_ACCELERATE_REPORT": str(report)}
    environ.pop("RAPIDBLEU_ACCELERATE", None)
    done = subprocess.run(
        [*argv, str(PROGRAM), str(DATA), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=environ,
    )
    assert done.returncode == 0, done.stderr
    calls = json.loads(report.read_text())["calls"] if report.exists() else []
    where: dict[str, set[str]] = {}
    for c in calls:
        where.setdefault(c["name"], set()).add(c["where"])
    return json.loads(done.stdout), where


def test_a_program_of_the_three_packages_gives_the_same_output(tmp_path: Path) -> None:
    plain, _ = run([sys.executable], tmp_path)
    fast, ran = run([sys.executable, "-m", "rapidbleu.accelerate"], tmp_path)
    assert fast == plain
    assert plain["is_rouge"] is True
    assert plain["rouge_empty"] == ["ValueError", "Hypothesis is empty."]
    assert plain["xlsum_rouge0"] == ["ValueError", "rougen requires positive n: rouge0"]
    for name in [
        "rouge.rouge.Rouge",
        "rouge.rouge.Rouge.get_scores",
        "rouge.rouge.FilesRouge",
        "rouge_chinese.rouge.Rouge.get_scores",
        "multilingual_rouge.rouge_scorer.RougeScorer",
        "multilingual_rouge.rouge_scorer.RougeScorer.score",
    ]:
        assert "rapidbleu" in ran[name], (name, ran)
