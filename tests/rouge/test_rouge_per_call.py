"""``RougeScorer.score`` in one core call (``RougeOptions.score_pair``): values and types.

The per-call path builds rouge-score's ``Score`` named tuples in the glue, so these tests compare
``repr`` (values, int zeros against floats, the named tuple's fields) as well as ``==``, on real
text, on lone surrogates and on texts long enough to be scored with the GIL released; and they
check that the options as they are at call time decide (attributes set after construction, a
user tokenizer), as with rouge-score. The hypothesis parity over full Unicode is in
``test_rouge_parity.py`` (``test_score`` goes through this path).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from conftest import DATA, read_lines
from rouge_score import rouge_scorer

import rapidbleu._core as _core
from rapidbleu.errors import InputTypeError, InvalidOptionError
from rapidbleu.metrics.rouge.rouge_scorer import RougeScorer
from rapidbleu.metrics.rouge.scoring import Score

CONFIGS = [
    (["rouge1"], False),
    (["rouge1", "rouge2", "rougeL"], False),
    (["rouge1", "rouge2", "rougeL"], True),
    (["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"], True),
]
HYPS = read_lines(DATA / "wmt22.en-de" / "hyp.OpenNMT.de")[:120]
REFS = read_lines(DATA / "wmt22.en-de" / "ref.A.de")[:120]
EN = read_lines(DATA / "wmt22.zh-en" / "ref.A.en")[:120]


def same(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert ours == theirs
    assert repr(ours) == repr(theirs)  # int 0 stays an int, floats print alike
    for k, v in ours.items():
        assert type(v) is Score
        assert [type(x) for x in v] == [type(x) for x in theirs[k]], k


@pytest.mark.parametrize(("types", "stem"), CONFIGS)
def test_real_text(types: list[str], stem: bool) -> None:
    ours, theirs = RougeScorer(types, use_stemmer=stem), rouge_scorer.RougeScorer(types, stem)
    pairs = list(zip(HYPS, REFS)) + list(zip(EN[1:], EN[:-1])) + [("", EN[0]), (EN[0], "")]
    for h, r in pairs:
        same(ours.score(r, h), theirs.score(r, h))


def test_empty_sides_give_int_zeros() -> None:
    types = ["rouge1", "rougeL", "rougeLsum"]
    ours, theirs = RougeScorer(types), rouge_scorer.RougeScorer(types)
    for t, p in [("", ""), ("a b", ""), ("", "a b"), ("!!", "a"), ("a\n\nb", "\n")]:
        same(ours.score(t, p), theirs.score(t, p))
    assert ours.score("", "a")["rougeL"] == (0, 0, 0)
    assert type(ours.score("", "a")["rougeL"].fmeasure) is int


def test_lone_surrogates_and_long_texts() -> None:
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    ours, theirs = RougeScorer(types, use_stemmer=True), rouge_scorer.RougeScorer(types, True)
    for t, p in [("a\ud800b c", "a b\udfffc"), ("\ud800", "x\ud800")]:
        same(ours.score(t, p), theirs.score(t, p))
    long_t = "\n".join(EN[:60])  # well over score_pair's 4 KiB: scored with the GIL released
    long_p = "\n".join(EN[30:90])
    assert len(long_t.encode()) + len(long_p.encode()) > 4096
    same(ours.score(long_t, long_p), theirs.score(long_t, long_p))


def test_threads_score_alike() -> None:
    ours = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    want = [ours.score(r, h) for h, r in zip(HYPS, REFS)]
    got: list[list[Any]] = [[] for _ in range(4)]

    def run(k: int) -> None:
        got[k] = [ours.score(r, h) for h, r in zip(HYPS, REFS)]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 4


def test_options_set_after_construction_take_effect() -> None:
    ours, theirs = RougeScorer(["rouge1"]), rouge_scorer.RougeScorer(["rouge1"])
    ours.score("a b", "a")
    ours.rouge_types = ["rouge2", "rougeL"]
    theirs.rouge_types = ["rouge2", "rougeL"]
    same(ours.score("a b c", "a b d"), theirs.score("a b c", "a b d"))
    ours.rouge_types = ["rougeX"]
    with pytest.raises(InvalidOptionError):
        ours.score("a b", "a")


class Chars:
    """A user tokenizer: one token per character (rouge-score calls ``tokenize``)."""

    def tokenize(self, text: str) -> list[str]:
        return [c for c in text if not c.isspace()]


def test_user_tokenizer_still_runs() -> None:
    types = ["rouge1", "rouge2", "rougeL"]
    ours = RougeScorer(types, tokenizer=Chars())
    theirs = rouge_scorer.RougeScorer(types, tokenizer=Chars())
    for h, r in zip(HYPS[:30], REFS[:30]):
        same(ours.score(r, h), theirs.score(r, h))


def test_score_pair_contract() -> None:
    options = _core.RougeOptions(["rouge1", "rougeL"])
    assert options.score_pair(None, "a", Score) is None
    assert options.score_pair("a", b"a", Score) is None
    with pytest.raises(InputTypeError):
        options.score_pair("a", "a", dict)
    got = options.score_pair("a b", "a", Score)
    assert got == {"rouge1": (1.0, 0.5, 2 / 3), "rougeL": (1.0, 0.5, 2 / 3)}
