"""Hypothesis state machines over the public API and over the command.

**API** (``api-state-machine``): metrics are built with options drawn from valid *and* invalid
values (wrong types, NumPy scalars, out-of-range numbers, unknown names); a metric is used
through every part of its public surface in any order: corpus and sentence scores (against
sacreBLEU built with the same options), cached references, statistics accumulated over
splits of a corpus (rows add: the total scores as the whole corpus does). A refused option or
input must be a :mod:`rapidbleu.errors` exception; every score must equal sacreBLEU's.

**Command** (``cli-state-machine``): files are written (text, invalid UTF-8, UTF-16 without a
BOM, different line counts, an empty file) and the command is run in-process on them with
drawn options, valid or not: with system files, with the systems as tab-separated columns of
standard input (one or two columns, or none at all), and as ``rapidbleu report``. Each run
either succeeds (exit 0, a score equal to the API's on the same lines for ``-b``, valid JSON
for ``-f json``, an HTML file for the report) or fails with exactly one line on stderr, a
documented exit code (1 or 2) and nothing on stdout (and no report file). A run must leave no
"Exception ignored" behind either: what Python reports while it collects objects (an unraisable
exception, issue 25's finding 1) counts as a traceback.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import math
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from conftest import corpora, examples
from fuzz_families import METRICS, MetricFamily, classify, outcome
from fuzzstats import record
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    precondition,
    rule,
)

from rapidbleu.cli.main import main

#: Option values that are wrong in some way, mixed into each option's valid values.
_WRONG = st.sampled_from(
    [None, -1, 0, 10**6, 2**64, 1.5, math.nan, math.inf, "yes", "", "13b", True, [1], b"x"]
)
_NUMPY = st.sampled_from([np.int64(2), np.int32(3), np.bool_(True), np.float64(0.1)])


def _maybe_wrong(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # Mostly valid, so that most metrics get built and used; NumPy scalars are often valid.
    return st.one_of(*[valid] * 8, _WRONG, _NUMPY)


def _hostile_options(family: MetricFamily) -> st.SearchStrategy[dict[str, Any]]:
    """``family``'s valid options, each value sometimes replaced by a wrong one."""
    return family.options.flatmap(
        lambda opts: st.fixed_dictionaries({k: _maybe_wrong(st.just(v)) for k, v in opts.items()})
    )


