"""How a run on Ray Data executes: its two ``map_batches`` stages, and the checks before one.

:mod:`rapidbleu.distributed.ray`'s functions call :func:`run`. Stage 1 scores each block with
the Rust core (:func:`rapidbleu.distributed.blocks.score_block`) and sends back its sums or its
rows; for an additive metric's bootstrap, stage 2 resamples the rows kept in the object store,
on the workers, each row weighed by its index in the dataset (:mod:`rapidbleu.distributed.poisson`).
The driver adds what comes back. Ray is imported when a function here runs
(:func:`ray_module`), never by ``import rapidbleu``.

Example:
    >>> check_cpus(2)
    2
"""

from __future__ import annotations

import pickle
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from rapidbleu.distributed import poisson
from rapidbleu.distributed.blocks import BlockResult, Combined, combine, score_block, starts
from rapidbleu.distributed.columns import Columns
from rapidbleu.errors import InvalidOptionError, MissingDependencyError
from rapidbleu.metrics.base import Metric

if TYPE_CHECKING:
    import pyarrow as pa
    import ray.data

__all__ = [
    "arrow_types",
    "check_cpus",
    "check_schema",
    "check_shippable",
    "preserve_order",
    "ray_module",
    "resample_stage",
    "run",
    "statistics_stage",
    "worker_copy",
]


def ray_module() -> Any:
    """The ``ray`` module, or an error that says how to install it."""
    try:
        import ray
        import ray.data
    except ImportError as e:
        from rapidbleu.extras import install_hint

        raise MissingDependencyError(
            f"rapidbleu.distributed.ray needs Ray Data (the 'ray' extra): {install_hint('ray')}"
        ) from e
    return ray


def run(
    ds: ray.data.Dataset,
    metric: Metric[Any],
    columns: Columns,
    n_samples: int,
    seed: int,
    num_cpus: int,
) -> tuple[Combined, list[Any] | None]:
    """Scores every block: the corpus statistics, and each system's resampled statistics.

    The resampled statistics (with ``n_samples``) are int64 sums for additive metrics, else a
    list of each resample's totals.
    """
    check_cpus(num_cpus)
    check_schema(ds, columns)
    check_shippable(metric)
    # The bootstrap weighs rows by their index, and non-additive metrics fold in order: both
    # need the dataset's order. Additive corpus scores do not (integer sums).
    ordered = n_samples > 0 or not metric.additive
    # Additive metrics resample on the workers (stage 2) from rows kept in the object store;
    # the others send their rows to the driver, which folds them in order.
    spread = n_samples > 0 and metric.additive
    stage1 = statistics_stage(metric, columns, keep_rows=spread, threads=num_cpus)
    with preserve_order(ds, ordered):
        if metric.whole_set:
            # A row depends on every row (CIDEr-D's document frequencies from every image's
            # references): the rows are scored in one block, in order, by one task.
            ds = ds.repartition(1)
        parts = ds.map_batches(
            stage1,
            batch_size=None,
            batch_format="pyarrow",
            zero_copy_batch=True,
            num_cpus=num_cpus,
        )
        if spread:
            parts = parts.materialize()
            records = parts.select_columns(["block", "result"]).take_all()
        else:
            records = parts.take_all()
    blocks: list[BlockResult] = [pickle.loads(r["result"]) for r in records]
    combined = combine(metric, blocks)  # raises the first bad block's error
    if not n_samples:
        return combined, None
    n_systems = len(columns.systems)
    if spread:
        offsets = dict(zip((r["block"] for r in records), starts(blocks)))
        sums = parts.map_batches(
            resample_stage(offsets, seed, n_samples),
            batch_size=None,
            batch_format="pyarrow",
            zero_copy_batch=True,
            num_cpus=num_cpus,
        ).take_all()
        totals: list[Any] = []
        for s in range(n_systems):
            total = np.zeros((n_samples, metric.layout.width), dtype=np.int64)
            for record in sums:
                total += pickle.loads(record["sums"])[s]
            totals.append(total)
        return combined, totals
    folded: list[Any] = []
    for s in range(n_systems):
        per_resample: list[Any] | None = None
        for start, block in zip(starts(blocks), blocks):
            rows = block.rows[s] if block.rows is not None else None
            if rows is not None and len(rows):
                per_resample = poisson.fold_resamples(
                    metric, per_resample, rows, seed, n_samples, start
                )
        folded.append(per_resample)
    return combined, folded


