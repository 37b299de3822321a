"""ROUGE against rouge-score 0.1.2 with ``==``: every rouge type, with and without the stemmer.

Texts are drawn by hypothesis over full Unicode and over a small ASCII vocabulary (so that
n-grams and subsequences repeat), as several lines (rougeLsum's sentences), and are taken from
the real data as documents of consecutive lines. Checked: ``score``, ``score_multi`` (the best
reference per type, ties included), the batched ``score_arrays``, a user tokenizer and
``split_summaries``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import DATA, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rapidbleu.metrics import ROUGE

ALL_TYPES = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]
VOCAB = "the a cat cats sat sitting on mat mats running runs ran dog . , \n"
ANY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)
WORDY = st.lists(st.sampled_from(VOCAB.split(" ")), max_size=40).map(" ".join)
TEXT = st.one_of(ANY, WORDY, st.lists(WORDY, max_size=4).map("\n".join))


def scorers(types: list[str], stem: bool, **kw: Any) -> tuple[ROUGE, Any]:
    return ROUGE(types, use_stemmer=stem, **kw), rouge_scorer.RougeScorer(
        types, use_stemmer=stem, **kw
    )


@pytest.mark.parametrize("stem", [False, True])
@settings(max_examples=examples(150))
@given(target=TEXT, prediction=TEXT)
def test_score(stem: bool, target: str, prediction: str) -> None:
    ours, theirs = scorers(ALL_TYPES, stem)
    assert ours.score(target, prediction) == theirs.score(target, prediction)


@pytest.mark.parametrize("stem", [False, True])
@settings(max_examples=examples(100))
@given(targets=st.lists(TEXT, min_size=1, max_size=4), prediction=TEXT)
def test_score_multi(stem: bool, targets: list[str], prediction: str) -> None:
    ours, theirs = scorers(ALL_TYPES, stem)
    got = ours.score_multi(targets, prediction)
    assert got == theirs.score_multi(targets, prediction)
    assert list(got) == ALL_TYPES


def test_ties_go_to_the_first_target() -> None:
    ours, theirs = scorers(["rouge1", "rougeL"], False)
    # Equal F-measures, different precision and recall.
    targets = ["a b c d", "a b", "a b c d e f"]
    for pred in ["a b c", "a x", "a b c d e f g h"]:
        assert ours.score_multi(targets, pred) == theirs.score_multi(targets, pred)


@pytest.mark.parametrize("types", [["rougeLsum"], ["rouge2", "rouge1", "rouge2"], ["rougeL"]])
@settings(max_examples=examples(50))
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=8))
def test_batch_equals_each_item(types: list[str], pairs: list[tuple[str, str]]) -> None:
    ours, theirs = scorers(types, True)
    hyps = [p for _, p in pairs]
    arrays = ours.score_arrays(hyps, [[t for t, _ in pairs]])
    for i, (t, p) in enumerate(pairs):
        want = theirs.score(t, p)
        assert {k: tuple(a[i]) for k, a in arrays.items()} == want


def documents(path: str, lines: int) -> list[str]:
    text = read_lines(DATA / path)
    return ["\n".join(text[i : i + lines]) for i in range(0, len(text), lines)]


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize(
    ("hyp", "refs"),
    [
        ("wmt22.zh-en/hyp.NiuTrans.en", ["wmt22.zh-en/ref.A.en", "wmt22.zh-en/ref.B.en"]),
        ("wmt17.en-de/hyp.online-A.0.de", ["wmt17.en-de/ref.A.de"]),
    ],
)
def test_real_documents(stem: bool, hyp: str, refs: list[str]) -> None:
    types = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"]
    ours, theirs = scorers(types, stem)
    preds = documents(hyp, 4)[:300]
    streams = [documents(r, 4)[: len(preds)] for r in refs]
    arrays = ours.score_arrays(preds, streams)
    for i, p in enumerate(preds):
        want = theirs.score_multi([s[i] for s in streams], p)
        assert {k: tuple(a[i]) for k, a in arrays.items()} == want, i


class WhitespaceTokenizer:
    """A user tokenizer: whitespace, case kept (rouge-score's ``tokenizer`` argument)."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


@settings(max_examples=examples(60))
@given(targets=st.lists(TEXT, min_size=1, max_size=3), prediction=TEXT)
def test_user_tokenizer(targets: list[str], prediction: str) -> None:
    for types in (ALL_TYPES, ["rougeLsum"]):
        ours, theirs = scorers(types, False, tokenizer=WhitespaceTokenizer())
        assert ours.score_multi(targets, prediction) == theirs.score_multi(targets, prediction)


def fake_sent_tokenize(text: str) -> list[str]:
    """A stand-in for NLTK's punkt (its data is not installed here): split after ". "."""
    return [s for s in text.replace(". ", ".\x00").split("\x00")]


@settings(max_examples=examples(60))
@given(target=TEXT, prediction=TEXT)
def test_split_summaries(target: str, prediction: str) -> None:
    import nltk

    saved = nltk.sent_tokenize
    nltk.sent_tokenize = fake_sent_tokenize
    try:
        ours, theirs = scorers(["rouge1", "rougeLsum"], True, split_summaries=True)
        assert ours.score(target, prediction) == theirs.score(target, prediction)
    finally:
        nltk.sent_tokenize = saved


def test_split_summaries_needs_punkt_as_rouge_score_does() -> None:
    import nltk

    try:
        nltk.sent_tokenize("A b. C d.")
    except LookupError:
        ours, theirs = scorers(["rougeLsum"], False, split_summaries=True)
        with pytest.raises(LookupError):
            theirs.score("A b. C d.", "A b.")
        with pytest.raises(LookupError):
            ours.score("A b. C d.", "A b.")
    else:
        ours, theirs = scorers(["rougeLsum"], False, split_summaries=True)
        assert ours.score("A b. C d.", "A b.") == theirs.score("A b. C d.", "A b.")


def test_threads_change_nothing() -> None:
    preds = documents("wmt22.zh-en/hyp.NiuTrans.en", 3)
    refs = [documents("wmt22.zh-en/ref.A.en", 3)]
    one = ROUGE(ALL_TYPES, use_stemmer=True, num_threads=1).statistics(preds, refs)
    many = ROUGE(ALL_TYPES, use_stemmer=True, num_threads=4).statistics(preds, refs)
    assert np.array_equal(one, many)


def test_lone_surrogates_and_line_breaks() -> None:
    # A lone surrogate has no UTF-8 form; rouge-score treats it as any other separator.
    ours, theirs = scorers(ALL_TYPES, True)
    for target, pred in [("ab\ud800cd\nef", "ab cd\r\nef"), ("\ud83d", "x"), ("a\u2028b", "a b")]:
        assert ours.score(target, pred) == theirs.score(target, pred)
