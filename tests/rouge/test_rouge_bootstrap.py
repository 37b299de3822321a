"""``BootstrapAggregator`` against rouge-score 0.1.2's with ``==``: the same NumPy draws.

rouge-score resamples with NumPy's global generator; with the same seed both aggregators give
the same low/mid/high and leave the generator in the same state.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, scoring

from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics import ROUGE
from rapidbleu.metrics.rouge.scoring import BootstrapAggregator

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
WORDS = st.lists(st.sampled_from("a b c d e f running runs\n".split(" ")), max_size=12)
PAIRS = st.lists(st.tuples(WORDS.map(" ".join), WORDS.map(" ".join)), min_size=1, max_size=30)


def state_equal(a: tuple, b: tuple) -> bool:  # type: ignore[type-arg]
    return a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]


def theirs(pairs: list[tuple[str, str]], seed: int, **kw: float) -> tuple[dict, tuple]:  # type: ignore[type-arg]
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    agg = scoring.BootstrapAggregator(**kw)
    for t, p in pairs:
        agg.add_scores(scorer.score(t, p))
    np.random.seed(seed)
    return agg.aggregate(), np.random.get_state()


@settings(max_examples=examples(40))
@given(pairs=PAIRS, seed=st.integers(0, 2**32 - 1), n=st.integers(1, 60))
def test_add_scores(pairs: list[tuple[str, str]], seed: int, n: int) -> None:
    rouge = ROUGE(TYPES, use_stemmer=True)
    agg = BootstrapAggregator(n_samples=n, confidence_interval=0.9)
    for t, p in pairs:
        agg.add_scores(rouge.score(t, p))
    np.random.seed(seed)
    got = agg.aggregate()
    got_state = np.random.get_state()
    want, want_state = theirs(pairs, seed, n_samples=n, confidence_interval=0.9)
    assert got == want
    assert state_equal(got_state, want_state)


@pytest.mark.parametrize("n_items", [1, 2, 3, 1000, 4097])
def test_add_arrays(n_items: int) -> None:
    rng = np.random.default_rng(n_items)
    words = np.array("a b c d e f g running runs".split())
    pairs = [
        (" ".join(rng.choice(words, 8)), " ".join(rng.choice(words, 6))) for _ in range(n_items)
    ]
    rouge = ROUGE(TYPES, use_stemmer=True)
    agg = BootstrapAggregator(n_samples=200)
    agg.add_arrays(rouge.score_arrays([p for _, p in pairs], [[t for t, _ in pairs]]))
    np.random.seed(7)
    got = agg.aggregate()
    got_state = np.random.get_state()
    want, want_state = theirs(pairs, 7, n_samples=200)
    assert got == want
    assert state_equal(got_state, want_state)


def test_state_mid_stream() -> None:
    # A position inside the key (not just after seeding) and a cached Gaussian are kept.
    np.random.seed(3)
    np.random.randint(0, 10, size=1001)
    np.random.standard_normal()
    start = np.random.get_state()
    agg = BootstrapAggregator(n_samples=30)
    agg.add_scores({"x": (0.1, 0.2, 0.3)})
    agg.add_scores({"x": (0.4, 0.5, 0.6)})
    got = agg.aggregate()
    ours = np.random.get_state()
    np.random.set_state(start)
    ref = scoring.BootstrapAggregator(n_samples=30)
    ref.add_scores({"x": scoring.Score(0.1, 0.2, 0.3)})
    ref.add_scores({"x": scoring.Score(0.4, 0.5, 0.6)})
    assert got == ref.aggregate()
    assert state_equal(ours, np.random.get_state())


@pytest.mark.parametrize(("ci", "n"), [(-0.1, 10), (1.5, 10), (0.95, 0), (0.95, -3)])
def test_bad_arguments(ci: float, n: int) -> None:
    with pytest.raises(ValueError) as theirs_err:
        scoring.BootstrapAggregator(confidence_interval=ci, n_samples=n)
    with pytest.raises(InvalidOptionError, match=re.escape(str(theirs_err.value))):
        BootstrapAggregator(confidence_interval=ci, n_samples=n)
