"""Spark: a corpus score of a DataFrame through ``mapInArrow``, one result per Arrow batch.

Install with the ``spark`` extra: ``pip install pyspark pyarrow`` (PySpark, a 456 MB download; Spark
needs Java 17 or later). Each executor scores the Arrow batches of its partition with
:func:`~rapidbleu.distributed.blocks.score_block` (the Rust core, the GIL released) and yields one
small row per batch: the partition, the batch's place in it, and the pickled
:class:`~rapidbleu.distributed.blocks.BlockResult`. The driver sorts those rows into the DataFrame's
order and folds them with :func:`~rapidbleu.distributed.blocks.combine`: int64 sums for additive
metrics, rows folded in order for the others. So the score is ``==`` to the single-machine score,
whatever the partitioning.

The recipe, in full, is :func:`corpus_score`'s body::

    def score(batches):                              # runs on the executors
        part = TaskContext.get().partitionId()
        for seq, batch in enumerate(batches):
            result = score_block(metric, columns, batch)
            yield pa.RecordBatch.from_pydict(
                {"part": [part], "seq": [seq], "result": [pickle.dumps(result)]})

    rows = df.select(*columns.names).mapInArrow(score, "part int, seq int, result binary")
    blocks = [pickle.loads(r.result) for r in sorted(rows.collect())]
    totals = combine(metric, blocks).totals[0]       # on the driver
    score = metric.score_totals(totals)

On a local machine, set ``SPARK_LOCAL_IP=127.0.0.1`` and ``PYSPARK_PYTHON`` to the Python
that has rapidbleu (the executors run it).

Example::

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    df = spark.read.parquet("wmt.parquet")  # columns hyp, ref
    print(corpus_score(df, BLEU(), "hyp", "ref"))
    # BLEU|nrefs:1|... = 34.12 ... [3,004 rows, 2 blocks]
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Sequence
from typing import Any

from rapidbleu.distributed import engine
from rapidbleu.distributed.blocks import combine, score_block
from rapidbleu.distributed.columns import Columns
from rapidbleu.distributed.result import CorpusResult, signature_of
from rapidbleu.metrics.base import Metric

__all__ = ["corpus_score"]

_SCHEMA = "part int, seq int, result binary"


def corpus_score(
    df: Any,
    metric: Metric[Any],
    hypothesis: str,
    references: str | Sequence[str],
    *,
    allow_missing_references: bool = False,
) -> CorpusResult:
    """The corpus score of a Spark DataFrame's hypothesis column against its reference columns.

    Args:
        df: A ``pyspark.sql.DataFrame``.
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
        rapidbleu.errors.MissingDependencyError: PySpark or pyarrow is not installed.
    """
    engine("pyspark", "spark", __name__)
    pa = engine("pyarrow", "spark", __name__)

    columns = Columns.of(hypothesis, references, allow_missing_references)
    columns.check_schema(df.columns)

    def score(batches: Iterator[Any]) -> Iterator[Any]:  # pyarrow RecordBatches
        from pyspark import TaskContext

        context = TaskContext.get()
        part = context.partitionId() if context is not None else 0
        for seq, batch in enumerate(batches):
            result = score_block(metric, columns, batch)
            yield pa.RecordBatch.from_pydict(
                {"part": [part], "seq": [seq], "result": [pickle.dumps(result)]},
                schema=pa.schema(
                    [("part", pa.int32()), ("seq", pa.int32()), ("result", pa.binary())]
                ),
            )

    rows = df.select(*columns.names).mapInArrow(score, _SCHEMA).collect()
    # (partition, batch) is the DataFrame's order: what metrics that are not additive need.
    rows.sort(key=lambda r: (r["part"], r["seq"]))
    blocks = [pickle.loads(r["result"]) for r in rows]
    combined = combine(metric, blocks)
    return CorpusResult(
        metric.score_totals(combined.totals[0]),
        combined.num_rows,
        combined.num_blocks,
        signature_of(metric, combined.num_refs),
    )
