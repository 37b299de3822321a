"""The Spark recipe (``mapInArrow``) on ``local[2]``.

PySpark (``rapidbleu[spark]``, part of the ``test`` extra) needs Java 17, which CI has.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import distributed_toys
import pytest
from distributed_toys import OrderedRefLen, corpus
from pyspark import cloudpickle
from pyspark.sql import SparkSession

from rapidbleu import errors
from rapidbleu.distributed.recipes.spark import corpus_score
from rapidbleu.metrics import BLEU

HYPS, REFS = corpus(400, 3, seed=4)
ROWS = [(h, a, b, c) for h, a, b, c in zip(HYPS, *REFS)]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    # Loopback only, and the executors run this Python (which has rapidbleu).
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    cloudpickle.register_pickle_by_value(distributed_toys)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("rapidbleu-test")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    cloudpickle.unregister_pickle_by_value(distributed_toys)


def _frame(spark: Any, rows: list[tuple[Any, ...]], partitions: int) -> Any:
    # parallelize keeps the rows' order across partitions (repartition would shuffle it).
    rdd = spark.sparkContext.parallelize(rows, partitions)
    return spark.createDataFrame(rdd, "hyp string, a string, b string, c string")


@pytest.mark.parametrize("partitions", [1, 3, 7])
def test_parity(spark: Any, partitions: int) -> None:
    df = _frame(spark, ROWS, partitions)
    result = corpus_score(df, BLEU(), "hyp", ["a", "b"])
    assert result.score.__dict__ == BLEU().corpus_score(HYPS, REFS[:2]).__dict__
    assert result.num_rows == 400
    toy = corpus_score(df, OrderedRefLen(), "hyp", ["a", "b", "c"])
    assert toy.score.score == OrderedRefLen().corpus_score(HYPS, REFS).score


def test_errors_name_column_and_row(spark: Any) -> None:
    rows = list(ROWS)
    rows[250] = (rows[250][0], rows[250][1], None, rows[250][3])
    with pytest.raises(errors.NullValueError, match=r"^column 'b', row 250: the cell is null"):
        corpus_score(_frame(spark, rows, 3), BLEU(), "hyp", ["a", "b"])
    with pytest.raises(errors.MissingColumnError, match="reference column 'd' is not in"):
        corpus_score(_frame(spark, ROWS, 2), BLEU(), "hyp", "d")
