"""TER through the distributed engine's block protocol (no cluster needed: the block functions
run here): blocks send rows and the driver folds them in dataset order, so any split gives
sacreBLEU's corpus score with ``==``; the Poisson bootstrap folds resamples in order too.
"""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest
from sacrebleu.metrics import TER as SacreTER

from rapidbleu.distributed.blocks import combine, score_block
from rapidbleu.distributed.columns import Columns
from rapidbleu.distributed.poisson import bootstrap_scores, fold_resamples
from rapidbleu.metrics import TER


def _table(n: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(5)
    hyps, refs = [], [[], [], []]
    for _ in range(n):
        ws = [f"w{rng.randrange(12)}" for _ in range(rng.randrange(1, 20))]
        for r in refs:
            r.append(" ".join(ws[: rng.randrange(0, len(ws) + 2)]))
        rng.shuffle(ws)
        hyps.append(" ".join(ws))
    return hyps, refs


@pytest.mark.parametrize("cuts", [[], [1], [50, 51, 120], list(range(0, 200, 9))])
def test_blocks_fold_in_order(cuts: list[int]) -> None:
    hyps, refs = _table(200)
    table = pa.table({"hyp": hyps, "r1": refs[0], "r2": refs[1], "r3": refs[2]})
    ter, cols = TER(), Columns.of("hyp", ["r1", "r2", "r3"])
    bounds = [0, *cuts, 200]
    parts = [score_block(ter, cols, table.slice(a, b - a)) for a, b in zip(bounds, bounds[1:])]
    folded = combine(ter, parts)
    score = ter.score_totals(folded.totals[0])
    theirs = SacreTER().corpus_score(hyps, refs)
    assert (score.score, score.num_edits, score.ref_length) == (
        theirs.score,
        theirs.num_edits,
        theirs.ref_length,
    )


def test_poisson_bootstrap_any_split() -> None:
    hyps, refs = _table(300)
    ter = TER()
    rows = ter.statistics(hyps, refs)
    expected = bootstrap_scores(ter, rows, n_samples=20, seed=7)
    for cut in (1, 150, 299):
        totals = fold_resamples(ter, None, rows[:cut], 7, 20, 0)
        totals = fold_resamples(ter, totals, rows[cut:], 7, 20, cut)
        got = np.array([ter.score_totals(t).score for t in totals])
        assert got.tolist() == expected.tolist()
