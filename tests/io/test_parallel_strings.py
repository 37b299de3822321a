"""Strings read by the pool (crates/rapidbleu-py/src/pystr.rs) give today's results and errors.

A list of exact ``str`` is read from CPython's own representation on rapidbleu's threads; a
tuple, or a list holding a ``str`` subclass, is read the serial way, string by string. Every
score here is compared with ``==``: with sacreBLEU on generated full-Unicode text of every
character width (1-, 2- and 4-byte kinds, with and without a cached UTF-8 copy), and with the
serial way on the same text; errors (a lone surrogate, a wrong item) must be the same
exception with the same message.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
import sacrebleu

from rapidbleu import BLEU, CHRF, TER, _core, errors

# Above the length from which the pool reads a list (PARALLEL_FROM in pystr.rs).
N = 4500

# Characters of each CPython string kind: ASCII, Latin-1, the BMP (CJK, a symbol) and beyond.
ALPHABETS = {
    "ascii": "abcdeXYZ .,!?'0123",
    # With U+0085 and U+00A0 (whitespace for str.split()) and the ends of the upper half.
    "latin1": "abcé ÿÀßñ.,\x85\xa0\x80\xbf\xc0",
    "bmp": "ab €あい漢字Ωд .,",
    "astral": "ab😀𝔘𠀋é€ .,",
}


class Sub(str):
    """A ``str`` subclass: the whole list is read the serial way."""


def sentences(rng: random.Random, n: int, alphabet: str) -> list[str]:
    """``n`` random sentences over ``alphabet`` (made at run time, as input text is)."""
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(n)]


def mixed(seed: int, n: int = N) -> tuple[list[str], list[str]]:
    """Hypotheses and references mixing every kind, each line of one kind."""
    rng = random.Random(seed)
    kinds = list(ALPHABETS.values())
    hyps = [sentences(rng, 1, rng.choice(kinds))[0] for _ in range(n)]
    refs = [sentences(rng, 1, rng.choice(kinds))[0] for _ in range(n)]
    return hyps, refs


def cache_utf8(lines: list[str], every: int = 2) -> None:
    """Has CPython cache the UTF-8 of every ``every``-th line (``str.encode`` caches nothing;
    ``PyUnicode_AsUTF8AndSize``, which the serial tokenizer call makes, does)."""
    for s in lines[::every]:
        _core.tokenize("none", s)


def serial(lines: list[Any]) -> list[Any]:
    """The same text as a list that the serial way reads (its last item a ``str`` subclass)."""
    return [*lines[:-1], Sub(lines[-1])]


def test_the_parallel_path_is_the_one_tested() -> None:
    assert _core.fast_strings()


METRICS: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
    "bleu": (lambda: BLEU(num_threads=2), lambda: sacrebleu.BLEU()),
    "bleu-lc": (
        lambda: BLEU(lowercase=True, num_threads=2),
        lambda: sacrebleu.BLEU(lowercase=True),
    ),
    "chrf": (lambda: CHRF(word_order=2, num_threads=2), lambda: sacrebleu.CHRF(word_order=2)),
}


@pytest.mark.parametrize("name", sorted(METRICS))
def test_every_kind_equals_sacrebleu_and_the_serial_path(name: str) -> None:
    ours, oracle = METRICS[name]
    hyps, refs = mixed(seed=len(name))
    cache_utf8(hyps, every=3)
    fast = ours().corpus_score(hyps, [refs])
    assert str(fast) == str(oracle().corpus_score(hyps, [refs]))
    assert fast.score == ours().corpus_score(serial(hyps), [serial(refs)]).score
    assert fast.score == ours().corpus_score(tuple(hyps), [tuple(refs)]).score
    fast_rows = ours().sentence_scores(hyps, [refs])
    assert list(fast_rows) == list(ours().sentence_scores(tuple(hyps), [tuple(refs)]))


@pytest.mark.parametrize("kind", sorted(ALPHABETS))
def test_each_kind_alone_with_and_without_cached_utf8(kind: str) -> None:
    rng = random.Random(kind)
    hyps = sentences(rng, N, ALPHABETS[kind])
    refs = sentences(rng, N, ALPHABETS[kind])
    before = BLEU(num_threads=2).corpus_score(hyps, [refs])
    cache_utf8(hyps, every=1)
    cache_utf8(refs, every=1)
    after = BLEU(num_threads=2).corpus_score(hyps, [refs])
    assert str(before) == str(after) == str(sacrebleu.BLEU().corpus_score(hyps, [refs]))
    assert CHRF(num_threads=2).corpus_score(hyps, [refs]).score == (
        sacrebleu.CHRF().corpus_score(hyps, [refs]).score
    )


def test_ter_equals_sacrebleu() -> None:
    hyps, refs = mixed(seed=7)
    hyps = [h[:20] for h in hyps]
    refs = [r[:20] for r in refs]
    cache_utf8(refs)
    assert str(TER(num_threads=2).corpus_score(hyps, [refs])) == str(
        sacrebleu.TER().corpus_score(hyps, [refs])
    )


def test_missing_references_read_as_before() -> None:
    hyps, refs = mixed(seed=3)
    refs2 = [None if i % 5 == 0 else r for i, r in enumerate(refs)]
    for metric in (BLEU(num_threads=2), CHRF(num_threads=2)):
        fast = metric.corpus_score(hyps, [refs, refs2])
        assert str(fast) == str(metric.corpus_score(hyps, [refs, serial(refs2)]))
        assert str(fast) == str(metric.corpus_score(hyps, [refs, tuple(refs2)]))


def test_ja_mecab_equals_the_serial_path() -> None:
    rng = random.Random(13)
    words = ["猫", "が", "好き", "です", "。", "東京", "に", "行き", "ました", "ＡＢＣ", "abc"]
    hyps = ["".join(rng.choice(words) for _ in range(rng.randint(1, 12))) for _ in range(N)]
    refs = ["".join(rng.choice(words) for _ in range(rng.randint(1, 12))) for _ in range(N)]
    fast = BLEU(tokenize="ja-mecab", num_threads=2).corpus_score(hyps, [refs])
    slow = BLEU(tokenize="ja-mecab", num_threads=2).corpus_score(tuple(hyps), [tuple(refs)])
    assert str(fast) == str(slow)
    assert str(fast) == str(sacrebleu.BLEU(tokenize="ja-mecab").corpus_score(hyps, [refs]))


def raised(f: Callable[[], Any]) -> tuple[type[BaseException], str]:
    """The exception ``f`` raises: its type and message."""
    with pytest.raises(errors.RapidBleuError) as info:
        f()
    return type(info.value), str(info.value)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("at", [0, 100, N - 1])
def test_a_lone_surrogate_is_the_same_error(at: int, lowercase: bool) -> None:
    hyps, refs = mixed(seed=at)
    bad = [*hyps]
    bad[at] = "ok \ud800 then"
    metric = BLEU(lowercase=lowercase, num_threads=2)
    fast = raised(lambda: metric.corpus_score(bad, [refs]))
    assert fast == raised(lambda: metric.corpus_score(tuple(bad), [refs]))
    assert fast[0] is errors.InvalidTextError and f"hypotheses[{at}]" in fast[1]
    refs_bad = [*refs]
    refs_bad[at] = "\udfff"
    fast = raised(lambda: CHRF(num_threads=2).corpus_score(hyps, [refs_bad]))
    assert fast == raised(lambda: CHRF(num_threads=2).corpus_score(hyps, [tuple(refs_bad)]))


def test_the_first_bad_item_in_order_is_reported() -> None:
    hyps, refs = mixed(seed=11)
    bad: list[Any] = [*hyps]
    bad[50] = "\ud800"
    bad[40] = 3
    fast = raised(lambda: BLEU(num_threads=2).corpus_score(bad, [refs]))
    assert fast == raised(lambda: BLEU(num_threads=2).corpus_score(tuple(bad), [refs]))
    assert "hypotheses[40] is int" in fast[1]
    bad[40] = hyps[40]
    bad[60] = None
    fast = raised(lambda: BLEU(num_threads=2).corpus_score(bad, [refs]))
    assert fast[0] is errors.InvalidTextError and "hypotheses[50]" in fast[1]


def test_str_subclasses_keep_their_lower() -> None:
    """A subclass's own ``lower`` runs (the serial way), as it did."""

    class Shout(str):
        def lower(self) -> str:
            return "SHOUTED"

    hyps, refs = mixed(seed=5)
    with_sub = [*hyps[:-1], Shout("Ünïcode")]
    expected = BLEU(lowercase=True, num_threads=1).corpus_score(tuple(with_sub), [refs])
    assert BLEU(lowercase=True, num_threads=2).corpus_score(with_sub, [refs]).score == (
        expected.score
    )


