"""Dask: a corpus score of a Dask DataFrame, one task per partition.

Install with the ``dask`` extra: ``pip install "dask[dataframe]" distributed``. Each partition (a
pandas DataFrame, turned into Arrow) is scored by :func:`~rapidbleu.distributed.blocks.score_block`
in a task; ``dask.compute`` returns the results in partition order, and
:func:`~rapidbleu.distributed.blocks.combine` folds them: int64 sums for additive metrics, rows in
order for the others. So the score is ``==`` to the single-machine score, whatever the partitioning.
The recipe is three lines::

    parts = ddf[list(columns.names)].to_delayed()
    blocks = dask.compute(*[dask.delayed(score_block)(metric, columns, p) for p in parts])
    score = metric.score_totals(combine(metric, blocks).totals[0])

It runs on whatever scheduler is active (a ``distributed.Client`` or the local ones).

Example:
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> from rapidbleu.metrics import BLEU
    >>> pdf = pd.DataFrame({"hyp": ["the cat sat", "a dog"] * 10,
    ...                     "ref": ["the cat sat", "the dog"] * 10})
    >>> result = corpus_score(dd.from_pandas(pdf, npartitions=3), BLEU(), "hyp", "ref")
    >>> result.num_rows, result.score.score == BLEU().corpus_score(
    ...     list(pdf.hyp), [list(pdf.ref)]).score
    (20, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.distributed import engine
from rapidbleu.distributed.blocks import combine, score_block
from rapidbleu.distributed.columns import Columns
from rapidbleu.distributed.result import CorpusResult, signature_of
from rapidbleu.metrics.base import Metric

__all__ = ["corpus_score"]


def corpus_score(
    ddf: Any,
    metric: Metric[Any],
    hypothesis: str,
    references: str | Sequence[str],
    *,
    allow_missing_references: bool = False,
) -> CorpusResult:
    """The corpus score of a Dask DataFrame's hypothesis column against its reference columns.

    Args:
        ddf: A ``dask.dataframe.DataFrame``.
        metric: Any metric (it must pickle: give references as columns, not cached).
        hypothesis: The hypothesis column.
        references: The reference column(s).
        allow_missing_references: A null reference is a missing one (each row needs one).

    Returns:
        The score (``==`` to the single-machine score), rows and blocks scored, signature.

    Raises:
        rapidbleu.errors.MissingColumnError: A column is not in the DataFrame.
        rapidbleu.errors.InputTypeError: A column's type cannot be scored, or columns differ.
        rapidbleu.errors.NullValueError: A null cell (its column and row are named).
        rapidbleu.errors.MissingDependencyError: Dask is not installed.
    """
    # Any-typed: dask's own hints do not export compute/delayed (mypy strict).
    dask: Any = engine("dask", "dask", __name__)
    columns = Columns.of(hypothesis, references, allow_missing_references)
    columns.check_schema(list(ddf.columns))
    parts = ddf[list(columns.names)].to_delayed()
    blocks = dask.compute(*[dask.delayed(score_block)(metric, columns, p) for p in parts])
    combined = combine(metric, list(blocks))
    return CorpusResult(
        metric.score_totals(combined.totals[0]),
        combined.num_rows,
        combined.num_blocks,
        signature_of(metric, combined.num_refs),
    )
