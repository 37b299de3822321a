"""The report's content (rapidbleu.report.build and its parts), without a browser.

The numbers are checked against the APIs the command uses (PairedTest, corpus_score with
n_bootstrap, sentence_scores, score_totals of row subsets), matched n-grams against a plain
Counter implementation of BLEU's clipping, for BLEU and for a toy metric defined only in the
tests (UnigramF1 of test_metric_seam): the report works for any Metric.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reporttools import NASTY, WMT22, real_subset, synthetic
from test_metric_seam import UnigramF1

from rapidbleu.analysis.significance import PairedTest
from rapidbleu.metrics import BLEU, CHRF, TER, Metric
from rapidbleu.report import buckets
from rapidbleu.report.build import ReportInput, ReportOptions, build_report
from rapidbleu.report.html import render_html
from rapidbleu.report.ngrams import NgramTable, matched_positions, reference_ngrams
from rapidbleu.report.segments import pieces
from rapidbleu.report.words import Words, spans


def _brute_matched(sys_words, ref_streams, order):  # type: ignore[no-untyped-def]
    out: Counter[str] = Counter()
    for i, hyp in enumerate(sys_words):
        hc = Counter(tuple(hyp[j : j + order]) for j in range(len(hyp) - order + 1))
        best: Counter[tuple[str, ...]] = Counter()
        for stream in ref_streams:
            r = stream[i]
            best |= Counter(tuple(r[j : j + order]) for j in range(len(r) - order + 1))
        for g, c in hc.items():
            if min(c, best[g]):
                out[" ".join(g)] += min(c, best[g])
    return dict(out)


words_st = st.lists(st.sampled_from(["a", "b", "c", "d", "é", "<x>"]), max_size=9)


@given(
    st.integers(1, 3).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(words_st, min_size=n, max_size=n), min_size=1, max_size=3),
            st.lists(st.lists(words_st, min_size=n, max_size=n), min_size=1, max_size=2),
        )
    )
)
def test_matched_ngrams_equal_a_counter_implementation(case) -> None:  # type: ignore[no-untyped-def]
    systems, refs = case
    table = NgramTable(systems, refs, max_order=4)
    for s, sys_words in enumerate(systems):
        for order in range(1, 5):
            assert table.matched(s, order) == _brute_matched(sys_words, refs, order)
    if len(systems) > 1:
        for d in table.differences(0, 1, k=50):
            a = table.matched(0, d.order).get(d.ngram, 0)
            b = table.matched(1, d.order).get(d.ngram, 0)
            assert d.counts == (a, b) and a > b
            assert d.ratio == (a + 1) / (a + b + 2)


def test_matched_ngrams_on_real_data() -> None:
    real = real_subset(WMT22, 300, systems=3)
    systems, refs, _ = real if real is not None else synthetic(3, 300, n_refs=2)
    words = Words(BLEU())
    sw = [words.split(h) for _, h in systems]
    rw = [words.split(r) for r in refs]
    table = NgramTable(sw, rw)
    for s in range(len(sw)):
        for order in (1, 4):
            assert table.matched(s, order) == _brute_matched(sw[s], rw, order)


def test_highlight_levels_follow_bleu_clipping() -> None:
    def levels(hyp: list[str], refs: list[list[str]]) -> list[int]:
        return matched_positions(hyp, reference_ngrams(refs))

    assert levels(["a", "b", "a", "b"], [["a", "b", "x"]]) == [2, 2, 0, 0]
    assert levels(["a", "b", "a", "b"], [["a", "b"], ["b", "a", "b"]]) == [2, 3, 3, 3]
    assert levels([], [["a"]]) == []
    assert levels(["a"], []) == [0]


@pytest.mark.parametrize(
    "text", ["Hello, world!", " two  spaces ", 'He said "no" &amp; left.', *NASTY]
)
def test_pieces_join_back_to_the_text(text: str) -> None:
    words = Words(BLEU()).split([text])[0]
    levels = [1 + i % 4 for i in range(len(words))]
    assert "".join(t for t, _ in pieces(text, levels, words)) == text
    for (start, end), w in zip(spans(text, words), words):
        assert start < 0 or text[start:end] == w


def test_words_follow_bleu_tokenizer_and_case() -> None:
    assert Words(BLEU(lowercase=True)).split(["Hello, World"]) == [["hello", ",", "world"]]
    assert Words(BLEU(tokenize="char")).split(["ab c"]) == [["a", "b", "c"]]


def test_buckets() -> None:
    assert [b.label for b in buckets.by_length([0, 9, 10, 19, 20, 100])] == [
        "< 10",
        "10-19",
        "20-29",
        "50+",
    ]
    # Equal scores cannot be split: one group.
    assert [b.indices.tolist() for b in buckets.by_score(np.zeros(7))] == [list(range(7))]
    groups = buckets.by_score(np.arange(100.0))
    assert [len(b.indices) for b in groups] == [20, 20, 20, 20, 20]
    with_nan = buckets.by_score(np.array([1.0, np.nan, 3.0, 2.0]), 2)
    assert [(b.label, b.indices.tolist()) for b in with_nan] == [
        ("1-1", [0]),
        ("2-3", [2, 3]),
        ("undefined", [1]),
    ]


#: Every metric of the seam (sacreBLEU's three, chrF++ too) and the toy metric of the seam's tests.
MAKERS: dict[str, Callable[[], Metric[Any]]] = {
    "bleu": BLEU,
    "chrf": CHRF,
    "chrf++": lambda: CHRF(word_order=2),
    "ter": TER,
    "unif1": UnigramF1,
}


@pytest.mark.parametrize("metric_name", list(MAKERS))
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_scores_equal_the_paired_test(metric_name: str, test: str) -> None:
    systems, refs, sources = synthetic(4, 60, n_refs=2)
    make = MAKERS[metric_name]
    options = ReportOptions(test=test, n_samples=200, confidence_n=100, segments=7)
    rep = build_report(ReportInput(systems, refs, sources), {metric_name: make()}, options=options)
    metric = make()
    metric.cache_references(refs)
    n_conf = 100 if test == "ar" else -1
    sigs, table = PairedTest(systems, {"m": metric}, None, test, 200, n_conf)()
    (name,) = rep.results.metrics
    assert [c.p_value for c in rep.results.cells[name]] == [r.p_value for r in table[name]]
    assert [c.value for c in rep.results.cells[name]] == [r.score for r in table[name]]
    assert [c.ci for c in rep.results.cells[name]] == [r.ci for r in table[name]]
    assert str(rep.results.signatures[name]) == str(sigs[name])
    # Sentence scores, buckets and segments through the same public surface.
    view = rep.metrics[0]
    for s, (_, hyps) in enumerate(systems):
        assert view.sentence[s].tolist() == metric.sentence_scores(hyps).tolist()
        rows = metric.statistics(hyps)
        for b in view.buckets:
            assert len(b.scores[s]) == len(b.labels)
        first = buckets.by_length(rep.ref_lengths)[0]
        assert (
            view.buckets[0].scores[s][0]
            == metric.score_totals(metric.total(rows[first.indices])).score
        )
    assert len(rep.segments) == 7
    spreads = [seg.spread for seg in rep.segments]
    assert spreads == sorted(spreads, reverse=True)
    assert rep.segments[0].source == sources[rep.segments[0].index]
    assert len(rep.ngram_diffs) == 3


def test_one_system_has_the_confidence_interval_of_ci() -> None:
    systems, refs, _ = synthetic(1, 50)
    rep = build_report(
        ReportInput(systems, refs), {"bleu": BLEU()}, options=ReportOptions(confidence_n=300)
    )
    bleu = BLEU()
    score = bleu.corpus_score(systems[0][1], refs, n_bootstrap=300)
    cell = rep.results.cells["BLEU"][0]
    assert (cell.value, cell.mean, cell.ci) == (score.score, *score.confidence)  # type: ignore[misc]
    assert rep.results.test is None and cell.p_value is None
    # One system: the segments shown are its worst.
    scores = [seg.outputs[0].score for seg in rep.segments]
    assert scores == sorted(scores)


def test_several_metrics_and_bad_input() -> None:
    systems, refs, _ = synthetic(2, 30)
    rep = build_report(
        ReportInput(systems, refs),
        {"bleu": BLEU(), "unif1": UnigramF1()},
        {"bleu": BLEU(effective_order=True), "unif1": UnigramF1()},
        options=ReportOptions(n_samples=50),
    )
    assert rep.results.metrics == ["BLEU", "UniF1"]
    assert [m.name for m in rep.metrics] == ["BLEU", "UniF1"]
    from rapidbleu.errors import InputError

    with pytest.raises(InputError, match=r"has 30 lines but sys1\.txt has 29"):
        build_report(ReportInput([(systems[0][0], systems[0][1][:29])], refs), {"bleu": BLEU()})
    with pytest.raises(InputError, match="given twice"):
        build_report(ReportInput([systems[0], systems[0]], refs), {"bleu": BLEU()})


def test_html_escapes_system_text() -> None:
    systems, refs, sources = synthetic(2, 12)
    _, hyps = systems[1]
    systems[1] = ("<b>evil</b>.txt", NASTY + hyps[len(NASTY) :])
    sources = NASTY + sources[len(NASTY) :]
    rep = build_report(
        ReportInput(systems, refs, sources),
        {"bleu": BLEU()},
        options=ReportOptions(n_samples=20, segments=12),
    )
    page = render_html(rep, command="rapidbleu report x", notes="<i>notes</i>")
    body, _, _ = page.partition('<script type="application/json"')
    for nasty in (
        "<script>window",
        "</textarea><script>",
        "<img src=x",
        "<b>bold</b>",
        "<b>evil</b>",
        "<i>notes</i>",
    ):
        assert nasty not in page
    assert "&lt;script&gt;window.__xss = 1" in body
    assert "&lt;/textarea&gt;&lt;script&gt;" in body
    # Exactly our three <script> elements, and the policy allows only the two that run.
    assert page.count("<script") == 3
    assert "script-src 'sha256-" in page and "connect-src 'none'" in page


def test_import_rapidbleu_does_not_import_the_report_libraries() -> None:
    import subprocess

    code = (
        "import sys, rapidbleu, rapidbleu.cli.main, rapidbleu.report.html;"
        "bad = [m for m in ('jinja2', 'vl_convert') if m in sys.modules];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_any_metric_renders_float32_and_nan_scores() -> None:
    """A toy metric first (its bootstrap scores are float32), and sentence scores with NaN."""
    systems, refs, sources = synthetic(3, 30)
    rep = build_report(
        ReportInput(systems, refs, sources),
        {"unif1": UnigramF1(), "bleu": BLEU()},
        {"unif1": UnigramF1(), "bleu": BLEU(effective_order=True)},
        options=ReportOptions(n_samples=40, segments=5),
    )
    assert rep.results.metrics == ["UniF1", "BLEU"]
    rep.metrics[0].sentence[1, :3] = np.nan  # a metric's 0/0 (chrF/TER may give them)
    page = render_html(rep)
    assert "<h3>Sentence UniF1</h3>" in page and "<h3>Sentence BLEU</h3>" in page
    assert "NaN" not in page.partition('id="report-data">')[2].partition("</script>")[0]
    assert rep.segments[0].outputs[0].score == rep.metrics[0].sentence[0, rep.segments[0].index]
