"""The block protocol: any split of a corpus into blocks gives the single-machine statistics.

Additive metrics (BLEU) sum int64 block totals, in any order. A metric that is not additive
(the TER-shaped toy in ``distributed_toys``) folds block rows in dataset order, and its float
term then equals the single-machine one bit for bit; a sum in another order does not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from conftest import examples
from distributed_toys import OrderedRefLen, corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu import errors
from rapidbleu.distributed.blocks import BlockResult, combine, num_refs_of, score_block, starts
from rapidbleu.distributed.columns import Columns
from rapidbleu.metrics import BLEU


def _table(hyps: list[str], refs: list[list[str]]) -> pa.Table:
    return pa.table({"hyp": hyps, **{f"r{k}": r for k, r in enumerate(refs)}})


def _blocks(table: pa.Table, cuts: list[int], metric: object, cols: Columns) -> list[BlockResult]:
    edges = [0, *sorted(cuts), table.num_rows]
    return [
        score_block(metric, cols, table.slice(a, b - a))  # type: ignore[arg-type]
        for a, b in zip(edges, edges[1:])
    ]


@settings(max_examples=examples(40))
@given(st.lists(st.integers(0, 120), max_size=8), st.randoms(use_true_random=False))
def test_bleu_any_split_any_order(cuts: list[int], rnd: random.Random) -> None:
    hyps, refs = corpus(120, 2, seed=1)
    table, cols = _table(hyps, refs), Columns.of("hyp", ["r0", "r1"])
    blocks = _blocks(table, cuts, BLEU(), cols)
    rnd.shuffle(blocks)  # additive: the order blocks arrive in does not matter
    bleu = BLEU()
    folded = combine(bleu, blocks)
    expected = bleu.corpus_score(hyps, refs)
    assert folded.num_rows == 120 and folded.num_blocks == len(cuts) + 1
    assert bleu.score_totals(folded.totals[0]).__dict__ == expected.__dict__


@pytest.mark.parametrize("cuts", [[], [1], [299], [100, 200], list(range(37, 600, 37))])
def test_ordered_metric_is_exact_in_order(cuts: list[int]) -> None:
    hyps, refs = corpus(600, 3, seed=2)
    table, cols = _table(hyps, refs), Columns.of("hyp", ["r0", "r1", "r2"])
    toy = OrderedRefLen()
    blocks = _blocks(table, cuts, toy, cols)
    assert all(b.rows is not None and b.totals is None for b in blocks)
    folded = combine(toy, blocks)
    expected = toy.total(toy.statistics(hyps, refs))
    assert folded.totals[0] == expected  # (edits, ref_length): the float, bit for bit
    assert toy.score_totals(folded.totals[0]).score == toy.corpus_score(hyps, refs).score


def test_the_order_test_can_fail() -> None:
    """The toy's corpus is one where another summation order changes the float."""
    hyps, refs = corpus(600, 3, seed=2)
    toy = OrderedRefLen()
    rows = toy.statistics(hyps, refs)
    _, sequential = toy.total(rows)
    per_block = [toy.total(rows[a : a + 75])[1] for a in range(0, 600, 75)]
    assert sum(per_block) != sequential  # block sums then added: not sacreBLEU's float
    assert float(np.sum(rows[:, 1] / rows[:, 2])) != sequential  # NumPy's pairwise sum


def test_token_ids_and_several_systems() -> None:
    rng = np.random.default_rng(5)
    refs = [rng.integers(0, 20, int(rng.integers(1, 30))).tolist() for _ in range(90)]
    sys_a = [r[: max(1, len(r) - 2)] for r in refs]
    sys_b = [list(reversed(r)) for r in refs]
    table = pa.table({"a": sys_a, "b": sys_b, "ref": refs}).cast(
        pa.schema([(n, pa.list_(pa.int32())) for n in ("a", "b", "ref")])
    )
    cols = Columns.of(["a", "b"], "ref")
    folded = combine(BLEU(), _blocks(table, [10, 11, 50], BLEU(), cols))
    for totals, hyps in zip(folded.totals, (sys_a, sys_b)):
        assert BLEU().score_totals(totals).score == BLEU().corpus_score(hyps, [refs]).score


def test_num_refs_and_empty_blocks() -> None:
    hyps, refs = corpus(10, 2)
    cols = Columns.of("hyp", ["r0", "r1"])
    table = _table(hyps, refs)
    blocks = _blocks(table, [0, 0, 5, 10], BLEU(), cols)
    assert [b.num_rows for b in blocks] == [0, 0, 5, 5, 0]
    assert starts(blocks) == [0, 0, 0, 5, 10]
    assert combine(BLEU(), blocks).num_refs == num_refs_of(blocks) == 2
    with pytest.raises(errors.EmptyInputError, match="no rows to score"):
        combine(BLEU(), blocks[:2])


def test_block_keeps_rows_when_asked_and_leaves_the_metric_alone() -> None:
    hyps, refs = corpus(8, 1)
    bleu = BLEU(num_threads=3)
    block = score_block(bleu, Columns.of("hyp", "r0"), _table(hyps, refs), keep_rows=True)
    assert block.rows is not None and block.totals is not None
    np.testing.assert_array_equal(block.rows[0], BLEU().statistics(hyps, refs))
    assert bleu.num_threads == 3 and not hasattr(bleu, "num_refs")


class Refuses(BLEU):
    """BLEU whose statistics refuse every block (a metric's own check, without a row)."""

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Any:
        raise errors.InputTypeError("this toy refuses every segment")


def test_metric_errors_come_back_as_problems() -> None:
    table = pa.table({"hyp": ["a b"], "ref": ["a b"]})
    block = score_block(Refuses(), Columns.of("hyp", "ref"), table)
    assert block.problem is not None and block.totals is None
    with pytest.raises(errors.InputTypeError, match=r"^this toy refuses every segment$"):
        combine(Refuses(), [block])


@pytest.mark.parametrize("n", [examples(30)])
def test_ordered_metric_random_splits(n: int) -> None:
    hyps, refs = corpus(200, 3, seed=9)
    table, cols, toy = _table(hyps, refs), Columns.of("hyp", ["r0", "r1", "r2"]), OrderedRefLen()
    expected = toy.total(toy.statistics(hyps, refs))
    rng = np.random.default_rng(0)
    for _ in range(n):
        cuts = rng.integers(0, 200, int(rng.integers(0, 12))).tolist()
        assert combine(toy, _blocks(table, cuts, toy, cols)).totals[0] == expected
