"""Scores by bucket, as compare-mt shows them: segments grouped, each group scored as a corpus.

Two groupings: by reference length (BLEU's words in the first reference, compare-mt's
``length`` buckets <10, 10-19, ..., 50+), and by the baseline's sentence score (five groups of
about equal size; quantiles work for any metric's range, TER's included). Each group's score
is the metric's corpus score of the group's rows (:meth:`Metric.total
<rapidbleu.metrics.Metric.total>`, :meth:`~rapidbleu.metrics.Metric.score_totals`), so it
works for any metric through its public surface.

Example:
    >>> import numpy as np
    >>> [b.label for b in by_length([3, 12, 55, 9])]
    ['< 10', '10-19', '50+']
    >>> [(b.label, b.indices.tolist()) for b in by_score(np.array([0.0, 50.0, 100.0, 20.0]), 2)]
    [('0-20', [0, 3]), ('50-100', [1, 2])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.layout import Rows

__all__ = ["LENGTH_EDGES", "Bucket", "bucket_scores", "by_length", "by_score"]

#: compare-mt's default length buckets (words): <10, 10-19, ..., 40-49, 50+.
LENGTH_EDGES = (10, 20, 30, 40, 50)


@dataclass
class Bucket:
    """A group of segments.

    Attributes:
        label: How the group is shown (``10-19``, ``12.5-30``).
        indices: Its segments, ascending.
    """

    label: str
    indices: npt.NDArray[np.int64]


def by_length(lengths: Sequence[int], edges: Sequence[int] = LENGTH_EDGES) -> list[Bucket]:
    """Segments grouped by reference length; empty groups are left out.

    Args:
        lengths: Words per segment.
        edges: Bucket boundaries (a segment of length ``e`` starts the bucket ``e-...``).

    Returns:
        The non-empty buckets, shortest first.
    """
    arr = np.asarray(lengths, dtype=np.int64)
    which = np.searchsorted(np.asarray(edges), arr, side="right")
    out = []
    for b in range(len(edges) + 1):
        if b == 0:
            label = f"< {edges[0]}"
        elif b == len(edges):
            label = f"{edges[-1]}+"
        else:
            label = f"{edges[b - 1]}-{edges[b] - 1}"
        idx = np.flatnonzero(which == b)
        if len(idx):
            out.append(Bucket(label, idx))
    return out


def _fmt(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def by_score(scores: npt.NDArray[Any], groups: int = 5) -> list[Bucket]:
    """Segments grouped by a system's sentence score into about equal-sized groups.

    The edges are quantiles of ``scores``; groups whose edges coincide (sentence BLEU is often
    exactly 0) are merged, so there may be fewer groups.

    Args:
        scores: One sentence score per segment (the baseline's).
        groups: How many groups at most.

    Returns:
        The groups, lowest scores first, labelled ``low-high`` (the range of their scores).
    """
    arr = np.asarray(scores, dtype=np.float64)
    finite = np.isfinite(arr)
    if not finite.any():
        return [Bucket("all", np.arange(len(arr)))]
    edges = np.unique(np.quantile(arr[finite], np.linspace(0, 1, groups + 1)[1:-1]))
    which = np.where(finite, np.searchsorted(edges, arr, side="right"), -1)
    out = []
    for b in range(len(edges) + 1):
        idx = np.flatnonzero(which == b)
        if len(idx):
            label = f"{_fmt(arr[idx].min())}-{_fmt(arr[idx].max())}"
            out.append(Bucket(label, idx))
    # A metric's undefined sentence scores (NaN) form their own group.
    undefined = np.flatnonzero(which < 0)
    if len(undefined):
        out.append(Bucket("undefined", undefined))
    return out


def bucket_scores(metric: Metric[Any], rows: Rows, buckets: Sequence[Bucket]) -> list[float]:
    """The metric's corpus score of each bucket's rows.

    Args:
        metric: The metric.
        rows: One system's statistics rows (all segments).
        buckets: The groups.

    Returns:
        One score per bucket.

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> bleu = BLEU()
        >>> rows = bleu.statistics(["a b c d", "x y z w"], [["a b c d", "e f g h"]])
        >>> bucket_scores(bleu, rows, [Bucket("first", np.array([0]))])
        [100.00000000000004]
    """
    return [float(metric.score_totals(metric.total(rows[b.indices])).score) for b in buckets]