def statistics_stage(metric: Metric[Any], columns: Columns, keep_rows: bool, threads: int) -> Any:
    """Stage 1: one output row per block: an id, its pickled BlockResult, its rows (if kept)."""

    def rapidbleu_statistics(batch: pa.Table) -> pa.Table:
        import pyarrow as pa

        result = score_block(metric, columns, batch, keep_rows=keep_rows, num_threads=threads)
        kept = b""
        if keep_rows:
            # Kept apart so that the driver reads the small results without the rows.
            kept, result.rows = pickle.dumps(result.rows), None
        return pa.table(
            {
                "block": pa.array([uuid.uuid4().hex]),
                "result": pa.array([pickle.dumps(result)], pa.large_binary()),
                "rows": pa.array([kept], pa.large_binary()),
            }
        )

    return rapidbleu_statistics


def resample_stage(offsets: dict[str, int], seed: int, n_samples: int) -> Any:
    """Stage 2: each block's resampled sums, its rows weighed by their index in the dataset."""

    def rapidbleu_resample(batch: pa.Table) -> pa.Table:
        import pyarrow as pa

        out = []
        for block, kept in zip(batch.column("block").to_pylist(), batch.column("rows").to_pylist()):
            rows = pickle.loads(kept) if kept else None
            if rows is None:
                continue
            start = offsets[block]
            out.append(
                pickle.dumps([poisson.resampled_sums(r, seed, n_samples, start) for r in rows])
            )
        return pa.table({"sums": pa.array(out, pa.large_binary())})

    return rapidbleu_resample


@contextmanager
def preserve_order(ds: ray.data.Dataset, ordered: bool) -> Iterator[None]:
    """Ray Data's ``preserve_order`` on the dataset's context while this run executes it.

    The context is shared with the datasets it was derived from, so the previous value comes
    back afterwards.
    """
    if not ordered:
        yield
        return
    options = ds.context.execution_options
    before = options.preserve_order
    options.preserve_order = True
    try:
        yield
    finally:
        options.preserve_order = before


def check_schema(ds: ray.data.Dataset, columns: Columns) -> list[str] | None:
    """Checks column names and types when the schema is known without running the dataset.

    Returns:
        The dataset's column names, or ``None`` when unknown (the blocks check them then).
    """
    ray_module()
    schema = ds.schema(fetch_if_missing=False)
    if schema is None:
        return None
    names = list(schema.names)
    types = arrow_types(schema)
    columns.check_schema(names, types)
    return names


def arrow_types(schema: Any) -> list[Any] | None:
    """The Arrow types of a Ray schema, or ``None`` when they are not all Arrow types."""
    import pyarrow as pa

    types = list(schema.types)
    return types if all(isinstance(t, pa.DataType) for t in types) else None


def check_cpus(num_cpus: Any) -> int:
    """Cores per block task: a positive int (also the core's threads in the task)."""
    if isinstance(num_cpus, bool) or not isinstance(num_cpus, (int, np.integer)) or num_cpus < 1:
        raise InvalidOptionError(f"num_cpus_per_block must be an int >= 1, got {num_cpus!r}")
    return int(num_cpus)


def check_shippable(metric: Metric[Any]) -> None:
    """The metric must pickle: it is shipped to every worker."""
    try:
        pickle.dumps(metric)
    except (TypeError, pickle.PicklingError, AttributeError) as e:
        raise InvalidOptionError(
            f"the metric cannot be shipped to the workers ({e}): every attribute of it must "
            "pickle (a tokenizer or hook defined in a function, or a lambda, does not)"
        ) from None


def worker_copy(metric: Metric[Any], threads: int) -> Metric[Any]:
    """A copy of the metric that runs the core on ``threads`` threads (one task per core)."""
    import copy

    out = copy.copy(metric)
    out.num_threads = threads
    return out
