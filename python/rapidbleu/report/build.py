"""Everything the HTML report shows, computed once: :func:`build_report` -> :class:`Report`.

The steps, each through the Metric seam's public surface, so any metric works:

1. **Scores** (:class:`~rapidbleu.report.model.Results`): with two or more systems, the
   paired test of ``-pbs``/``-par`` (:class:`~rapidbleu.analysis.significance.PairedTest`,
   the baseline first: the same numbers the command prints); with one system, the bootstrap
   confidence interval of ``-ci`` (:meth:`Metric.corpus_score
   <rapidbleu.metrics.Metric.corpus_score>` with ``n_bootstrap``).
2. **Sentence scores** of every system under every metric (:meth:`Metric.sentence_scores
   <rapidbleu.metrics.Metric.sentence_scores>` of the sentence-level metrics: BLEU with
   effective order, as ``-sl``).
3. **Buckets** (:mod:`~rapidbleu.report.buckets`): corpus scores of segment groups.
4. **Matched n-grams** (:mod:`~rapidbleu.report.ngrams`) in BLEU's words
   (:mod:`~rapidbleu.report.words`): the difference table of each system against the baseline.
5. **Segments** (:mod:`~rapidbleu.report.segments`) where the systems differ most.

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> refs = [["a b c d", "e f g h", "i j k l"]]
    >>> data = ReportInput([("x", ["a b c d", "e f x h", "i j"]), ("y", ["a b c", "e f g h", "i"])],
    ...                    refs)
    >>> rep = build_report(data, {"bleu": BLEU()}, options=ReportOptions(n_samples=50))
    >>> rep.results.systems, [m.name for m in rep.metrics], len(rep.segments)
    (['x', 'y'], ['BLEU'], 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu.analysis.significance import PairedTest
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.metrics.score import Signature
from rapidbleu.report import buckets as bk
from rapidbleu.report.inputs import ReportInput, ReportOptions
from rapidbleu.report.model import Cell, Results
from rapidbleu.report.ngrams import NgramDifference, NgramTable
from rapidbleu.report.segments import SegmentView, select_segments
from rapidbleu.report.words import Words

__all__ = ["BucketView", "MetricView", "Report", "ReportInput", "ReportOptions", "build_report"]


@dataclass
class BucketView:
    """Corpus scores of segment groups: ``scores[system][bucket]``."""

    title: str
    labels: list[str]
    counts: list[int]
    scores: list[list[float]]


@dataclass
class MetricView:
    """One metric's data for the charts.

    Attributes:
        name: The score's name (``BLEU``, ``chrF2++``), as in :attr:`Report.results`.
        higher_is_better: The metric's direction.
        sentence: ``(systems, segments)`` sentence scores.
        buckets: By reference length, then by the baseline's sentence score.
    """

    name: str
    higher_is_better: bool
    sentence: npt.NDArray[np.float64]
    buckets: list[BucketView]


@dataclass
class Report:
    """The report's content (rendered by :func:`rapidbleu.report.html.render_html`).

    Attributes:
        input: The compared input.
        options: The options used.
        results: Scores, confidence intervals and p-values.
        metrics: Per metric, sentence scores and buckets.
        ref_lengths: BLEU's words in the first reference of each segment.
        ngram_diffs: Per system after the baseline: (n-grams it matches more, n-grams the
            baseline matches more).
        segments: The segments shown.
        words: The word splitter used (its tokenizer names the words in the report).
    """

    input: ReportInput
    options: ReportOptions
    results: Results
    metrics: list[MetricView]
    ref_lengths: list[int]
    ngram_diffs: list[tuple[list[NgramDifference], list[NgramDifference]]]
    segments: list[SegmentView]
    words: Words


def _scores(
    data: ReportInput, metrics: Mapping[str, Metric[Any]], options: ReportOptions
) -> Results:
    """Step 1: the paired test (two or more systems) or the confidence interval (one)."""
    if len(data.systems) == 1:
        name, hyps = data.systems[0]
        cells: dict[str, list[Cell]] = {}
        signatures: dict[str, Signature] = {}
        for metric in metrics.values():
            score = metric.corpus_score(hyps, None, n_bootstrap=options.confidence_n)
            mean, ci = score.confidence or (None, None)
            cells[score.name] = [Cell(score, None, mean, ci)]
            signatures[score.name] = metric.get_signature()
        return Results([name], list(cells), signatures, cells)
    test = PairedTest(
        data.systems,
        metrics,
        None,
        options.test,
        options.n_samples,
        # -par shows no interval; the report asks the same test for one (the swap masks are
        # drawn first, so the p-values do not change).
        n_ar_confidence=options.confidence_n if options.test == "ar" else -1,
    )
    sigs, table = test()
    return Results.of_paired_test(table, sigs, options.test, options.n_samples)


def _metric_view(
    metric: Metric[Any],
    sentence_metric: Metric[Any],
    name: str,
    data: ReportInput,
    length_buckets: list[bk.Bucket],
) -> MetricView:
    """Steps 2 and 3 for one metric."""
    sentence = np.array(
        [sentence_metric.sentence_scores(hyps) for _, hyps in data.systems], dtype=np.float64
    )
    rows = [metric.statistics(hyps) for _, hyps in data.systems]
    groups = [
        ("reference length (words)", length_buckets),
        (f"baseline's sentence {name}", bk.by_score(sentence[0])),
    ]
    views = []
    for title, buckets in groups:
        views.append(
            BucketView(
                title,
                [b.label for b in buckets],
                [len(b.indices) for b in buckets],
                [bk.bucket_scores(metric, r, buckets) for r in rows],
            )
        )
    return MetricView(name, metric.higher_is_better, sentence, views)


def build_report(
    data: ReportInput,
    metrics: Mapping[str, Metric[Any]],
    sentence_metrics: Mapping[str, Metric[Any]] | None = None,
    *,
    words: Words | None = None,
    options: ReportOptions | None = None,
) -> Report:
    """Computes everything the report shows.

    Args:
        data: Systems (the baseline first), references, optional sources.
        metrics: Corpus metrics by name (each caches ``data.references``).
        sentence_metrics: The same metrics configured for sentence scores (``-sl``: BLEU with
            effective order), by the same names; default: ``metrics``.
        words: How lines split into words (default: ``BLEU()``'s tokenizer).
        options: What to compute (default :class:`ReportOptions`).

    Returns:
        The report's content.

    Raises:
        rapidbleu.errors.InputError: Mismatched line counts or repeated system names.
        rapidbleu.errors.InvalidOptionError: No metrics, or unknown options.
    """
    data.check()
    options = options or ReportOptions()
    if not metrics:
        raise InvalidOptionError("the report needs at least one metric")
    if options.test not in ("bs", "ar"):
        raise InvalidOptionError(f"unknown test {options.test!r}; allowed: bs, ar")
    sentence_metrics = sentence_metrics or metrics
    words = words or Words(BLEU())
    for m in (*metrics.values(), *sentence_metrics.values()):
        m.cache_references(data.references)
    results = _scores(data, metrics, options)

    ref_words = [words.split(stream) for stream in data.references]
    # The length of the first reference present in each segment.
    ref_lengths = [
        next((len(stream[i]) for stream, raw in zip(ref_words, data.references) if raw[i]), 0)
        for i in range(len(data.systems[0][1]))
    ]
    length_buckets = bk.by_length(ref_lengths)
    views = []
    for (key, metric), name in zip(metrics.items(), results.metrics):
        views.append(_metric_view(metric, sentence_metrics[key], name, data, length_buckets))

    sys_words = [words.split(hyps) for _, hyps in data.systems]
    table = NgramTable(sys_words, ref_words, options.max_order)
    diffs = [
        (table.differences(s, 0, options.ngrams), table.differences(0, s, options.ngrams))
        for s in range(1, len(data.systems))
    ]
    segments = select_segments(
        data, views[0].sentence, views[0].higher_is_better, sys_words, ref_words, words, options
    )
    return Report(data, options, results, views, ref_lengths, diffs, segments, words)
