"""What ``import rapidbleu`` and the command load, and that loading less changes nothing else.

``import rapidbleu`` loads its names on first use (PEP 562), and the command's corpus score of
files folds each chunk's statistics in the core (``Metric.accumulate_chunk``), so the command
starts without NumPy (a third of its start-up). Each check runs in a fresh interpreter: this
process has long imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu import _core
from rapidbleu.errors import InputTypeError, LengthMismatchError
from rapidbleu.metrics import BLEU, CHRF, Metric


def run_python(code: str) -> list[object]:
    """Runs ``code`` in a fresh interpreter; its last line of output, read as JSON."""
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_import_rapidbleu_loads_nothing_heavy() -> None:
    loaded = run_python(
        "import json, sys, rapidbleu\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('rapidbleu', 'numpy')))))"
    )
    assert loaded == ["rapidbleu", "rapidbleu._core", "rapidbleu._lazy", "rapidbleu.version"]


def test_one_metric_loads_its_own_modules_only() -> None:
    # A cold ja-mecab score is bounded by MeCab's own speed: every other metric's modules, and
    # `dataclasses` (which imports `inspect`), were a third of its imports.
    loaded = run_python(
        "import json, sys\n"
        "from rapidbleu.metrics import BLEU\n"
        "BLEU().corpus_score(['a b'], [['a b']])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rapidbleu.metrics.')\n"
        "    or m in ('dataclasses', 'inspect'))))"
    )
    assert loaded == [
        f"rapidbleu.metrics.{m}"
        for m in (
            "base",
            "bleu",
            "bleu.assigned_tokenizer",
            "bleu.metric",
            "bleu.options",
            "bleu.recent_references",
            "bleu.reference_cache",
            "bleu.score",
            "bleu.tokenize",
            "bleu.tokens",
            "checks",
            "layout",
            "live_options",
            "options",
            "score",
            "statistics",
        )
    ]


def test_the_metrics_package_names_every_metric() -> None:
    import rapidbleu.metrics as metrics

    for name in metrics.__all__:
        assert getattr(metrics, name).__name__ == name
    assert set(metrics.__all__) <= set(dir(metrics))
    assert metrics.metric_classes()["chrf"] is metrics.CHRF


def test_import_of_the_command_loads_no_numpy() -> None:
    code = "import json, sys, rapidbleu.cli\nprint(json.dumps('numpy' in sys.modules))"
    assert run_python(code) is False


@pytest.mark.parametrize(
    "options",
    [
        ["-b"],
        [],
        ["-f", "json"],
        ["-f", "latex"],
        ["-lc", "-tok", "intl", "-s", "floor"],
        ["--short", "-w", "3"],
        ["-m", "chrf"],
        ["-m", "bleu", "chrf", "--chrf-word-order", "2", "--chrf-lowercase", "-f", "text"],
    ],
    ids=["score-only", "text", "json", "latex", "options", "short", "chrf", "bleu-chrf++"],
)
def test_corpus_score_of_files_runs_without_numpy(tmp_path: Path, options: list[str]) -> None:
    ref, hyp, hyp2 = tmp_path / "ref", tmp_path / "hyp", tmp_path / "hyp2"
    ref.write_text("The cat sat on the mat .\nA dog barked .\n", encoding="utf-8")
    hyp.write_text("The cat sat on a mat .\nA dog barks .\n", encoding="utf-8")
    hyp2.write_text("the cat\nDog .\n", encoding="utf-8")
    for systems in ([str(hyp)], [str(hyp), str(hyp2)]):
        argv = [str(ref), "-i", *systems, *options]
        out = run_python(
            "import contextlib, io, json, sys\n"
            "from rapidbleu.cli.main import main\n"
            "buf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n"
            f"    code = main({argv!r})\n"
            "print(json.dumps([code, 'numpy' in sys.modules, buf.getvalue()]))"
        )
        code, numpy_loaded, text = out
        assert (code, numpy_loaded) == (0, False)
        # The same output as a process that has NumPy loaded (this one).
        expected = subprocess.run(
            [sys.executable, "-m", "rapidbleu", *argv], capture_output=True, text=True, check=True
        ).stdout
        assert text == expected


def test_names_of_the_package_face_from_a_bare_import() -> None:
    # sacreBLEU's paths into its submodules work without importing them first.
    found = run_python(
        "import json, rapidbleu as sb\n"
        "names = [sb.tokenizers.tokenizer_13a.Tokenizer13a.__name__,\n"
        "         sb.metrics.helpers.extract_word_ngrams.__name__,\n"
        "         sb.corpus_bleu.__name__, sb.BLEU.__name__, sb.errors.__name__,\n"
        "         sb.sacrebleu.__name__, sb.analysis.significance.__name__]\n"
        "star = {}\n"
        "exec('from rapidbleu import *', star)\n"
        "missing = [n for n in sb.__all__ if n not in star]\n"
        "print(json.dumps([names, missing, set(sb.__all__) <= set(dir(sb))]))"
    )
    assert found == [
        [
            "Tokenizer13a",
            "extract_word_ngrams",
            "corpus_bleu",
            "BLEU",
            "rapidbleu.errors",
            "rapidbleu.sacrebleu",
            "rapidbleu.analysis.significance",
        ],
        [],
        True,
    ]


@pytest.mark.parametrize("package", ["rapidbleu", "rapidbleu.metrics", "rapidbleu.tokenizers"])
def test_a_missing_name_is_an_attribute_error(package: str) -> None:
    module = __import__(package, fromlist=["_"])
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        _ = module.no_such_name
    assert not hasattr(module, "no_such_name")


LINE = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30).map(
    lambda s: s.replace("\n", " ").replace("\r", " ")
)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(LINE, min_size=n, max_size=n), min_size=1, max_size=3),
            st.lists(st.lists(LINE, min_size=n, max_size=n), min_size=1, max_size=3),
        )
    ),
    st.sampled_from(["13a", "intl", "char", "zh", "none"]),
    st.booleans(),
)
def test_chunk_totals_equal_summed_rows(
    lines: tuple[list[list[str]], list[list[str]]], tokenize: str, lowercase: bool
) -> None:
    systems, refs = lines
    chunk = _core.TextChunk.from_lists(systems, refs)
    metrics: list[Metric[Any]] = [
        BLEU(tokenize=tokenize, lowercase=lowercase, force=True),
        CHRF(lowercase=lowercase, word_order=2 if tokenize == "13a" else 0),
    ]
    for metric in metrics:
        width = metric.layout.width
        start = [None] + [[1] * width] * (len(systems) - 1)  # a first chunk, and running totals
        folded = metric.accumulate_chunk(start, chunk)
        rows = metric.chunk_statistics(chunk)
        # The rows equal the statistics of the lines as lists of str (the default path).
        assert [r.tolist() for r in rows] == [
            r.tolist() for r in Metric.chunk_statistics(metric, chunk)
        ]
        expected = [metric.accumulate(t, r).tolist() for t, r in zip(start, rows)]
        assert folded == expected
        assert all(type(v) is int for t in folded for v in t)
        # Scores of the totals as lists equal scores of the NumPy totals.
        for t, e in zip(folded, expected):
            assert metric.score_totals(t).score == metric.score_totals(np.array(e)).score


@pytest.mark.parametrize(
    "metric", [BLEU(), CHRF(), BLEU(tokenize="none")], ids=["bleu", "chrf", "none"]
)
def test_accumulate_chunk_refuses_bad_arguments(metric: Metric[Any]) -> None:
    chunk = _core.TextChunk.from_lists([["a b"], ["a"]], [["a b"]])
    # BLEU and chrF count chunks in the core, TER through the template's default path.
    # A system's totals are never dropped: one entry per system, or an error.
    with pytest.raises(LengthMismatchError, match="totals has 1 entries but the chunk has 2"):
        metric.accumulate_chunk([None], chunk)
    with pytest.raises(InputTypeError, match="totals must be a list"):
        metric.accumulate_chunk(None, chunk)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=r"chunk must be a rapidbleu\._core\.TextChunk"):
        metric.accumulate_chunk([None], "a b")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=r"chunk must be a rapidbleu\._core\.TextChunk"):
        metric.chunk_statistics(["a b"])  # type: ignore[arg-type]
