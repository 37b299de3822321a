"""Ray Data: corpus scores, confidence intervals, paired comparisons and sentence scores.

Needs the ``ray`` extra (``pip install "ray[data]"``, or ``pip install ".[ray]"`` in a
checkout). ``import rapidbleu`` never imports Ray; this module imports it when one of its
functions runs.

Every function takes a ``ray.data.Dataset`` whose columns hold the hypotheses (one column per
system) and the references (one column per reference), as text, token-ID lists or token lists
(:mod:`rapidbleu.distributed.columns`), and any :class:`~rapidbleu.metrics.Metric`:

- :func:`corpus_score`: the corpus score, ``==`` to the single-machine score for any number of
  blocks, with the number of rows scored; optionally a Poisson-bootstrap confidence interval.
- :func:`paired_bootstrap`: several systems against the first, in one pass over the data.
- :func:`add_sentence_scores`: a column of per-row sentence scores (``map_batches``; lazy).
- :func:`local_cluster`: a small local Ray cluster for a ``with`` block.

How it runs (:mod:`rapidbleu.distributed.blocks`): one ``map_batches`` task per block scores
the block with the Rust core (the GIL released) and sends back the int64 sums of its rows
(additive metrics) or its rows (the others, folded in dataset order); the driver adds them.
Ray retries a failed task and keeps one result per block, so a retry changes nothing. Blocks
with bad input report it instead of raising, and the driver raises the
:mod:`rapidbleu.errors` error of the first bad row in dataset order, naming its column and
its index in the dataset. Order matters only to metrics that are not additive and to the
bootstrap: those runs execute the dataset with Ray Data's ``preserve_order`` for the duration
of the call.

Example (runs as a doctest: it starts one local cluster, so the functions' own examples,
which would each start one, are shown as code instead)::

    >>> import ray
    >>> from rapidbleu.distributed import poisson
    >>> from rapidbleu.metrics import BLEU
    >>> rows = [{"hyp": "the cat sat on the mat", "alt": "the cat sat on a mat",
    ...          "ref": "the cat sat on a mat"},
    ...         {"hyp": "a dog barked", "alt": "the dog barks", "ref": "the dog barked"}] * 50
    >>> hyps, refs = [r["hyp"] for r in rows], [[r["ref"] for r in rows]]
    >>> with local_cluster(num_cpus=2):
    ...     ds = ray.data.from_items(rows, override_num_blocks=4)
    ...     result = corpus_score(ds, BLEU(), "hyp", "ref", n_bootstrap=200, seed=1)
    ...     paired = paired_bootstrap(ds, BLEU(), ["hyp", "alt"], "ref", n_samples=200, seed=1)
    ...     scored = add_sentence_scores(ds, BLEU(effective_order=True), "hyp", "ref").take_all()
    >>> result.score.score == BLEU().corpus_score(hyps, refs).score  # bit for bit
    True
    >>> result.num_rows, result.num_blocks
    (100, 4)
    >>> bool((result.resampled == poisson.bootstrap_scores(
    ...     BLEU(), BLEU().statistics(hyps, refs), 200, seed=1)).all())  # the same draw here
    True
    >>> print(paired)  # doctest: +ELLIPSIS
    BLEU|nrefs:1|poisson:200|seed:1|case:mixed|eff:no|tok:13a|smooth:exp|version:...
    hyp  49.34  (μ = ... ± ...)
    alt  ...  (μ = ... ± ...)  (p = ...)
    [100 rows, 4 blocks]
    >>> len(scored), sorted({round(row["bleu"], 2) for row in scored})
    (100, [53.73, 55.03])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from rapidbleu._config import Seed
from rapidbleu.analysis.significance import Result, bootstrap_p_value, estimate_ci
from rapidbleu.distributed import poisson
from rapidbleu.distributed.columns import Columns, Problem, as_table
from rapidbleu.distributed.ray_stages import (
    check_cpus,
    check_schema,
    check_shippable,
    ray_module,
    run,
    worker_copy,
)
from rapidbleu.distributed.result import CorpusResult, PairedResult, signature_of
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric

if TYPE_CHECKING:
    import pyarrow as pa
    import ray.data

__all__ = ["add_sentence_scores", "corpus_score", "local_cluster", "paired_bootstrap"]


@contextmanager
def local_cluster(num_cpus: int = 2, **init_args: Any) -> Iterator[None]:
    """A local Ray cluster for the duration of a ``with`` block.

    Starts one on the loopback address, without the dashboard, when none is running, and shuts
    down only what it started (a cluster already running is used as it is).

    Args:
        num_cpus: Cores the cluster may use.
        **init_args: More arguments for ``ray.init``.

    Example::

        with local_cluster(num_cpus=2):
            print(ray.data.range(3).count())  # 3
    """
    ray = ray_module()
    if ray.is_initialized():
        yield
        return
    args: dict[str, Any] = {
        "num_cpus": num_cpus,
        "include_dashboard": False,
        "_node_ip_address": "127.0.0.1",
        "log_to_driver": False,
        "logging_level": "WARNING",
    }
    args.update(init_args)
    ray.init(**args)
    try:
        yield
    finally:
        ray.shutdown()


def corpus_score(
    ds: ray.data.Dataset,
    metric: Metric[Any],
    hypothesis: str,
    references: str | Sequence[str],
    *,
    n_bootstrap: int = 1,
    seed: Seed = "env",
    allow_missing_references: bool = False,
    num_cpus_per_block: int = 1,
) -> CorpusResult:
    """The corpus score of one system over a Ray Dataset, with the number of rows scored.

    Args:
        ds: The dataset.
        metric: Any metric; it is shipped to the workers (a metric with cached references
            cannot be: give the references as columns).
        hypothesis: The hypothesis column.
        references: The reference column(s).
        n_bootstrap: With more than 1, also a 95% confidence interval from that many
            Poisson-bootstrap resamples (:mod:`rapidbleu.distributed.poisson`).
        seed: The bootstrap's seed: ``"env"`` (``$SACREBLEU_SEED``, default 12345), an int,
            or ``None`` (fresh; ``result.seed`` says which).
        allow_missing_references: A null reference is a missing one (each row needs one).
        num_cpus_per_block: Cores per block task (the core's threads in it).

    Returns:
        The score (``result.score``, ``==`` to the metric's single-machine score of the same
        rows), the rows and blocks scored, the signature and any resampled scores.

    Raises:
        rapidbleu.errors.MissingColumnError: A column is not in the dataset.
        rapidbleu.errors.InputTypeError: A column's type cannot be scored, or columns differ.
        rapidbleu.errors.NullValueError: A null cell (its column and row are named).
        rapidbleu.errors.EmptyInputError: The dataset has no rows.

    Example (run in the module's example)::

        ds = ray.data.read_parquet("wmt.parquet")  # columns: hyp, ref_a, ref_b
        result = corpus_score(ds, BLEU(), "hyp", ["ref_a", "ref_b"], n_bootstrap=1000)
        print(result)
        # BLEU|nrefs:2|poisson:1000|seed:12345|case:mixed|... = 34.12 (μ = 34.10 ± 0.52) ...
        #   ... [3,004 rows, 8 blocks]
    """
    columns = Columns.of(hypothesis, references, allow_missing_references)
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, (int, np.integer)):
        raise InvalidOptionError(f"n_bootstrap must be an int, got {n_bootstrap!r}")
    n_samples = 0 if n_bootstrap <= 1 else poisson.check_samples(n_bootstrap)
    seed_text, seed_value = poisson.seed_of(seed) if n_samples else ("", 0)
    combined, resamples = run(ds, metric, columns, n_samples, seed_value, num_cpus_per_block)
    score = metric.score_totals(combined.totals[0])
    result = CorpusResult(
        score,
        combined.num_rows,
        combined.num_blocks,
        signature_of(metric, combined.num_refs, n_samples, seed_text),
    )
    if resamples is not None:
        scores = poisson.resampled_scores(metric, resamples[0])
        score.estimate_ci(list(scores))
        result.resampled, result.seed = scores, seed_value
    return result


def paired_bootstrap(
    ds: ray.data.Dataset,
    metric: Metric[Any],
    systems: Sequence[str],
    references: str | Sequence[str],
    *,
    n_samples: int = 1000,
    seed: Seed = "env",
    allow_missing_references: bool = False,
    num_cpus_per_block: int = 1,
) -> PairedResult:
    """A paired Poisson bootstrap of several systems (columns) against the first, in one pass.

    Every system is scored on the same resamples (the same weights), as in sacreBLEU's
    ``--paired-bs``; the p-value is sacreBLEU's (:func:`~rapidbleu.analysis.significance.
    bootstrap_p_value`). The draws are the Poisson bootstrap's, not sacreBLEU's.

    Args:
        ds: The dataset.
        metric: Any metric.
        systems: The hypothesis columns, the baseline first (at least two).
        references: The reference column(s).
        n_samples: Resamples.
        seed: ``"env"`` (``$SACREBLEU_SEED``, default 12345), an int, or ``None`` (fresh).
        allow_missing_references: A null reference is a missing one (each row needs one).
        num_cpus_per_block: Cores per block task.

    Returns:
        Per system: score, p-value against the baseline, bootstrap mean and 95% half-width.

    Example (run in the module's example)::

        res = paired_bootstrap(ds, BLEU(), ["baseline", "system_a", "system_b"], "ref")
        print(res)
        # BLEU|nrefs:1|poisson:1000|seed:12345|...
        # baseline  61.80  (μ = 62.16 ± 12.69)
        # system_a  18.50  (μ = 18.68 ± 2.57)  (p = 0.0050)
        # ...
    """
    columns = Columns.of(systems, references, allow_missing_references)
    if len(columns.systems) < 2:
        raise InvalidOptionError(
            "a paired comparison needs at least two system columns: the baseline (first) and "
            f"one more, got {list(columns.systems)}"
        )
    n_samples = poisson.check_samples(n_samples)
    seed_text, seed_value = poisson.seed_of(seed)
    combined, resamples = run(ds, metric, columns, n_samples, seed_value, num_cpus_per_block)
    assert resamples is not None
    scores = [metric.score_totals(t) for t in combined.totals]
    resampled = [poisson.resampled_scores(metric, r) for r in resamples]
    results = []
    for i, (score, samples) in enumerate(zip(scores, resampled)):
        mean, ci = estimate_ci(samples)
        p_value = (
            None
            if i == 0
            else bootstrap_p_value(resampled[0], samples, scores[0].score, score.score)
        )
        results.append(Result(score.score, p_value, mean, ci))
    return PairedResult(
        columns.systems,
        results,
        scores,
        combined.num_rows,
        combined.num_blocks,
        signature_of(metric, combined.num_refs, n_samples, seed_text),
        seed_value,
    )


def add_sentence_scores(
    ds: ray.data.Dataset,
    metric: Metric[Any],
    hypothesis: str,
    references: str | Sequence[str],
    *,
    column: str | None = None,
    allow_missing_references: bool = False,
    num_cpus_per_block: int = 1,
    batch_size: int | None = None,
) -> ray.data.Dataset:
    """The dataset with a column of each row's sentence score (lazy, through ``map_batches``).

    Each score equals ``metric.sentence_scores`` of that row (for BLEU, turn
    ``effective_order`` on, as sacreBLEU recommends for sentence BLEU).

    Args:
        ds: The dataset.
        metric: Any metric.
        hypothesis: The hypothesis column.
        references: The reference column(s).
        column: The new column's name (default: the metric's ``cli_name``, e.g. ``bleu``).
        allow_missing_references: A null reference is a missing one (each row needs one).
        num_cpus_per_block: Cores per task.
        batch_size: Rows per ``map_batches`` call (``None``: whole blocks).

    Returns:
        A new dataset: the same rows, plus the float64 score column.

    Raises:
        rapidbleu.errors.MissingColumnError: A column is not in the dataset (when its schema is
            known without running it). Bad rows found while the dataset runs raise from the
            workers (Ray wraps the error; the message names the column and the row in its
            batch).

    Example (run in the module's example)::

        ds = add_sentence_scores(ds, BLEU(effective_order=True), "h", "r")
        ds.take_all()
        # [{'h': 'a b c', 'r': 'a b c', 'bleu': 100.00000000000004},
        #  {'h': 'x', 'r': 'y', 'bleu': 0.0}]
    """
    columns = Columns.of(hypothesis, references, allow_missing_references)
    name = column or metric.cli_name or "score"
    names = check_schema(ds, columns)
    if names is not None and name in names:
        raise InvalidOptionError(
            f"the dataset already has a column {name!r}; choose another name with column=..."
        )
    check_shippable(metric)
    threads = check_cpus(num_cpus_per_block)

    def rapidbleu_sentence_scores(batch: pa.Table) -> pa.Table:
        import pyarrow as pa

        table = as_table(batch)
        try:
            inputs = columns.read(table)
        except Problem as problem:
            raise problem.exception(None, table.num_rows) from None
        worker_metric = worker_copy(metric, threads)
        if table.num_rows:
            values = worker_metric.sentence_scores(
                inputs.systems[0], inputs.references, per_segment=inputs.per_segment
            )
        else:
            values = np.zeros(0)
        if name in table.column_names:
            raise InvalidOptionError(
                f"the dataset already has a column {name!r}; choose another name with column=..."
            )
        return table.append_column(name, pa.array(np.asarray(values, np.float64), pa.float64()))

    return ds.map_batches(
        rapidbleu_sentence_scores,
        batch_size=batch_size,
        batch_format="pyarrow",
        zero_copy_batch=True,
        num_cpus=num_cpus_per_block,
    )
