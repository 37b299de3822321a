"""The last bit of sacreBLEU's score depends on how the interpreter's ``sum()`` adds floats.

CPython <= 3.11 adds left to right; 3.12+ uses Neumaier compensation (``builtin_sum_impl``).
rapidbleu's Rust scorer emulates both and picks the running interpreter's. Whatever interpreter
runs this test, both modes are checked: the plain mode against a Python model of 3.11's ``sum``,
the compensated mode against a Python transcription of 3.12's C loop, and the mode in use
against sacreBLEU itself.
"""

from __future__ import annotations

import math
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from rapidbleu import _core
from rapidbleu.metrics import BLEU


def neumaier_sum(xs: list[float]) -> float:
    """CPython 3.12's float path of ``sum()``, operation for operation."""
    if not xs:
        return 0
    f, c = 0 + xs[0], 0.0
    for x in xs[1:]:
        t = f + x
        if abs(f) >= abs(x):
            c += (f - t) + x
        else:
            c += (x - t) + f
        f = t
    if c and math.isfinite(c):
        f += c
    return f


def plain_sum(xs: list[float]) -> float:
    total = 0
    for x in xs:
        total = total + x
    return total


def model_score(correct: list[int], total: list[int], sys_len: int, ref_len: int, summer) -> float:
    """sacreBLEU's compute_bleu with exp smoothing and a chosen sum()."""
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * len(correct)
    smooth = 1.0
    for n in range(1, len(correct) + 1):
        if total[n - 1] == 0:
            break
        if correct[n - 1] == 0:
            smooth *= 2
            precisions[n - 1] = 100.0 / (smooth * total[n - 1])
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    if any(p == 0.0 for p in precisions):
        return 0.0
    return bp * math.exp(summer([math.log(p) for p in precisions]) / len(precisions))


stats = st.integers(1, 200).flatmap(
    lambda t1: st.tuples(
        st.lists(st.integers(0, t1), min_size=4, max_size=4),
        st.just([t1, max(t1 - 1, 1), max(t1 - 2, 1), max(t1 - 3, 1)]),
        st.integers(1, 300),
    )
)


@settings(max_examples=3000, deadline=None)
@given(stats)
def test_both_summation_modes(s: tuple[list[int], list[int], int]) -> None:
    correct, total, ref_len = s
    correct = [min(c, t) for c, t in zip(correct, total)]
    sys_len = total[0]
    for neumaier, summer in ((False, plain_sum), (True, neumaier_sum)):
        options = _core.BleuOptions(smooth_method="exp", neumaier=neumaier)
        got = options.compute(correct, total, sys_len, ref_len)[0]
        assert got == model_score(correct, total, sys_len, ref_len, summer)


@settings(max_examples=2000, deadline=None)
@given(stats)
def test_running_interpreter_matches_sacrebleu(s: tuple[list[int], list[int], int]) -> None:
    correct, total, ref_len = s
    correct = [min(c, t) for c, t in zip(correct, total)]
    ours = BLEU.compute_bleu(list(correct), list(total), total[0], ref_len, "exp")
    theirs = SacreBLEU.compute_bleu(list(correct), list(total), total[0], ref_len, "exp")
    assert ours.score == theirs.score
    assert ours.precisions == theirs.precisions


def test_modes_really_differ() -> None:
    """The two modes disagree somewhere, so the tests above can tell them apart."""
    differ = 0
    for c1 in range(1, 60):
        args = ([c1, c1 // 2 + 1, c1 // 3 + 1, c1 // 5 + 1], [60, 59, 58, 57], 60, 61)
        a = _core.BleuOptions(neumaier=False).compute(*args)[0]
        b = _core.BleuOptions(neumaier=True).compute(*args)[0]
        differ += a != b
    assert differ > 0


def test_interpreter_sum_is_modelled() -> None:
    xs = [math.log(p) for p in (66.4, 43.5, 31.1, 22.7, 0.3, 97.1)]
    expected = neumaier_sum(xs) if sys.version_info >= (3, 12) else plain_sum(xs)
    assert sum(xs) == expected