def _quiet(call: Any) -> tuple[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return outcome(call)


class MetricMachine(RuleBasedStateMachine):
    """The public surface of every metric in any order (see the module documentation)."""

    metrics = Bundle("metrics")

    @initialize()
    def start(self) -> None:
        self.corpora: list[tuple[list[str], list[list[str | None]]]] = []

    @rule(target=metrics, data=st.data(), which=st.integers(0, len(METRICS) - 1))
    def build(self, data: Any, which: int) -> Any:
        family = METRICS[which]
        options = data.draw(_hostile_options(family), label="options")
        ours = _quiet(lambda: family.ours(**options))
        theirs = _quiet(lambda: family.oracle(**options))
        if ours[0] == "raised":
            result = classify(ours, None, surrogate=False)
            record("api-state-machine", result)
            assert result == "refused", (options, ours)
            return None
        record("api-state-machine", "ok")
        return (family, options, ours[1], theirs[1] if theirs[0] == "value" else None)

    @rule(corpus=st.integers(1, 2).flatmap(lambda n: corpora(n, max_segments=6)))
    def add_corpus(self, corpus: Any) -> None:
        self.corpora.append(corpus)

    def _pick(self, k: int) -> tuple[list[str], list[list[str | None]]]:
        return self.corpora[k % len(self.corpora)]

    def _compare(self, ours: tuple[str, Any], theirs: tuple[str, Any] | None) -> None:
        result = classify(ours, theirs, surrogate=False)
        record("api-state-machine", result)
        assert result in ("ok", "refused"), (ours, theirs)

    @precondition(lambda self: self.corpora)
    @rule(entry=metrics, k=st.integers(0, 10))
    def corpus_score(self, entry: Any, k: int) -> None:
        if entry is None:
            return
        _, _, ours, oracle = entry
        hyps, refs = self._pick(k)
        theirs = None if oracle is None else _quiet(lambda: oracle.corpus_score(hyps, refs).score)
        self._compare(_quiet(lambda: ours.corpus_score(hyps, refs).score), theirs)

    @precondition(lambda self: self.corpora)
    @rule(entry=metrics, k=st.integers(0, 10), i=st.integers(0, 10))
    def sentence_score(self, entry: Any, k: int, i: int) -> None:
        if entry is None:
            return
        _, _, ours, oracle = entry
        hyps, refs = self._pick(k)
        seg = i % len(hyps)
        seg_refs = [r[seg] for r in refs if r[seg] is not None]
        theirs = (
            None
            if oracle is None
            else _quiet(lambda: oracle.sentence_score(hyps[seg], seg_refs).score)
        )
        self._compare(_quiet(lambda: ours.sentence_score(hyps[seg], seg_refs).score), theirs)

    @precondition(lambda self: self.corpora)
    @rule(entry=consumes(metrics), k=st.integers(0, 10))
    def cached_references(self, entry: Any, k: int) -> None:
        """Scores against cached references equal scores against the same references given."""
        if entry is None:
            return
        family, options, _, oracle = entry
        hyps, refs = self._pick(k)
        metric = family.ours(**options)
        cached = _quiet(lambda: metric.cache_references(refs))
        if cached[0] == "raised":
            self._compare(cached, None)
            return
        theirs = None if oracle is None else _quiet(lambda: oracle.corpus_score(hyps, refs).score)
        self._compare(_quiet(lambda: metric.corpus_score(hyps, None).score), theirs)

    @precondition(lambda self: self.corpora)
    @rule(entry=metrics, k=st.integers(0, 10), cut=st.integers(0, 10))
    def rows_add(self, entry: Any, k: int, cut: int) -> None:
        """Statistics of two parts, accumulated, score as the whole corpus."""
        if entry is None:
            return
        _, _, ours, _ = entry
        hyps, refs = self._pick(k)
        c = cut % (len(hyps) + 1)
        whole = _quiet(lambda: ours.corpus_score(hyps, refs).score)

        def parts() -> Any:
            totals = None
            for lo, hi in ((0, c), (c, len(hyps))):
                if lo == hi:
                    continue
                rows = ours.statistics(hyps[lo:hi], [r[lo:hi] for r in refs])
                totals = ours.accumulate(totals, rows)
            return ours.score_totals(totals).score

        self._compare(_quiet(parts), whole)


TestMetricMachine = MetricMachine.TestCase
TestMetricMachine.settings = settings(
    max_examples=examples(60),
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# -- the command --------------------------------------------------------------------------------

_LINE = st.sampled_from(["a b c d", "a b x d", "the cat sat", "", "élan vital", "中文 文本", "a"])

#: Option groups for a run (each drawn or not); some values are wrong on purpose.
_CLI_OPTIONS = st.lists(
    st.sampled_from(
        [
            ["-b"],
            ["-sl"],
            ["-f", "json"],
            ["-f", "text"],
            ["-lc"],
            ["-w", "3"],
            ["-tok", "intl"],
            ["-tok", "char"],
            ["-tok", "nosuch"],
            ["--max-ngram-order", "2"],
            ["--max-ngram-order", "99999999999999999999"],
            ["-s", "floor", "--smooth-value", "0.1"],
            ["-e", "utf-16"],
            ["--encoding-errors", "replace"],
            ["-m", "bleu"],
            ["-m", "nosuch"],
            ["-q"],
        ]
    ),
    max_size=4,
)


def _run(argv: list[str], cwd: Path, stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.BytesIO()
    out_text = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    err_text = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    unraisable: list[str] = []
    hook = sys.unraisablehook
    sys.unraisablehook = lambda u: unraisable.append(f"{u.exc_type.__name__}: {u.exc_value}")
    # Freezing what exists before the run keeps the collection below to the run's own objects:
    # a full collection of the whole test session's heap (gigabytes when the suite runs in one
    # process) took seconds per run and made this file a quarter of CI's time.
    gc.freeze()
    try:
        with contextlib.chdir(cwd), contextlib.redirect_stdout(out_text):
            with contextlib.redirect_stderr(err_text):
                code = main(argv, stdin=io.BytesIO(stdin))
        gc.collect()  # what the run left half done is finalised now, under the hook
    finally:
        gc.unfreeze()
        sys.unraisablehook = hook
    out_text.flush()
    err_text.flush()
    errors = err.getvalue().decode("utf-8", "replace")
    # An exception raised while an object was collected: Python prints it as a traceback.
    errors += "".join(f"Exception ignored (Traceback): {u}\n" for u in unraisable)
    return code, out.getvalue().decode("utf-8", "replace"), errors


class CommandMachine(RuleBasedStateMachine):
    """Files and runs of the command (see the module documentation)."""

    def __init__(self) -> None:
        super().__init__()
        self._dir = tempfile.TemporaryDirectory()
        self.cwd = Path(self._dir.name)
        self.lines: dict[str, list[str] | None] = {}

    def teardown(self) -> None:
        self._dir.cleanup()

    @rule(data=st.data(), n=st.integers(0, 6))
    def write_files(self, data: Any, n: int) -> None:
        """ref, hyp and hyp2 with ``n`` lines each (0: empty files), one sometimes damaged."""
        for name in ("ref", "hyp", "hyp2"):
            lines = data.draw(st.lists(_LINE, min_size=n, max_size=n), label=name)
            self.write(name, lines, None)
        damage = data.draw(st.sampled_from([None, "utf8", "utf16", "empty", "extra-line"]))
        if damage is not None:
            name = data.draw(st.sampled_from(["ref", "hyp", "hyp2"]))
            lines = data.draw(st.lists(_LINE, min_size=n, max_size=n))
            self.write(name, lines, damage)

    def write(self, name: str, lines: list[str], damage: str | None) -> None:
        """Writes one file (UTF-8 lines; no lines: an empty file), ``damage``d as asked."""
        data = ("\n".join(lines) + "\n").encode("utf-8") if lines else b""
        known: list[str] | None = list(lines)
        if damage == "utf8":
            data, known = data + b"\xff\xfe\n", None
        elif damage == "utf16":
            data, known = "\n".join(lines).encode("utf-16-le"), None
        elif damage == "empty":
            data, known = b"", []
        elif damage == "extra-line":
            data, known = data + b"one more\n", [*lines, "one more"]
        (self.cwd / name).write_bytes(data)
        self.lines[name] = known

    @precondition(lambda self: "ref" in self.lines and "hyp" in self.lines)
    @rule(options=_CLI_OPTIONS, two=st.booleans(), sl=st.booleans())
    def run(self, options: list[list[str]], two: bool, sl: bool) -> None:
        systems = ["hyp", "hyp2"] if two and "hyp2" in self.lines else ["hyp"]
        options = [["-sl"], *options] if sl and not two else options
        argv = ["ref", "-i", *systems, *[x for group in options for x in group]]
        self._judge(argv, *_run(argv, self.cwd), one_system=len(systems) == 1)

    @precondition(lambda self: "ref" in self.lines and "hyp" in self.lines)
    @rule(options=_CLI_OPTIONS, columns=st.sampled_from([2, 2, 1, 0]), sl=st.booleans())
    def run_stdin(self, options: list[list[str]], columns: int, sl: bool) -> None:
        """The systems as tab-separated columns of stdin (none: empty stdin); often ``-sl``."""
        names = ["hyp", "hyp2"][:columns]
        stdin = b""
        if names:
            files = [(self.cwd / n).read_bytes().split(b"\n") for n in names]
            # Lines of the first file, its neighbour's beside it (a short one gives "").
            rows = [
                b"\t".join(f[i] if i < len(f) else b"" for f in files)
                for i in range(len(files[0]) - 1)
            ]
            stdin = b"".join(r + b"\n" for r in rows)
        argv = ["ref", *(["-sl"] if sl else []), *[x for group in options for x in group]]
        code, out, err = _run(argv, self.cwd, stdin)
        self._judge(argv, code, out, err, one_system=False)

    @precondition(lambda self: "ref" in self.lines and "hyp" in self.lines)
    @rule(
        two=st.booleans(),
        extra=st.sampled_from(
            [
                [],
                ["-m", "bleu"],
                ["-m", "chrf", "ter"],
                ["-tok", "nosuch"],
                ["-sl"],
                ["-e", "utf-16"],
            ]
        ),
    )
    def report(self, two: bool, extra: list[str]) -> None:
        """``rapidbleu report``: an HTML file, or one line of error and no file."""
        systems = ["hyp", "hyp2"] if two and "hyp2" in self.lines else ["hyp"]
        page = self.cwd / "report.html"
        page.unlink(missing_ok=True)
        argv = ["report", "ref", "-i", *systems, "-o", "report.html", "-pbsn", "20", *extra]
        code, out, err = _run(argv, self.cwd)
        lines = [x for x in err.splitlines() if x.strip()]
        if code == 0:
            ok = page.is_file() and page.read_bytes().startswith(b"<!DOCTYPE html>")
            ok = ok and "Traceback" not in err and out == ""
            record("cli-state-machine", "ok" if ok else "differed")
            assert ok, (argv, out, err)
            return
        ok = code in (1, 2) and out == "" and not page.exists() and "Traceback" not in err
        ok = ok and len(lines) == 1 and lines[0].startswith("rapidbleu: error:")
        record("cli-state-machine", "refused" if ok else "crashed")
        assert ok, (argv, code, out, err)

    def _judge(self, argv: list[str], code: int, out: str, err: str, one_system: bool) -> None:
        """One run of the command: a result that fits the options, or one line of error."""
        lines = [x for x in err.splitlines() if x.strip()]
        if code == 0:
            ok = "Traceback" not in err and bool(out.strip())
            # argparse keeps the last of a repeated option: -f json -f text prints text.
            last_format = max((i for i, x in enumerate(argv) if x == "-f"), default=None)
            json_out = last_format is not None and argv[last_format + 1] == "json"
            if ok and json_out and "-b" not in argv:
                if "-sl" not in argv:
                    try:
                        json.loads(out)
                    except ValueError:
                        ok = False
            if ok and argv[3:] == ["-b"] and one_system:
                ok = self._same_as_api(out)
            record("cli-state-machine", "ok" if ok else "differed")
            assert ok, (argv, out, err)
            return
        errors_only = [x for x in lines if x.startswith("rapidbleu: error:")]
        ok = code in (1, 2) and out == "" and len(errors_only) == 1 and "Traceback" not in err
        ok = ok and lines[-1].startswith("rapidbleu: error:")
        record("cli-state-machine", "refused" if ok else "crashed")
        assert ok, (argv, code, out, err)

    def _same_as_api(self, out: str) -> bool:
        refs, hyps = self.lines.get("ref"), self.lines.get("hyp")
        if refs is None or hyps is None or len(refs) != len(hyps):
            return True  # undecodable or uneven files would not have exited 0 without -e
        want = sacrebleu.BLEU().corpus_score(hyps, [refs]).score
        return float(out) == round(want, 1)


TestCommandMachine = CommandMachine.TestCase
TestCommandMachine.settings = settings(
    max_examples=examples(40),
    stateful_step_count=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("bad", [b"\xff", "\ud800".encode("utf-8", "surrogatepass")])
def test_command_on_undecodable_bytes(tmp_path: Path, bad: bytes) -> None:
    """A fixed case of the machine's rule: invalid UTF-8 is one line, exit 1."""
    (tmp_path / "ref").write_bytes(b"a b\n")
    (tmp_path / "hyp").write_bytes(bad + b"\n")
    code, out, err = _run(["ref", "-i", "hyp"], tmp_path)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith("rapidbleu: error:")
    record("cli-state-machine", "refused")
