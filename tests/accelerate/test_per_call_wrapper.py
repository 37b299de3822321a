"""The accelerator's per-call wrapper: each call counted once, fallback warnings at the caller.

The method wrapper inlines the call path (no closure or partial per call) and ``Profile.add``
appends to a deque folded into the sums when read; these tests check that nothing is lost or
counted twice (across the fold, from several threads, nested calls) and that a fallback's
warning still names the program's line, for methods and functions alike.
"""

from __future__ import annotations

import inspect
import threading
import warnings
from typing import Any

import pytest

from rapidbleu.accelerate.profile import Profile
from rapidbleu.accelerate.proxies import AcceleratedClass, accelerated_function
from rapidbleu.errors import LengthMismatchError


class Fast:
    def score(self, x: int) -> int:
        if x < 0:
            raise LengthMismatchError("negative")
        return x

    def outer(self, x: int) -> int:
        return self.score(x) + 1  # a nested accelerated call: part of this one


class Real:
    def score(self, x: int) -> int:
        return -x

    def outer(self, x: int) -> int:
        return -x + 1


def counts(rows: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    return {(r["name"], r["where"]): r["count"] for r in rows}


def test_profile_counts_every_call_across_folds_and_threads() -> None:
    p = Profile()

    def work() -> None:
        for _ in range(3000):
            p.add("m.f", "rapidbleu", 0.5)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    p.add("m.g", "fallback", 0.25)
    assert p.rows() == [
        {"name": "m.f", "where": "rapidbleu", "count": 12000, "seconds": 6000.0},
        {"name": "m.g", "where": "fallback", "count": 1, "seconds": 0.25},
    ]


def test_each_method_call_counted_once_and_nested_calls_not_at_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rapidbleu.accelerate.profile import PROFILE

    monkeypatch.setattr(PROFILE, "enabled", True)  # a reported run's counting
    cls = AcceleratedClass("demo_percall.Fast", Fast, Real)
    obj = cls()
    before = counts(PROFILE.rows())
    assert [obj.score(3) for _ in range(5000)] == [3] * 5000
    assert obj.outer(2) == 3
    after = counts(PROFILE.rows())
    key = ("demo_percall.Fast.score", "rapidbleu")
    assert after[key] - before.get(key, 0) == 5000
    outer = ("demo_percall.Fast.outer", "rapidbleu")
    assert after[outer] - before.get(outer, 0) == 1


def test_fallback_warnings_name_the_callers_line() -> None:
    cls = AcceleratedClass("demo_percall.Warn", Fast, Real)
    obj = cls()
    fn = accelerated_function("demo_percall.fn", Fast().score, Real().score)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
        assert obj.score(-4) == 4
        assert fn(-5) == 5
    assert [(w.filename, w.lineno) for w in seen] == [(__file__, line), (__file__, line + 1)]
    assert all("fell back to the real package" in str(w.message) for w in seen)
