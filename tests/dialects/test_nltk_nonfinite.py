"""NLTK's batch path where intermediate values are not finite (finding 5 of the reliability
issue): ``sentence_bleu_batch`` gives exactly what a loop of nltk's ``sentence_bleu`` gives,
its ``nan``, ``inf`` and ``0.0``, and raises its ``ZeroDivisionError``, ``OverflowError`` or
``ValueError`` (for the first segment that raises, as the loop would).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from conftest import examples
from fuzzstats import record
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nb

from rapidbleu.dialects import nltk as rb

REFS = [[["a", "b", "c", "d"]], [["a", "b", "x", "y"]], [["q"]], [["a", "b", "c", "d", "e", "f"]]]
HYPS = [["a", "b", "c", "d"], ["a", "b", "c", "d"], ["z"], ["a", "b"]]


def outcome(f: Any) -> tuple[str, Any]:
    """``("value", v)`` (NaN as the string ``"nan"``) or ``(exception name, message)``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            v = f()
        except Exception as e:
            return type(e).__name__, str(e)
    if isinstance(v, list):
        return "value", ["nan" if math.isnan(x) else float(x) for x in v]
    return "value", "nan" if math.isnan(v) else float(v)


def smoother(module: Any, method: int, epsilon: Any, k: Any) -> Any:
    return getattr(module.SmoothingFunction(epsilon=epsilon, k=k), f"method{method}")


# The cases of the issue, each on segments where it bites and where it does not.
ISSUE_CASES = [
    ((math.inf, 0.25), None),
    ((1e308, 1e308), None),
    ((-1, -1), None),
    ((0.25,) * 4, (4, 0.1, 0)),
    ((0.25,) * 4, (4, 0.1, 1e-320)),
    ((-1e308,) * 4, (1, 0.1, 5)),
    ((-1000,) * 4, (1, 0.1, 5)),
    ((math.nan, 1), None),
    ((-math.inf, 1), None),
    ((10**400, 1), None),
    ((0.25,) * 4, (1, 10**400, 5)),
    ((0.25,) * 4, (1, 2**53 + 1, 5)),
    ((0.25,) * 4, (4, 0.1, -0.0)),
    ((0.25,) * 4, (4, 0.1, 2**1100)),
    ((0.25,) * 4, (3, 0.1, 5)),
]


@pytest.mark.parametrize(("weights", "smooth"), ISSUE_CASES, ids=[repr(c) for c in ISSUE_CASES])
def test_issue_cases_equal_nltk(weights: Any, smooth: Any) -> None:
    f_nltk = None if smooth is None else smoother(nb, *smooth)
    f_rb = None if smooth is None else smoother(rb, *smooth)
    loop = []
    for refs, hyp in zip(REFS, HYPS):
        expected = outcome(lambda r=refs, h=hyp: nb.sentence_bleu(r, h, weights, f_nltk))
        assert outcome(lambda r=refs, h=hyp: rb.sentence_bleu(r, h, weights, f_rb)) == expected
        got = outcome(lambda r=refs, h=hyp: rb.sentence_bleu_batch([r], [h], weights, f_rb)[0])
        assert got == expected, (refs, hyp)
        # NLTK's own smoothing object takes the same path.
        got = outcome(lambda r=refs, h=hyp: rb.sentence_bleu_batch([r], [h], weights, f_nltk)[0])
        assert got == expected, (refs, hyp)
        loop.append(expected)
    # The whole batch: the loop's values, or the exception of the first segment that raises.
    first_error = next((o for o in loop if o[0] != "value"), None)
    batch = outcome(lambda: rb.sentence_bleu_batch(REFS, HYPS, weights, f_rb).tolist())
    assert batch == (first_error or ("value", [v for _, v in loop]))


FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-320, 5e-324, 1e308, -1e308, 0.25, 1.0, -1.0, 1000.0]),
    st.integers(-(2**60), 2**60),
    st.sampled_from([10**400, -(10**400), 2**53 + 1]),
)


@st.composite
def corpora(draw: Any) -> tuple[list[list[int]], list[list[list[int]]]]:
    seq = st.lists(st.integers(0, 4), max_size=draw(st.sampled_from([3, 8, 25])))
    n = draw(st.integers(1, 4))
    return [draw(seq) for _ in range(n)], [
        draw(st.lists(seq, min_size=1, max_size=3)) for _ in range(n)
    ]


@settings(max_examples=examples(300), deadline=None)
@given(
    corpora(),
    st.lists(FLOATS, min_size=1, max_size=5).map(tuple),
    st.integers(0, 4),
    FLOATS,
    FLOATS,
    st.booleans(),
)
def test_batch_equals_nltk_loop_with_any_floats(
    corpus: Any, weights: Any, method: int, epsilon: Any, k: Any, auto_reweigh: bool
) -> None:
    hyps, refs = corpus
    f_nltk, f_rb = smoother(nb, method, epsilon, k), smoother(rb, method, epsilon, k)
    loop = [
        outcome(lambda r=r, h=h: nb.sentence_bleu(r, h, weights, f_nltk, auto_reweigh))
        for r, h in zip(refs, hyps)
    ]
    first_error = next((o for o in loop if o[0] != "value"), None)
    expected = first_error or ("value", [v for _, v in loop])
    got = outcome(lambda: rb.sentence_bleu_batch(refs, hyps, weights, f_rb, auto_reweigh).tolist())
    record("nltk-batch-nonfinite", "differed" if got != expected else "ok")
    assert got == expected
