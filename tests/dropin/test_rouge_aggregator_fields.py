"""rouge-score's BootstrapAggregator takes any named tuple: low/mid/high in the caller's class."""

from __future__ import annotations

import random
from collections import namedtuple
from typing import Any

import numpy as np
import pytest
from rouge_score import scoring as real_scoring

from rapidbleu.metrics.rouge import scoring as fast_scoring

PR = namedtuple("PR", ["precision", "recall"])
Four = namedtuple("Four", ["a", "b", "c", "d"])
Three = namedtuple("Three", ["x", "y", "z"])


@pytest.mark.parametrize("kind", [PR, Four, Three])
def test_named_tuples_of_any_width_aggregate_as_in_rouge_score(kind: Any) -> None:
    rng = random.Random(7)
    samples = [kind(*(rng.random() for _ in kind._fields)) for _ in range(40)]
    results = []
    for module in (real_scoring, fast_scoring):
        np.random.seed(3)
        agg = module.BootstrapAggregator(n_samples=200)
        for s in samples:
            agg.add_scores({"rouge1": s, "rougeL": s})
        results.append(agg.aggregate())
    real, fast = results
    assert fast == real
    for t in ("rouge1", "rougeL"):
        assert [type(x) for x in fast[t]] == [kind, kind, kind]
        assert [type(v) for x in fast[t] for v in x] == [type(v) for x in real[t] for v in x]
