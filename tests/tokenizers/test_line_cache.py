"""``rapidbleu._core.LineCache``: the batches of the MeCab and SentencePiece tokenizers.

The cache must give exactly ``[tokenize(prepare(line)) for line in lines]`` (``prepare``:
sacreBLEU's ``_preprocess_segment`` lowercasing and ``rstrip``), whatever it has seen before,
and call the tokenizer once per distinct line it has not kept. Its results are
``TokenizedLines``: a sequence of ``str`` to Python, text the core reads as it is.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from rapidbleu import _core
from rapidbleu.errors import InputError, InputTypeError, InvalidTextError
from rapidbleu.metrics import BLEU
from rapidbleu.tokenizers._cache import LineCache
from rapidbleu.tokenizers.mecab import TokenizerJaMecab


def _spy(calls: list[list[str]]) -> Any:
    def tokenize(todo: list[str]) -> list[str]:
        calls.append(list(todo))
        return [f"<{t}>" for t in todo]

    return tokenize


def _alphabet() -> str:
    # ASCII and Unicode whitespace (Python's), letters whose lowercase is longer or context
    # dependent (İ, Σ), CJK, kana, an emoji and a combining mark.
    return "aB \t\u00a0\u2003\u3000\u0130\u03a3\u00df\u4e00\u3042\U0001f600\u0301x\n"


def test_same_as_preprocessing_each_line() -> None:
    rng = random.Random(7)
    chars = _alphabet()
    cache = LineCache(50)  # small: entries leave while the test runs
    for _ in range(300):
        lines: list[str | None] = [
            None if rng.random() < 0.1 else "".join(rng.choices(chars, k=rng.randrange(6)))
            for _ in range(rng.randrange(12))
        ]
        lowercase, rstrip = rng.random() < 0.5, rng.random() < 0.5
        want = [
            None
            if x is None
            else "<"
            + (
                (x.lower() if lowercase else x).rstrip()
                if rstrip
                else (x.lower() if lowercase else x)
            )
            + ">"
            for x in lines
        ]
        got = cache.run(
            lines,
            lambda todo: [f"<{t}>" for t in todo],
            lowercase=lowercase,
            rstrip=rstrip,
            allow_none=True,
        )
        assert list(got) == want, (lines, lowercase, rstrip)
        assert len(cache) <= 50


def test_each_new_line_is_tokenized_once() -> None:
    calls: list[list[str]] = []
    cache = LineCache(100)
    got = cache.run(["a ", "b", "a", "a "], _spy(calls), rstrip=True)
    assert list(got) == ["<a>", "<b>", "<a>", "<a>"]
    assert list(cache.run(["b", "c", None], _spy(calls), allow_none=True)) == ["<b>", "<c>", None]
    assert list(cache.run([], _spy(calls))) == []
    assert calls == [["a", "b"], ["c"]]


def test_oldest_leave_first() -> None:
    calls: list[list[str]] = []
    cache = LineCache(2)
    cache.run(["a", "b", "c"], _spy(calls))
    assert len(cache) == 2
    cache.run(["b", "c", "a"], _spy(calls))
    assert calls[-1] == ["a"]  # "a" had left, "b" and "c" were kept
    assert list(LineCache(0).run(["a"], lambda t: t)) == ["a"]


def test_lone_surrogates_go_to_the_tokenizer_as_they_are() -> None:
    # The tokenizer refuses them in its own way (SentencePiece raises RuntimeError, as for
    # sacreBLEU); the cache neither checks nor keeps them. Output that is not valid Unicode
    # is refused: it could not be text for the statistics.
    calls: list[list[str]] = []
    cache = LineCache(10)
    bad = "x \ud800 "
    with pytest.raises(InvalidTextError, match=r"output\[0\] is not valid Unicode"):
        cache.run([bad, bad], _spy(calls), lowercase=True, rstrip=True)
    assert calls == [["x \ud800", "x \ud800"]] and len(cache) == 0

    def refuse(todo: list[str]) -> list[str]:
        raise RuntimeError("refused")

    with pytest.raises(RuntimeError, match="refused"):
        cache.run(["fine", bad], refuse)


def test_str_subclasses_use_their_own_methods() -> None:
    class Loud(str):
        def lower(self) -> str:
            return "lowered"

    assert list(LineCache(4).run([Loud("ÀB")], lambda t: t, lowercase=True)) == ["lowered"]


def test_errors() -> None:
    cache = LineCache(4)
    with pytest.raises(InputTypeError, match=r"lines\[1\] is int; expected str$"):
        cache.run(["a", 1], lambda t: t)
    with pytest.raises(InputTypeError, match=r"lines\[0\] is NoneType"):
        cache.run([None], lambda t: t)
    with pytest.raises(InputTypeError, match="expected a sequence"):
        cache.run(iter(["a"]), lambda t: t)
    with pytest.raises(InputError, match="returned 0 lines for 1"):
        cache.run(["a"], lambda t: [])
    with pytest.raises(InputTypeError, match=r"output\[0\] is int"):
        cache.run(["b"], lambda t: [1])
    assert len(cache) == 0  # nothing is kept from a failed call
    with pytest.raises(OverflowError):
        LineCache(-1)


def test_threads_share_one_cache() -> None:
    cache = _core.LineCache(1000)
    lines = [f"line {i % 300}" for i in range(3000)]
    results: list[Any] = []
    lock = threading.Lock()

    def work() -> None:
        got = cache.run(lines, lambda todo: [t.upper() for t in todo])
        with lock:
            results.append(got)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [list(r) for r in results] == [[x.upper() for x in lines]] * 8
    assert len(cache) == 300


def test_large_batches_are_exact_on_the_pool() -> None:
    # From 4,096 lines a batch's lines are stripped, hashed and kept on the pool, and a cache
    # of 4,096 entries or more is freed there when dropped: the same results, each new line
    # tokenized once, the bound kept.
    rng = random.Random(3)
    chars = _alphabet()
    pool = ["".join(rng.choices(chars, k=rng.randrange(1, 8))) for _ in range(9000)]
    cache = LineCache(6000)  # fewer than pass through: the oldest leave
    calls: list[list[str]] = []
    for lowercase in (False, True, False):
        lines = [None if rng.random() < 0.02 else rng.choice(pool) for _ in range(8000)]
        want = [
            None if x is None else "<" + (x.lower() if lowercase else x).rstrip() + ">"
            for x in lines
        ]
        got = cache.run(
            lines,
            _spy(calls),
            num_threads=2,
            lowercase=lowercase,
            rstrip=True,
            allow_none=True,
        )
        assert list(got) == want
        assert len(calls[-1]) == len(set(calls[-1])) and len(cache) <= 6000
    del cache, got

    shared = _core.LineCache(100_000)
    big = [f"line {i % 5000}" for i in range(12_000)]
    results: list[Any] = []

    def work() -> None:
        results.append(list(shared.run(big, lambda todo: [t.upper() for t in todo])))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[x.upper() for x in big]] * 4
    assert len(shared) == 5000


def test_a_large_cache_dropped_at_exit() -> None:
    # Its entries are freed by a job on the pool that the exiting process does not wait for.
    program = (
        "from rapidbleu import _core\n"
        "c = _core.LineCache(10**5)\n"
        "c.run([f'line {i}' for i in range(10_000)], lambda t: t, num_threads=2)\n"
        "del c\n"
    )
    done = subprocess.run([sys.executable, "-c", program], timeout=120, capture_output=True)
    assert done.returncode == 0, done.stderr


def _held(lines: list[str | None]) -> Any:
    """``lines`` as a ``TokenizedLines`` (what the cache gives)."""
    return LineCache(len(lines)).run(lines, lambda todo: todo, allow_none=True)


def test_tokenized_lines_read_as_a_sequence() -> None:
    held = _held(["a", None, "b c", "d"])
    assert isinstance(held, Sequence) and len(held) == 4 and repr(held).startswith("<Tokenized")
    assert (held[0], held[1], held[-1], held[1:3], held[::-2]) == (
        "a",
        None,
        "d",
        [None, "b c"],
        ["d", None],
    )
    with pytest.raises(IndexError):
        held[4]
    with pytest.raises(TypeError):
        held["x"]


def test_the_statistics_read_tokenized_lines_as_lists() -> None:
    hyps, refs = ["ÀB c d", "e f"], [["àb c d", None], ["x", "e f g"]]
    for lowercase in (False, True):
        opts = BLEU(tokenize="none", lowercase=lowercase).options
        want = opts.totals(hyps, refs, 1, per_segment=False)
        got = opts.totals(_held(hyps), [_held(r) for r in refs], 2, per_segment=False)
        assert got == want
        cache = _core.BleuReferenceCache([_held(r) for r in refs], opts)
        assert cache.totals(_held(hyps)) == cache.totals(hyps) == (want[0], want[2])
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] is NoneType; expected str$"):
        opts.totals(_held(["a", None]), [["a", "b"]], 1, per_segment=False)


def test_mecab_runs_inside_the_cache() -> None:
    engine = TokenizerJaMecab(backend="engine")
    oracle = TokenizerJaMecab(backend="python")
    lines = ["今日は 晴れ ", None, "  吾輩は猫である。", "今日は 晴れ", "ＡＢＣ　ｄ"]
    for lowercase in (False, True):
        got = LineCache(10).run(
            lines, engine._engine, num_threads=2, lowercase=lowercase, rstrip=True, allow_none=True
        )
        want = [
            None if x is None else oracle((x.lower() if lowercase else x).rstrip()) for x in lines
        ]
        assert list(got) == want
    with pytest.raises(InvalidTextError, match=r"lines\[1\] is not valid Unicode"):
        LineCache(10).run(["ok", "bad \ud800"], engine._engine)