def test_the_list_may_change_after_the_call() -> None:
    """The pool reads a private copy: the caller's list is neither kept nor changed."""
    hyps, refs = mixed(seed=9)
    before = BLEU(num_threads=2).corpus_score(hyps, [refs])
    snapshot = [*hyps]
    assert hyps == snapshot
    hyps.clear()
    assert BLEU(num_threads=2).corpus_score(snapshot, [refs]).score == before.score


#: Threads whose first calls come together: the layout probe (Python code, during which the
#: interpreter may hand the GIL to another thread) ran under a lock that such a thread then
#: waited on while holding the GIL, and both waited forever (5 runs of 6 hung).
RACE = """
import sys, threading
sys.setswitchinterval(1e-6)  # hand the GIL over as often as the interpreter can
from rapidbleu.metrics import BLEU
lines = [f"line {i} of the test" for i in range(64)]
barrier = threading.Barrier(8)
out = []
def work():
    barrier.wait()
    out.append(BLEU().corpus_score(lines, [lines]).score)
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert out == [100.00000000000004] * 8, out
"""


@pytest.mark.parametrize("run", range(4))
def test_first_calls_from_many_threads_at_once(run: int) -> None:
    # A fresh process each time: the probe runs once per process.
    done = subprocess.run([sys.executable, "-c", RACE], timeout=120, capture_output=True)
    assert done.returncode == 0, done.stderr
