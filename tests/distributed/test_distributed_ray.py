"""rapidbleu.distributed.ray on a real local Ray cluster (2 CPUs, loopback, no dashboard).

Parity with the in-process scores (``==``) for several block counts and kinds of column, the
non-additive path (the TER-shaped toy metric, whose float depends on the order of addition),
sentence-score columns, the Poisson bootstrap's determinism for a fixed seed (the same draws
for any number of blocks, and in process), paired comparisons, a worker that dies mid-task
and is retried (no double counting), and bad input named by column and row. No mocks.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed_toys
import numpy as np
import pyarrow as pa
import pytest
import ray
import ray.data
from distributed_toys import CrashOnce, OrderedRefLen, corpus

from rapidbleu import errors
from rapidbleu.analysis.significance import bootstrap_p_value, estimate_ci
from rapidbleu.distributed import poisson
from rapidbleu.distributed.ray import (
    add_sentence_scores,
    corpus_score,
    local_cluster,
    paired_bootstrap,
)
from rapidbleu.metrics import BLEU

N = 300
HYPS, REFS = corpus(N, 2, seed=11)
ALT = [h[::-1] if i % 3 == 0 else h for i, h in enumerate(HYPS)]
ITEMS = [
    {"id": i, "hyp": h, "alt": a, "r0": r0, "r1": r1}
    for i, (h, a, r0, r1) in enumerate(zip(HYPS, ALT, *REFS))
]


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    with local_cluster(num_cpus=2):
        # The toy metrics live in tests/, which the workers cannot import: ship them by value.
        ray.cloudpickle.register_pickle_by_value(distributed_toys)
        yield
        ray.cloudpickle.unregister_pickle_by_value(distributed_toys)
    assert not ray.is_initialized()


def _dataset(blocks: int, items: list[dict[str, Any]] = ITEMS) -> ray.data.Dataset:
    return ray.data.from_items(items, override_num_blocks=blocks)


def _slices(table: pa.Table, blocks: int) -> ray.data.Dataset:
    """A dataset of exactly ``blocks`` blocks of uneven sizes."""
    edges = np.unique(np.linspace(0, table.num_rows, blocks + 1).astype(int) ** 2 // table.num_rows)
    edges[-1] = table.num_rows
    return ray.data.from_arrow([table.slice(a, b - a) for a, b in zip(edges, edges[1:])])


@pytest.mark.parametrize("blocks", [1, 3, 8, 25])
def test_bleu_parity_for_any_number_of_blocks(blocks: int) -> None:
    bleu = BLEU()
    result = corpus_score(_dataset(blocks), bleu, "hyp", ["r0", "r1"])
    expected_metric = BLEU()
    expected = expected_metric.corpus_score(HYPS, REFS)
    assert result.score.__dict__ == expected.__dict__
    assert (result.num_rows, result.num_blocks) == (N, blocks)
    assert str(result.signature) == str(expected_metric.get_signature())
    assert str(result).endswith(f" [{N} rows, {blocks} blocks]")


@pytest.mark.parametrize("blocks", [1, 6])
def test_token_id_and_token_list_columns(blocks: int) -> None:
    rng = np.random.default_rng(blocks)
    refs = [rng.integers(0, 30, int(rng.integers(1, 40))).tolist() for _ in range(200)]
    hyps = [[t if rng.random() > 0.2 else 0 for t in r] for r in refs]
    ids = pa.table({"hyp": hyps, "ref": refs}).cast(
        pa.schema([("hyp", pa.list_(pa.int32())), ("ref", pa.list_(pa.int32()))])
    )
    result = corpus_score(_slices(ids, blocks), BLEU(), "hyp", "ref")
    assert result.score.__dict__ == BLEU().corpus_score(hyps, [refs]).__dict__
    assert result.num_rows == 200
    tokens = pa.table({"hyp": [h.split() for h in HYPS], "ref": [r.split() for r in REFS[0]]})
    result = corpus_score(_slices(tokens, blocks), BLEU(tokenize="none"), "hyp", "ref")
    split = BLEU(tokenize="none").corpus_score(
        [h.split() for h in HYPS], [[r.split() for r in REFS[0]]]
    )
    assert result.score.__dict__ == split.__dict__


@pytest.mark.parametrize("blocks", [1, 4, 13])
def test_non_additive_metric_folds_in_order(blocks: int) -> None:
    hyps, refs = corpus(600, 3, seed=2)  # three references: the float order matters here
    table = pa.table({"hyp": hyps, "a": refs[0], "b": refs[1], "c": refs[2]})
    toy = OrderedRefLen()
    result = corpus_score(_slices(table, blocks), toy, "hyp", ["a", "b", "c"])
    assert result.score.score == OrderedRefLen().corpus_score(hyps, refs).score
    assert result.num_rows == 600 and result.num_blocks == blocks


def test_sentence_score_columns() -> None:
    scored = add_sentence_scores(_dataset(5), BLEU(effective_order=True), "hyp", ["r0", "r1"])
    rows = sorted(scored.take_all(), key=lambda r: r["id"])
    assert [r["id"] for r in rows] == list(range(N))  # every row, once
    assert set(rows[0]) == {"id", "hyp", "alt", "r0", "r1", "bleu"}
    expected = BLEU(effective_order=True).sentence_scores(HYPS, REFS)
    assert [r["bleu"] for r in rows] == expected.tolist()
    toy = add_sentence_scores(
        _dataset(3), OrderedRefLen(), "hyp", "r0", column="ter", batch_size=64
    )
    rows = sorted(toy.take_all(), key=lambda r: r["id"])
    assert [r["ter"] for r in rows] == OrderedRefLen().sentence_scores(HYPS, REFS[:1]).tolist()
    with pytest.raises(errors.InvalidOptionError, match="already has a column 'hyp'"):
        add_sentence_scores(_dataset(1), BLEU(), "alt", "r0", column="hyp")


def test_bootstrap_is_deterministic_for_a_fixed_seed() -> None:
    bleu = BLEU()
    first = corpus_score(_dataset(3), bleu, "hyp", ["r0", "r1"], n_bootstrap=300, seed=7)
    again = corpus_score(_dataset(3), BLEU(), "hyp", ["r0", "r1"], n_bootstrap=300, seed=7)
    other_blocks = corpus_score(_dataset(11), BLEU(), "hyp", ["r0", "r1"], n_bootstrap=300, seed=7)
    in_process = poisson.bootstrap_scores(BLEU(), BLEU().statistics(HYPS, REFS), 300, seed=7)
    assert first.resampled is not None and first.seed == 7
    for run in (again, other_blocks):
        assert run.resampled is not None
        np.testing.assert_array_equal(run.resampled, first.resampled)
        assert (run.score._mean, run.score._ci) == (first.score._mean, first.score._ci)
    np.testing.assert_array_equal(first.resampled, in_process)
    assert first.score.score == BLEU().corpus_score(HYPS, REFS).score
    assert "|poisson:300|seed:7|" in str(first.signature)
    assert "(μ = " in first.score.format()
    other_seed = corpus_score(_dataset(3), BLEU(), "hyp", ["r0", "r1"], n_bootstrap=300, seed=8)
    assert other_seed.resampled is not None
    assert not np.array_equal(other_seed.resampled, first.resampled)
    ds = _dataset(2)
    assert ds.context.execution_options.preserve_order is False  # restored after each run


def test_bootstrap_of_a_non_additive_metric() -> None:
    hyps, refs = corpus(400, 3, seed=5)
    table = pa.table({"hyp": hyps, "a": refs[0], "b": refs[1], "c": refs[2]})
    result = corpus_score(
        _slices(table, 5), OrderedRefLen(), "hyp", ["a", "b", "c"], n_bootstrap=50, seed=3
    )
    toy = OrderedRefLen()
    assert result.resampled is not None
    np.testing.assert_array_equal(
        result.resampled, poisson.bootstrap_scores(toy, toy.statistics(hyps, refs), 50, seed=3)
    )


def test_paired_comparison_in_one_pass() -> None:
    res = paired_bootstrap(_dataset(4), BLEU(), ["hyp", "alt"], ["r0", "r1"], n_samples=200, seed=5)
    assert list(res.systems) == ["hyp", "alt"] and res.num_rows == N and res.seed == 5
    samples = [
        poisson.bootstrap_scores(BLEU(), BLEU().statistics(h, REFS), 200, seed=5)
        for h in (HYPS, ALT)
    ]
    scores = [BLEU().corpus_score(h, REFS).score for h in (HYPS, ALT)]
    for i, r in enumerate(res.results):
        assert r.score == scores[i]
        assert (r.mean, r.ci) == estimate_ci(samples[i])
    assert res.results[0].p_value is None
    assert res.results[1].p_value == bootstrap_p_value(samples[0], samples[1], *scores)
    text = str(res)
    assert text.splitlines()[1].startswith("hyp  ") and "(p = " in text.splitlines()[2]
    with pytest.raises(errors.InvalidOptionError, match="at least two system columns"):
        paired_bootstrap(_dataset(1), BLEU(), ["hyp"], "r0")


def test_a_worker_that_dies_is_retried_without_double_counting(tmp_path: Path) -> None:
    crash_on = HYPS[150]
    metric = CrashOnce(str(tmp_path), crash_on)
    result = corpus_score(_dataset(4), metric, "hyp", ["r0", "r1"])
    assert (tmp_path / "crashed").exists()  # the worker did die
    attempts = (tmp_path / "attempts").read_text(encoding="utf-8").splitlines()
    firsts = [items[0] for items in np.array_split(np.array(HYPS, dtype=object), 4)]
    crashed_block = next(i for i, b in enumerate(np.array_split(np.arange(N), 4)) if 150 in b)
    assert sorted(attempts) == sorted([*firsts, firsts[crashed_block]])  # one retry, no more
    assert result.score.__dict__ == BLEU().corpus_score(HYPS, REFS).__dict__
    assert result.num_rows == N and result.num_blocks == 4  # counted once


def test_a_worker_that_dies_during_a_bootstrap(tmp_path: Path) -> None:
    metric = CrashOnce(str(tmp_path), HYPS[10])
    result = corpus_score(_dataset(3), metric, "hyp", ["r0", "r1"], n_bootstrap=100, seed=4)
    assert (tmp_path / "crashed").exists()
    expected = poisson.bootstrap_scores(BLEU(), BLEU().statistics(HYPS, REFS), 100, seed=4)
    assert result.resampled is not None
    np.testing.assert_array_equal(result.resampled, expected)
    assert result.num_rows == N


def test_missing_and_wrong_columns() -> None:
    with pytest.raises(errors.MissingColumnError, match="reference column 'ref' is not in"):
        corpus_score(_dataset(2), BLEU(), "hyp", "ref")
    with pytest.raises(errors.MissingColumnError, match="hypothesis column 'h'"):
        add_sentence_scores(_dataset(2), BLEU(), "h", "r0")
    unknown_schema = _dataset(2).map_batches(lambda b: b, batch_format="pyarrow")
    with pytest.raises(errors.MissingColumnError, match="reference column 'ref' is not in"):
        corpus_score(unknown_schema, BLEU(), "hyp", "ref")
    with pytest.raises(errors.InputTypeError, match=r"^column 'id': holds int64"):
        corpus_score(_dataset(2), BLEU(), "hyp", "id")
    mixed = pa.table({"hyp": ["a b"] * 4, "r0": ["a b"] * 4, "r1": [[1, 2]] * 4})
    with pytest.raises(errors.InputTypeError, match=r"reference columns 'r0' .text. and 'r1'"):
        corpus_score(_slices(mixed, 2), BLEU(), "hyp", ["r0", "r1"])


@pytest.mark.parametrize("blocks", [1, 7])
def test_null_cell_named_by_row_in_the_dataset(blocks: int) -> None:
    items = [dict(row) for row in ITEMS]
    items[217]["r1"] = None
    items[250]["hyp"] = None
    with pytest.raises(errors.NullValueError, match=r"^column 'r1', row 217: the cell is null"):
        corpus_score(_dataset(blocks, items), BLEU(), "hyp", ["r0", "r1"])
    with pytest.raises(errors.NullValueError, match=r"^column 'r1', row 217: "):
        corpus_score(_dataset(blocks, items), BLEU(), "hyp", ["r0", "r1"], n_bootstrap=10)
    allowed = corpus_score(
        _dataset(blocks, items), BLEU(), "alt", ["r0", "r1"], allow_missing_references=True
    )
    refs = [REFS[0], [None if i == 217 else r for i, r in enumerate(REFS[1])]]
    assert allowed.score.__dict__ == BLEU().corpus_score(ALT, refs).__dict__
    assert "nrefs:var" in str(allowed.signature)


def test_null_cell_in_sentence_scores_is_raised_by_the_worker() -> None:
    items = [dict(row) for row in ITEMS[:20]]
    items[3]["hyp"] = None
    scored = add_sentence_scores(_dataset(1, items), BLEU(), "hyp", "r0")
    with pytest.raises(Exception, match=r"NullValueError: column 'hyp', row 3 of a batch of 20"):
        scored.take_all()


def test_options_are_checked() -> None:
    for bad in (True, 2.5):
        with pytest.raises(errors.InvalidOptionError, match="n_bootstrap must be an int"):
            corpus_score(_dataset(1), BLEU(), "hyp", "r0", n_bootstrap=bad)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidOptionError, match="num_cpus_per_block must be an int >= 1"):
        corpus_score(_dataset(1), BLEU(), "hyp", "r0", num_cpus_per_block=0)
    with pytest.raises(errors.InvalidOptionError, match="number of resamples"):
        paired_bootstrap(_dataset(1), BLEU(), ["hyp", "alt"], "r0", n_samples=0)


def test_empty_dataset_and_unshippable_metric() -> None:
    with pytest.raises(errors.EmptyInputError, match="no rows to score"):
        corpus_score(_dataset(2).limit(0), BLEU(), "hyp", "r0")
    # A metric with cached references pickles, as sacreBLEU's does; the columns' references
    # are the ones scored (as references given to corpus_score are).
    cached = corpus_score(_dataset(1), BLEU(references=[REFS[0]]), "hyp", "r0")
    assert str(cached) == str(corpus_score(_dataset(1), BLEU(), "hyp", "r0"))
    unshippable = BLEU()
    unshippable.hook = lambda: None  # type: ignore[attr-defined]
    with pytest.raises(errors.InvalidOptionError, match="cannot be shipped to the workers"):
        corpus_score(_dataset(1), unshippable, "hyp", "r0")


def test_the_cluster_is_the_local_two_cpu_one() -> None:
    assert ray.cluster_resources().get("CPU") == 2
    assert "RAY_ADDRESS" not in os.environ  # not a cluster reached from outside
