"""The Rust seam: ``_core.BleuOptions`` (checked once, a frozen value), the bounds on the n-gram
order and the thread count, and input too large to hold, all as ``rapidbleu.errors``
exceptions (never an abort of the process, never a bare ``TypeError``).
"""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import numpy as np
import pytest

import rapidbleu
from rapidbleu import BLEU, _core, errors
from rapidbleu.analysis.pairwise import aggregate_mbr_statistics, pairwise_bleu
from rapidbleu.analysis.selfbleu import self_bleu_scores
from rapidbleu.analysis.significance import bootstrap_scores


def test_defaults_are_sacrebleus() -> None:
    """The Rust defaults (written once, in the core) are those of ``BLEU()``."""
    o = _core.BleuOptions()
    metric = BLEU()
    assert (o.tokenizer, o.lowercase, o.max_order) == ("13a", False, metric.max_ngram_order)
    assert (o.smooth_method, o.smooth_value) == (metric.smooth_method, metric.smooth_value)
    assert o.effective_order is metric.effective_order is False
    assert o.row_len == 10
    for method, value in BLEU.SMOOTH_DEFAULTS.items():
        assert _core.BleuOptions(smooth_method=method).smooth_value == value


def test_a_frozen_value() -> None:
    o = _core.BleuOptions(tokenizer="intl", lowercase=1, max_order=6, smooth_method="add-k")
    assert repr(o) == (
        "BleuOptions(tokenizer='intl', lowercase=True, max_order=6, smooth_method='add-k', "
        "smooth_value=1.0, effective_order=False, neumaier=False)"
    )
    same = _core.BleuOptions(tokenizer="intl", lowercase=True, max_order=6, smooth_method="add-k")
    assert o == same and hash(o) == hash(same) and len({o, same}) == 1
    assert o != _core.BleuOptions(tokenizer="intl", lowercase=True, max_order=6)
    assert o != "BleuOptions"
    assert pickle.loads(pickle.dumps(o)) == o == copy.deepcopy(o)
    with pytest.raises(AttributeError):
        o.max_order = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        _core.BleuOptions("13a")  # type: ignore[misc]  # keyword-only


@pytest.mark.parametrize(
    ("kwargs", "fragments"),
    [
        ({"max_order": 0}, ["max_ngram_order must be a positive integer, got 0"]),
        ({"max_order": True}, ["positive integer, got True"]),
        ({"max_order": 2.5}, ["got 2.5"]),
        ({"max_order": 10**30}, ["at most 1000", "got 1000000000000000000000000000000"]),
        ({"smooth_method": "Exp"}, ["unknown smooth_method 'Exp'; allowed: none, floor"]),
        ({"smooth_method": 3}, ["unknown smooth_method 3"]),
        ({"smooth_value": float("nan")}, ["smooth_value must be a finite number >= 0", "nan"]),
        ({"smooth_value": -1e308}, ["got -1e+308"]),
        ({"smooth_value": "0.1"}, ["got '0.1'"]),
        ({"tokenizer": "13A"}, ["unknown tokenizer '13A'", "13a"]),
        ({"tokenizer": None}, ["unknown tokenizer None"]),
    ],
)
def test_bad_options(kwargs: dict[str, Any], fragments: list[str]) -> None:
    with pytest.raises(errors.InvalidOptionError) as info:
        _core.BleuOptions(**kwargs)
    assert all(f in str(info.value) for f in fragments), str(info.value)


def test_a_cache_of_other_options_is_a_type_error() -> None:
    with pytest.raises(errors.InputTypeError, match="BleuOptions"):
        _core.BleuReferenceCache([["a"]], {"max_order": 4})  # type: ignore[arg-type]


# Each path that aborted the process ("memory allocation of N bytes failed") with a huge order.
HUGE_ORDER_PATHS: list[tuple[str, Callable[[int], Any]]] = [
    ("corpus", lambda n: BLEU(max_ngram_order=n).corpus_score(["a b"], [["a b"]])),
    ("sentence-scores", lambda n: BLEU(max_ngram_order=n).sentence_scores(["a"], [["a"]])),
    ("sentence", lambda n: BLEU(max_ngram_order=n).sentence_score("a", ["a"])),
    ("items", lambda n: rapidbleu.bleu_per_item([("a", ["a"])], max_ngram_order=n)),
    ("pairwise", lambda n: pairwise_bleu(["a b", "b"], max_ngram_order=n)),
    ("self-bleu", lambda n: self_bleu_scores(["a b", "b"], max_ngram_order=n)),
    ("mbr-aggregation", lambda n: aggregate_mbr_statistics([["a b"]], max_ngram_order=n)),
    (
        "bootstrap",
        lambda n: bootstrap_scores(BLEU(max_ngram_order=n), ["a", "b"], [["a", "b"]], 5),
    ),
    ("token-ids", lambda n: _core.BleuOptions.token_statistics([[1, 2]], [[[1, 2]]], n)),
]


@pytest.mark.parametrize("order", [2**31, 10**9, 1001])
@pytest.mark.parametrize("path", [pytest.param(p, id=i) for i, p in HUGE_ORDER_PATHS])
def test_a_huge_order_is_an_error_not_an_abort(path: Callable[[int], Any], order: int) -> None:
    with pytest.raises(errors.InvalidOptionError, match="at most 1000"):
        path(order)


def test_the_largest_order_works() -> None:
    rows = BLEU(max_ngram_order=1000).statistics(["a b c"], [["a b c"]])
    assert rows.shape == (1, 2002) and rows[0, :5].tolist() == [3, 3, 3, 2, 1]
    assert self_bleu_scores(["a b", "a b"], max_ngram_order=1000, effective_order=True)[0] > 99


@pytest.mark.parametrize("threads", [-1, 1025, 10**9, 2**70, True, 1.5, "2"])
def test_absurd_thread_counts(threads: Any) -> None:
    with pytest.raises(errors.InvalidOptionError, match="at most 1024") as info:
        _core.BleuOptions().statistics(["a"], [["a"]], threads)
    assert repr(threads) in str(info.value)
    rows = np.zeros((1, 10), dtype=np.int64)
    with pytest.raises(errors.InvalidOptionError, match="num_threads"):
        _core.bootstrap_sums(rows, np.zeros((1, 1), dtype=np.int64), threads)
    assert _core.BleuOptions().statistics(["a"], [["a"]], 1024)[0].shape == (1, 10)


def test_arrays_larger_than_memory_are_errors() -> None:
    """A broadcast view (no memory of its own) whose copy would exceed any address space."""
    huge = np.broadcast_to(np.zeros((1, 1), dtype=np.int64), (1, 2**47))
    idxs = np.zeros((1, 1), dtype=np.int64)
    with pytest.raises(errors.InputError, match="do not fit in memory"):
        _core.bootstrap_sums(huge, idxs)
    with pytest.raises(errors.InputError, match="do not fit in memory"):
        _core.BleuOptions.token_statistics(huge, [huge], 4, per_segment=False, pad_id=-1)
