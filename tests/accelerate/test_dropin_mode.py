"""The mode (issue 36): options set after construction, fallbacks' signatures, pickling, and
sacreBLEU's own command, each the same as without the mode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA

HERE = Path(__file__).resolve().parent
ACCELERATE = [sys.executable, "-m", "rapidbleu.accelerate"]


def _run(argv: list[str], tmp_path: Path) -> tuple[int, str, str]:
    environ = {**os.environ, "RAPIDBLEU_ACCELERATE_REPORT": str(tmp_path / "report.json")}
    environ.pop("RAPIDBLEU_ACCELERATE", None)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=environ)
    return done.returncode, done.stdout, done.stderr


def test_attributes_fallback_signatures_and_pickles_as_without_the_mode(tmp_path: Path) -> None:
    program = [str(HERE / "programs" / "sets_attributes.py"), str(DATA)]
    rc, plain, err = _run([sys.executable, *program], tmp_path)
    assert rc == 0, err
    rc, fast, err = _run([*ACCELERATE, *program], tmp_path)
    assert rc == 0, err
    assert json.loads(fast) == json.loads(plain)
    calls = json.loads((tmp_path / "report.json").read_text())["calls"]
    fell_back = {c["name"] for c in calls if c["where"] == "fallback"}
    assert fell_back == {
        # One name per class, whatever path the program used: the package's.
        "sacrebleu.BLEU.corpus_score",
        "sacrebleu.CHRF.corpus_score",
    }


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    names = []
    for f in ["wmt22.en-de/ref.A.de", "wmt22.en-de/ref.B.de", "wmt22.en-de/hyp.PROMT.de"]:
        path = tmp_path / f.replace("/", "_")
        lines = (DATA / f).read_text(encoding="utf-8").splitlines()[:150]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        names.append(str(path))
    return names


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["-m", "bleu", "chrf", "ter", "-b"],
        ["-m", "bleu", "chrf", "--format", "json", "-w", "3"],
        ["-m", "chrf", "--chrf-word-order", "2", "-lc"],
        ["-m", "bleu", "-tok", "intl", "-sl"],
    ],
)
def test_sacrebleus_command_in_the_mode_prints_what_it_prints(
    files: list[str], options: list[str], tmp_path: Path
) -> None:
    argv = ["-m", "sacrebleu", files[0], files[1], "-i", files[2], *options]
    plain = _run([sys.executable, *argv], tmp_path)
    fast = _run([*ACCELERATE, *argv], tmp_path)
    assert plain[0] == 0, plain[2]
    assert fast == plain


def test_sacrebleus_version_command_in_the_mode(tmp_path: Path) -> None:
    rc, out, err = _run([*ACCELERATE, "-m", "sacrebleu", "-V"], tmp_path)
    # The mode's sacrebleu.__version__ says that rapidbleu answers (as its signatures' field).
    assert (rc, out.startswith("__main__.py 2.6.0+rapidbleu.")) == (0, True), err


def test_the_report_counts_each_call_once(tmp_path: Path) -> None:
    # rouge-score's `score` calls `score_multi`: the report shows the program's 5 calls only.
    program = tmp_path / "five.py"
    program.write_text(
        "from rouge_score import rouge_scorer\n"
        "scorer = rouge_scorer.RougeScorer(['rouge1', 'rougeL'])\n"
        "print([scorer.score('a b c', 'a b d')['rougeL'].fmeasure for _ in range(5)])\n"
    )
    rc, fast, err = _run([*ACCELERATE, str(program)], tmp_path)
    assert rc == 0, err
    assert fast == _run([sys.executable, str(program)], tmp_path)[1]
    calls = json.loads((tmp_path / "report.json").read_text())["calls"]
    counts = {c["name"]: c["count"] for c in calls}
    assert counts == {
        "rouge_score.rouge_scorer.RougeScorer": 1,
        "rouge_score.rouge_scorer.RougeScorer.score": 5,
    }


def test_dash_c_code_runs_in_the_mode(tmp_path: Path) -> None:
    code = "import sys, sacrebleu; print(sacrebleu.__version__, sys.argv[1:])"
    rc, out, err = _run([*ACCELERATE, "-c", code, "x", "y"], tmp_path)
    assert rc == 0, err
    assert out.startswith("2.6.0+rapidbleu.") and out.endswith(" ['x', 'y']\n")
