"""The block protocol: what one block of rows sends back, and how blocks fold into a corpus.

A distributed engine splits a corpus into **blocks** of consecutive rows. Each block is
scored on its own by :func:`score_block` (columns checked, then the metric's
:meth:`~rapidbleu.metrics.Metric.statistics`: the Rust core with the GIL released), and sends
back a small picklable :class:`BlockResult`. The driver folds the results with
:func:`combine`. Nothing here knows the engine: Ray Data, Spark and Dask all use it.

Why the corpus statistics are exactly the single-machine ones:

- **Additive metrics** (``metric.additive``: BLEU, chrF): a block sends the int64 column sums
  of its rows. The driver sums them with :meth:`~rapidbleu.metrics.Metric.total` (an int64
  column sum). Integer addition is associative and commutative, so any partitioning and any
  arrival order give the integers of the whole corpus, and the score is
  ``score_totals`` of the same integers: ``==`` by construction.
- **Other metrics** (TER sums float reference lengths in segment order): a block sends its
  rows themselves (exact int64), and the driver folds the blocks **in dataset order** with the
  metric's own :meth:`~rapidbleu.metrics.Metric.accumulate`, which folds rows in segment order.
  That is the single-machine fold over the same rows in the same order, so the float additions
  happen in the same order and round alike. The cost is the rows' size (TER: three int64 per
  segment), not a different result.

A block that cannot be scored (a null cell, a wrong type) sends back a :class:`Problem`
instead of raising, so the engine does not retry what would fail again, and the driver raises
the error of the first bad block in dataset order, with the row's index in the dataset.

Example:
    >>> import pyarrow as pa
    >>> from rapidbleu.metrics import BLEU
    >>> bleu, cols = BLEU(), Columns.of("hyp", ["ref"])
    >>> table = pa.table({"hyp": ["the cat sat", "a dog"], "ref": ["the cat sat", "the dog"]})
    >>> parts = [score_block(bleu, cols, table.slice(0, 1)),
    ...          score_block(bleu, cols, table.slice(1))]
    >>> folded = combine(bleu, parts)
    >>> folded.num_rows, bleu.score_totals(folded.totals[0]).score == bleu.corpus_score(
    ...     ["the cat sat", "a dog"], [["the cat sat", "the dog"]]).score
    (2, True)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rapidbleu.distributed.columns import Columns, Problem, as_table
from rapidbleu.errors import EmptyInputError, InternalError, RapidBleuError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.layout import Rows

__all__ = [
    "BlockResult",
    "Combined",
    "Problem",
    "combine",
    "num_refs_of",
    "raise_problems",
    "score_block",
    "starts",
]


@dataclass
class BlockResult:
    """What one block sends back to the driver (picklable; small for additive metrics).

    Attributes:
        num_rows: Rows in the block (every row is scored: none is dropped).
        num_refs: The metric's ``num_refs`` on this block (-1: it varies; ``None``: no rows).
        totals: Per system, the int64 column sums of its rows (additive metrics), else ``None``.
        rows: Per system, the rows themselves (metrics that are not additive, or when asked
            for, e.g. by a bootstrap), else ``None``.
        problem: Why the block could not be scored, else ``None``.
    """

    num_rows: int
    num_refs: int | None = None
    totals: list[Rows] | None = None
    rows: list[Rows] | None = None
    problem: Problem | None = None


@dataclass
class Combined:
    """Blocks folded into corpus statistics.

    Attributes:
        totals: Per system, the corpus statistics (``metric.total`` of all rows).
        num_rows: Rows scored.
        num_blocks: Blocks folded.
        num_refs: References per segment for the signature (-1: it varies).
    """

    totals: list[Any]
    num_rows: int
    num_blocks: int
    num_refs: int


def score_block(
    metric: Metric[Any],
    columns: Columns,
    batch: Any,
    *,
    keep_rows: bool = False,
    num_threads: int = 1,
) -> BlockResult:
    """Scores one block: checks its columns and computes each system's statistics.

    Args:
        metric: The metric (copied, so the caller's ``num_refs`` and threads stay as they were).
        columns: Which columns hold the systems and the references.
        batch: The block (an Arrow table or record batch, a pandas frame, a dict of columns).
        keep_rows: Also send the rows of additive metrics (a bootstrap resamples them).
        num_threads: Threads for the Rust core in this block (1: the worker's own thread; the
            engine runs one block per core).

    Returns:
        The block's result; bad input is reported in ``problem``, not raised.
    """
    table = as_table(batch)
    n = table.num_rows
    metric = copy.copy(metric)
    metric.num_threads = num_threads
    try:
        inputs = columns.read(table)
        rows = []
        for hyps in inputs.systems:
            if n == 0:
                rows.append(np.zeros((0, metric.layout.width), dtype=np.int64))
                continue
            stats = metric.statistics(hyps, inputs.references, per_segment=inputs.per_segment)
            rows.append(np.ascontiguousarray(stats, dtype=np.int64))
    except Problem as problem:
        return BlockResult(n, problem=problem)
    except RapidBleuError as e:
        # The metric's own checks (e.g. a token the core rejects) do not know the row.
        return BlockResult(n, problem=Problem(type(e).__name__, None, None, str(e)))
    result = BlockResult(n, metric.num_refs if n else None)
    if metric.additive:
        result.totals = [r.sum(axis=0, dtype=np.int64) for r in rows]
    if keep_rows or not metric.additive:
        result.rows = rows
    return result


def starts(blocks: Sequence[BlockResult]) -> list[int]:
    """The index in the dataset of each block's first row (blocks in dataset order).

    Example:
        >>> starts([BlockResult(3), BlockResult(0), BlockResult(2)])
        [0, 3, 3]
    """
    out, at = [], 0
    for block in blocks:
        out.append(at)
        at += block.num_rows
    return out


def raise_problems(blocks: Sequence[BlockResult]) -> None:
    """Raises the error of the first block (in dataset order) that could not be scored.

    Example:
        >>> bad = BlockResult(4, problem=Problem("NullValueError", "ref", 1, "null"))
        >>> raise_problems([BlockResult(10), bad])
        Traceback (most recent call last):
        ...
        rapidbleu.errors.NullValueError: column 'ref', row 11: null
    """
    for start, block in zip(starts(blocks), blocks):
        if block.problem is not None:
            raise block.problem.exception(start)


def num_refs_of(blocks: Sequence[BlockResult]) -> int:
    """SacreBLEU's ``num_refs`` of the whole corpus: the blocks' common count, else -1.

    Example:
        >>> num_refs_of([BlockResult(2, 2), BlockResult(0), BlockResult(1, 2)])
        2
        >>> num_refs_of([BlockResult(2, 2), BlockResult(1, 1)])
        -1
    """
    counts = {b.num_refs for b in blocks if b.num_refs is not None}
    return counts.pop() if len(counts) == 1 else -1


def combine(metric: Metric[Any], blocks: Sequence[BlockResult]) -> Combined:
    """Folds block results into each system's corpus statistics.

    Args:
        metric: The metric.
        blocks: Every block's result, **in dataset order** (any order gives the same totals
            for additive metrics; the others fold rows in order).

    Returns:
        The corpus statistics, equal to ``metric.total`` of all rows in order.

    Raises:
        rapidbleu.errors.RapidBleuError: The first bad block's error, with its row.
        rapidbleu.errors.EmptyInputError: There are no rows at all.
    """
    raise_problems(blocks)
    num_rows = sum(b.num_rows for b in blocks)
    if num_rows == 0:
        raise EmptyInputError("no rows to score: the dataset is empty")
    full = [b for b in blocks if b.num_rows]
    n_systems = len(full[0].totals if full[0].totals is not None else full[0].rows or [])
    totals: list[Any] = []
    for s in range(n_systems):
        if metric.additive:
            # Block sums are rows too: their column sum is the corpus's, exactly (int64).
            parts = np.stack([_of(b.totals, s) for b in full])
            totals.append(metric.total(parts))
        else:
            folded = None
            for b in full:
                folded = metric.accumulate(folded, _of(b.rows, s))
            totals.append(folded)
    return Combined(totals, num_rows, len(blocks), num_refs_of(blocks))


def _of(parts: list[Rows] | None, system: int) -> Rows:
    if parts is None:
        raise InternalError("a block result lacks the statistics its metric needs")
    return parts[system]
