"""The Poisson bootstrap's draw: a function of the seed and each row's index, and exact sums.

The weights of a row do not depend on the blocks around it, resample ``k`` does not depend on
how many are drawn, block sums add up to the corpus's, and the in-process function is the
reference the distributed engines must equal.
"""

from __future__ import annotations

from decimal import Decimal, getcontext

import numpy as np
import pytest
from distributed_toys import OrderedRefLen, corpus

from rapidbleu import errors
from rapidbleu.distributed import poisson
from rapidbleu.metrics import BLEU


def test_thresholds_are_poisson_one() -> None:
    getcontext().prec = 60
    p, cdf, expected = Decimal(-1).exp(), Decimal(0), []
    for k in range(40):
        cdf += p
        p /= k + 1
        t = int((cdf * 2**32).to_integral_value())
        if t >= 2**32:
            break
        expected.append(t)
    assert tuple(expected) == poisson.THRESHOLDS


def test_weights_look_like_poisson_one() -> None:
    w = poisson.weights(12345, 200, 0, 5000).astype(np.float64)  # a million draws
    assert abs(w.mean() - 1) < 0.005 and abs(w.var() - 1) < 0.01
    counts = np.bincount(w.astype(np.int64).ravel(), minlength=5)[:5] / w.size
    expected = [np.exp(-1) / f for f in (1, 1, 2, 6, 24)]
    np.testing.assert_allclose(counts, expected, atol=0.002)


def test_weights_depend_on_the_row_index_only() -> None:
    whole = poisson.weights(7, 5, 0, 5000)
    for a, b in [(0, 1), (1023, 1025), (1024, 2048), (999, 4321), (4999, 5000)]:
        np.testing.assert_array_equal(poisson.weights(7, 5, a, b), whole[:, a:b])
    # Resample k is the same however many are drawn.
    np.testing.assert_array_equal(poisson.weights(7, 2, 100, 3000), whole[:2, 100:3000])
    assert not np.array_equal(poisson.weights(8, 5, 0, 5000), whole)
    assert poisson.weights(7, 5, 10, 10).shape == (5, 0)


def test_resampled_sums_add_over_any_split() -> None:
    hyps, refs = corpus(3000, 1, seed=4)
    rows = BLEU().statistics(hyps, refs)
    whole = poisson.resampled_sums(rows, 99, 50)
    w = poisson.weights(99, 50, 0, 3000).astype(np.int64)
    np.testing.assert_array_equal(whole, w @ rows)  # the definition, in exact integers
    for cuts in ([1], [1024], [17, 1500, 2999], list(range(100, 3000, 333))):
        edges = [0, *cuts, 3000]
        parts = sum(
            poisson.resampled_sums(rows[a:b], 99, 50, start=a) for a, b in zip(edges, edges[1:])
        )
        np.testing.assert_array_equal(parts, whole)


def test_large_rows_are_summed_exactly_in_int64() -> None:
    rows = np.array([[2**50, 1], [2**50 + 1, 3]], dtype=np.int64)
    w = poisson.weights(3, 4, 0, 2).astype(np.int64)
    np.testing.assert_array_equal(poisson.resampled_sums(rows, 3, 4), w @ rows)


def test_fold_equals_sums_for_an_additive_metric() -> None:
    hyps, refs = corpus(1500, 2, seed=6)
    bleu = BLEU()
    rows = bleu.statistics(hyps, refs)
    folded = poisson.fold_resamples(bleu, None, rows[:700], 5, 20)
    folded = poisson.fold_resamples(bleu, folded, rows[700:], 5, 20, start=700)
    np.testing.assert_array_equal(np.stack(folded), poisson.resampled_sums(rows, 5, 20))
    np.testing.assert_array_equal(
        poisson.resampled_scores(bleu, folded), poisson.bootstrap_scores(bleu, rows, 20, 5)
    )


def test_ordered_metric_resamples_fold_in_order() -> None:
    hyps, refs = corpus(1200, 3, seed=8)
    toy = OrderedRefLen()
    rows = toy.statistics(hyps, refs)
    whole = poisson.fold_resamples(toy, None, rows, 11, 15)
    split = None
    for a, b in ((0, 5), (5, 1100), (1100, 1200)):
        split = poisson.fold_resamples(toy, split, rows[a:b], 11, 15, start=a)
    assert split == whole
    w = poisson.weights(11, 15, 0, 1200)
    for k in (0, 14):  # resample k is the corpus with w copies of each row, in order
        assert whole[k] == toy.total(np.repeat(rows, w[k], axis=0))
    scores = poisson.bootstrap_scores(toy, rows, 15, 11)
    assert scores.tolist() == [toy.score_totals(t).score for t in whole]


def test_seeds_and_sample_counts() -> None:
    assert poisson.seed_of(3) == ("3", 3)
    text, fresh = poisson.seed_of(None)
    assert text == "none" and isinstance(fresh, int) and fresh >= 0
    for bad in (0, -1, 1.5, True, poisson.MAX_POISSON_SAMPLES + 1):
        with pytest.raises(errors.InvalidOptionError, match="number of resamples"):
            poisson.check_samples(bad)
