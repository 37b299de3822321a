"""Sufficient statistics are the spine: they add, and threads change nothing.

- A corpus split anywhere: the statistics of the parts, stacked, are the statistics of the
  whole; their sums add up; the corpus score is the score of the summed statistics.
- ``num_threads`` 1, 2, 3, 0 (all cores) and ``$RAPIDBLEU_NUM_THREADS`` give identical arrays,
  also above 64 segments, where the parallel path runs (and on 3000-line real files).
- The array is int64, C-contiguous, ``(n, 2 + 2 * max_ngram_order)``.
- ``sentence_scores`` equals scoring each row on its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import DATA, Refs, assert_same_score, corpora, read_lines, seeded
from hypothesis import given
from hypothesis import strategies as st

import rapidbleu

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

TOKENIZERS = ["none", "13a", "intl", "zh", "char"]
SMOOTHING: list[tuple[str, float | None]] = [
    ("exp", None),
    ("none", None),
    ("floor", None),
    ("floor", 0.3),
    ("add-k", None),
    ("add-k", 2),
]
OPTIONS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(TOKENIZERS),
        "lowercase": st.booleans(),
        "max_ngram_order": st.integers(1, 6),
    }
)
SCORING = st.tuples(st.sampled_from(SMOOTHING), st.booleans())


# Both libraries log warnings (sentence BLEU without effective order, tokenized-looking
# input) thousands of times here.
pytestmark = pytest.mark.usefixtures("quiet_logs")


def _check_layout(stats: Any, n: int, order: int) -> None:
    assert isinstance(stats, np.ndarray)
    assert stats.dtype == np.int64
    assert stats.shape == (n, 2 + 2 * order)
    assert stats.flags.c_contiguous


def _split(refs: Refs, a: int, b: int) -> Refs:
    return [r[a:b] for r in refs]


@seeded("stats-add", 150)
@given(
    corpus=st.integers(1, 4).flatmap(lambda k: corpora(k, max_segments=8)),
    opts=OPTIONS,
    scoring=SCORING,
    cuts=st.lists(st.integers(0, 8), max_size=3),
)
def test_statistics_add(
    corpus: tuple[list[str], Refs], opts: dict[str, Any], scoring: Any, cuts: list[int]
) -> None:
    hyps, refs = corpus
    n, order = len(hyps), opts["max_ngram_order"]
    (method, value), eff = scoring
    metric = rapidbleu.BLEU(**opts, smooth_method=method, smooth_value=value, effective_order=eff)
    whole = metric.statistics(hyps, refs)
    _check_layout(whole, n, order)

    bounds = sorted({0, n, *(min(c, n) for c in cuts)})
    parts = []
    for a, b in zip(bounds, bounds[1:]):
        part = metric.statistics(hyps[a:b], _split(refs, a, b))
        _check_layout(part, b - a, order)
        parts.append(part)
    assert np.array_equal(np.concatenate(parts), whole)
    summed = sum(p.sum(axis=0) for p in parts)
    assert np.array_equal(summed, whole.sum(axis=0))

    # The corpus score is the score of the summed statistics (both libraries).
    score = metric.corpus_score(hyps, refs)
    assert_same_score(metric._compute_score_from_stats(summed), score, "summed parts")
    sacre = SacreBLEU(**opts, smooth_method=method, smooth_value=value, effective_order=eff)
    assert_same_score(score, sacre._compute_score_from_stats([int(x) for x in summed]), "oracle")


@seeded("stats-threads", 40)
@given(
    corpus=st.integers(1, 3).flatmap(lambda k: corpora(k, min_segments=65, max_segments=160)),
    opts=OPTIONS,
)
def test_threads_identical(corpus: tuple[list[str], Refs], opts: dict[str, Any]) -> None:
    """Above 64 segments the core splits the rows over a pool; the rows do not change."""
    hyps, refs = corpus
    arrays = {t: rapidbleu.BLEU(**opts, num_threads=t).statistics(hyps, refs) for t in (1, 2, 3, 0)}
    for t, a in arrays.items():
        _check_layout(a, len(hyps), opts["max_ngram_order"])
        assert np.array_equal(a, arrays[1]), f"num_threads={t}"
    # Cached references: same rows with any thread count, for both the cache and the scoring.
    for t in (1, 2, 0):
        cached = rapidbleu.BLEU(**opts, num_threads=t, references=refs)
        assert np.array_equal(cached.statistics(hyps), arrays[1]), f"cached, num_threads={t}"
    assert arrays[1].tolist() == SacreBLEU(**opts)._extract_corpus_statistics(hyps, refs)


@pytest.mark.parametrize("env", ["1", "2", "0"])
def test_threads_from_environment(env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    hyps = [f"segment {i} with some words , and a dot ." for i in range(300)]
    refs = [[f"segment {i % 7} with words and a dot ." for i in range(300)]]
    expected = rapidbleu.BLEU(num_threads=1).statistics(hyps, refs)
    monkeypatch.setenv("RAPIDBLEU_NUM_THREADS", env)
    assert np.array_equal(rapidbleu.BLEU().statistics(hyps, refs), expected)


@pytest.mark.skipif(not (DATA / "wmt17.en-de").is_dir(), reason=f"{DATA}/wmt17.en-de not found")
@pytest.mark.parametrize("tok", ["13a", "intl", "zh"])
def test_threads_real_data(tok: str) -> None:
    """3004 real segments (two reference streams: the reference and another system)."""
    d = DATA / "wmt17.en-de"
    hyps = read_lines(d / "hyp.uedin-nmt.4722.de")
    refs = [read_lines(d / "ref.A.de"), read_lines(d / "hyp.online-B.0.de")]
    arrays = [
        rapidbleu.BLEU(tokenize=tok, num_threads=t).statistics(hyps, refs) for t in (1, 2, 0, 5)
    ]
    for a in arrays:
        _check_layout(a, len(hyps), 4)
        assert np.array_equal(a, arrays[0])
    # Splitting the real corpus anywhere: the statistics add.
    m = rapidbleu.BLEU(tokenize=tok)
    for cut in (1, 64, 1000, 3003):
        top = m.statistics(hyps[:cut], [r[:cut] for r in refs])
        bottom = m.statistics(hyps[cut:], [r[cut:] for r in refs])
        assert np.array_equal(np.concatenate([top, bottom]), arrays[0])


@seeded("sentence-rows", 150)
@given(
    corpus=st.integers(1, 3).flatmap(lambda k: corpora(k, max_segments=70)),
    opts=OPTIONS,
    scoring=SCORING,
)
def test_sentence_scores_are_row_scores(
    corpus: tuple[list[str], Refs], opts: dict[str, Any], scoring: Any
) -> None:
    hyps, refs = corpus
    (method, value), eff = scoring
    metric = rapidbleu.BLEU(**opts, smooth_method=method, smooth_value=value, effective_order=eff)
    stats = metric.statistics(hyps, refs)
    batched = metric.sentence_scores(hyps, refs)
    assert isinstance(batched, np.ndarray) and batched.dtype == np.float64
    assert batched.shape == (len(hyps),)
    rows = [metric._compute_score_from_stats(row).score for row in stats]
    assert batched.tolist() == rows
    # ... and each row is the sentence score of its segment.
    singles = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    assert rows == singles


def test_statistics_layout_small() -> None:
    m = rapidbleu.BLEU()
    s = m.statistics(["a b c"], [["a b d"]])
    _check_layout(s, 1, 4)
    assert s.tolist() == [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0]]
    for order in (1, 2, 5, 6, 9):
        s = rapidbleu.BLEU(max_ngram_order=order).statistics(
            ["a b c", "", "x"], [["a b d", "", "y"]]
        )
        _check_layout(s, 3, order)
    # An empty hypothesis and an empty reference: lengths 0, nothing counted.
    assert rapidbleu.BLEU().statistics([""], [[""]]).tolist() == [[0] * 10]


def test_concurrent_calls_from_python_threads() -> None:
    """The core releases the GIL: Python threads scoring at once (one shared metric with cached
    references, and separate metrics) get the same results as one thread."""
    from concurrent.futures import ThreadPoolExecutor

    hyps = [f"the {i % 13} cat sat on the {i % 7} mat , and it was {i % 5} ." for i in range(500)]
    refs = [[f"the {i % 11} cat sat on a {i % 7} mat , and it was {i % 3} ." for i in range(500)]]
    shared = rapidbleu.BLEU(references=refs)
    expected_stats = rapidbleu.BLEU(num_threads=1).statistics(hyps, refs)
    expected = rapidbleu.BLEU(num_threads=1).corpus_score(hyps, refs).score

    def work(k: int) -> tuple[float, Any, float]:
        own = rapidbleu.BLEU(num_threads=k % 3)
        return (
            shared.corpus_score(hyps, None).score,
            own.statistics(hyps, refs),
            own.corpus_score(hyps, refs).score,
        )

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(32)))
    for cached_score, stats, score in results:
        assert cached_score == score == expected
        assert np.array_equal(stats, expected_stats)
