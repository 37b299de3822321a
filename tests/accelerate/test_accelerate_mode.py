"""Accelerator mode (``python -m rapidbleu.accelerate``): unchanged programs, the same output.

Each program under ``programs/`` runs in its own interpreter (with a timeout), once plainly and
once in accelerator mode; the outputs must be ``==`` and the mode's report must show where each
call ran: on rapidbleu, or (for what rapidbleu refuses) on the real package.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA

import rapidbleu.evaluate

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
ACCELERATE = [sys.executable, "-m", "rapidbleu.accelerate"]


def run(argv: list[str], tmp_path: Path, **env: str) -> tuple[Any, list[dict[str, Any]]]:
    """The program's JSON output and the mode's report (empty when not in the mode)."""
    report = tmp_path / f"report-{len(list(tmp_path.iterdir()))}.json"
    environ = {**os.environ, "RAPIDBLEU_ACCELERATE_REPORT": str(report), **env}
    environ.pop("RAPIDBLEU_ACCELERATE", None)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=environ)
    assert done.returncode == 0, done.stderr
    calls = json.loads(report.read_text())["calls"] if report.exists() else []
    return json.loads(done.stdout), calls


def where(calls: list[dict[str, Any]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for c in calls:
        out.setdefault(c["name"], set()).add(c["where"])
    return out


def test_a_sacrebleu_and_nltk_program_gives_the_same_output(tmp_path: Path) -> None:
    program = [str(PROGRAMS / "uses_sacrebleu.py"), str(DATA)]
    plain, no_calls = run([sys.executable, *program], tmp_path)
    fast, calls = run([*ACCELERATE, *program], tmp_path)
    assert fast == plain
    assert no_calls == []
    ran = where(calls)
    for name in [
        "sacrebleu.sentence_bleu",
        "sacrebleu.corpus_chrf",
        "sacrebleu.corpus_ter",
        # One name per class, whatever path the program used (sacrebleu.metrics.CHRF): the
        # package's. (sacrebleu.BLEU both ran and fell back: see below.)
        "sacrebleu.CHRF",
        "sacrebleu.significance.PairedTest",
        "sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a",
        "nltk.translate.bleu_score.corpus_bleu",
    ]:
        assert ran[name] == {"rapidbleu"}, name
    # The inputs and options rapidbleu refuses went to the real packages (same results above).
    fell_back = {k for k, v in ran.items() if "fallback" in v}
    assert fell_back == {
        "sacrebleu.corpus_bleu",
        "sacrebleu.BLEU",
        "sacrebleu.CHRF.corpus_score",  # a method of an accelerated instance
        "nltk.translate.bleu_score.sentence_bleu",
    }
    assert all("rapidbleu" in v for v in ran.values())


def test_evaluate_load_by_name_computes_with_rapidbleu(tmp_path: Path) -> None:
    fast, calls = run([*ACCELERATE, str(PROGRAMS / "uses_evaluate.py"), str(DATA)], tmp_path)
    preds = (DATA / "wmt22.en-de/hyp.PROMT.de").read_text(encoding="utf-8").splitlines()[:200]
    refs = [[r] for r in (DATA / "wmt22.en-de/ref.A.de").read_text(encoding="utf-8").splitlines()]
    for name in ["sacrebleu", "bleu", "google_bleu", "chrf", "ter"]:
        expected = rapidbleu.evaluate.compute(name, predictions=preds, references=refs[:200])
        assert fast[name] == json.loads(json.dumps(expected)), name
        assert fast[name + " by rapidbleu"] is True  # rapidbleu's loading script
        assert where(calls)[f"evaluate.load({name!r}).compute"] == {"rapidbleu"}


def test_a_rouge_score_program_gives_the_same_output(tmp_path: Path) -> None:
    program = [str(PROGRAMS / "uses_rouge_score.py"), str(DATA)]
    plain, _ = run([sys.executable, *program], tmp_path)
    fast, calls = run([*ACCELERATE, *program], tmp_path)
    assert fast == plain
    assert plain["is_score"] is True and plain["error"] == "ValueError"
    ran = where(calls)
    for name in [
        "rouge_score.rouge_scorer.RougeScorer",
        "rouge_score.rouge_scorer.RougeScorer.score",
        "rouge_score.rouge_scorer.RougeScorer.score_multi",
        "rouge_score.scoring.BootstrapAggregator",
        "rouge_score.scoring.BootstrapAggregator.add_scores",
        "rouge_score.scoring.BootstrapAggregator.aggregate",
    ]:
        assert "rapidbleu" in ran[name], name
    # rouge0 is refused by rapidbleu too: the real class raises rouge-score's own ValueError.
    assert ran["rouge_score.rouge_scorer.RougeScorer"] == {"rapidbleu", "fallback"}


def test_children_inherit_the_mode(tmp_path: Path) -> None:
    fast, _ = run([*ACCELERATE, str(PROGRAMS / "child_processes.py")], tmp_path)
    assert set(fast) == {"parent", "subprocess", "spawn", "forkserver", "fork"}
    assert all(v.startswith("2.6.0+rapidbleu.") for v in fast.values()), fast
    plain, _ = run([sys.executable, str(PROGRAMS / "child_processes.py")], tmp_path)
    assert set(plain.values()) == {"2.6.0"}


def test_module_mode_and_the_text_report(tmp_path: Path) -> None:
    (tmp_path / "scorer.py").write_text(
        "import sys, sacrebleu\n"
        "print(sacrebleu.corpus_bleu([sys.argv[1]], [[sys.argv[2]]]).score)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "RAPIDBLEU_ACCELERATE_REPORT": "1"}
    done = subprocess.run(
        [*ACCELERATE, "-m", "scorer", "a b c d", "a b c d"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "100.00000000000004\n"
    assert "rapidbleu.accelerate: calls by where they ran" in done.stderr
    assert "sacrebleu.corpus_bleu" in done.stderr and "rapidbleu      1" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [([], "usage: python -m rapidbleu.accelerate"), (["no-such-script.py"], "no such script")],
)
def test_command_line_errors(argv: list[str], message: str) -> None:
    done = subprocess.run([*ACCELERATE, *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert message in done.stderr and done.stdout == ""


def test_ipython_extension() -> None:
    code = "%load_ext rapidbleu.accelerate\nimport sacrebleu\nprint(sacrebleu.__version__)"
    done = subprocess.run(
        [sys.executable, "-m", "IPython", "--quick", "--no-banner", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "2.6.0+rapidbleu." in done.stdout


def test_without_the_real_package_names_it_lacks_are_named_errors(tmp_path: Path) -> None:
    # The real sacreBLEU made invisible: rapidbleu answers what it has, and names the rest.
    code = (
        "import json, rapidbleu.accelerate as a, rapidbleu.accelerate.real as real\n"
        "real.real_sacrebleu = lambda: None\n"
        "a.install()\n"
        "import sacrebleu\n"
        "from rapidbleu import errors\n"
        "out = {'score': sacrebleu.corpus_bleu(['a b c d'], [['a b c d']]).score}\n"
        "try:\n    sacrebleu.DATASETS\nexcept errors.RapidBleuError as e:\n"
        "    out['DATASETS'] = [type(e).__name__, str(e)]\n"
        "try:\n    import sacrebleu.dataset\nexcept ModuleNotFoundError as e:\n"
        "    out['dataset'] = str(e)\n"
        "try:\n    sacrebleu.BLEU(tokenize='no-such')\nexcept errors.RapidBleuError as e:\n"
        "    out['option'] = type(e).__name__\n"
        "out['hasattr'] = hasattr(sacrebleu, 'DATASETS')\n"
        "print(json.dumps(out))\n"
    )
    got, _ = run([sys.executable, "-c", code], tmp_path)
    assert got["score"] == 100.00000000000004
    assert got["DATASETS"][0] == "NotAcceleratedError"
    assert "pip install sacrebleu==2.6.0" in got["DATASETS"][1]
    assert "pip install sacrebleu==2.6.0" in got["dataset"]
    assert got["option"] == "UnknownNameError"  # an InvalidOptionError and a KeyError
    assert got["hasattr"] is False


def test_install_and_uninstall_in_process(tmp_path: Path) -> None:
    code = (
        "import sys, sacrebleu as real\n"
        "import rapidbleu.accelerate as a\n"
        "a.install(); a.install()\n"
        "import sacrebleu\n"
        "assert sacrebleu is not real and sacrebleu.__rapidbleu_accelerated__\n"
        "from rapidbleu.accelerate.finder import FINDER\n"
        "assert sys.meta_path.count(FINDER) == 1\n"
        "a.uninstall()\n"
        "import sacrebleu as again\n"
        "assert not hasattr(again, '__rapidbleu_accelerated__') and not a.is_installed()\n"
        "print('{}')\n"
    )
    got, _ = run([sys.executable, "-c", code], tmp_path)
    assert got == {}


def test_a_square_corpus_nested_per_segment_is_warned_about(tmp_path: Path) -> None:
    # sacreBLEU's most reported mistake (mjpost/sacrebleu#220, #256, #259, #272, #281) where the
    # shapes fit: 3 segments, 3 references each, given per segment. The number is sacreBLEU's
    # (the program is unchanged); the mode adds a warning with the fix.
    program = tmp_path / "nested.py"
    program.write_text(
        "import sacrebleu\n"
        "hyps = ['the cat sat on the mat', 'a dog ran in the park', 'it rained all day long']\n"
        "per_segment = [\n"
        "    ['the cat sat on a mat', 'a cat sat on the mat', 'the cat is on the mat'],\n"
        "    ['a dog ran in a park', 'the dog ran in the park', 'a dog runs in the park'],\n"
        "    ['it rained all the day', 'it was raining all day', 'rain fell all day long'],\n"
        "]\n"
        "print(sacrebleu.corpus_bleu(hyps, per_segment).score)\n"
    )
    plain = subprocess.run([sys.executable, str(program)], capture_output=True, text=True)
    fast = subprocess.run([*ACCELERATE, str(program)], capture_output=True, text=True, timeout=120)
    assert fast.returncode == plain.returncode == 0, fast.stderr
    assert fast.stdout == plain.stdout
    assert "look like one list per segment" in fast.stderr and "zip" in fast.stderr
    assert "list per segment" not in plain.stderr
