"""rapidbleu.evaluate.nmt_bleu against evaluate's documented examples and a plain Python
transcription of TensorFlow NMT's compute_bleu (evaluate fetches its code from the network
when loaded, so it cannot run here)."""

from __future__ import annotations

import collections
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu import errors
from rapidbleu.evaluate import nmt_bleu as H


def plain_compute_bleu(
    reference_corpus: Any, translation_corpus: Any, max_order: int = 4, smooth: bool = False
) -> tuple[Any, ...]:
    """The formula, written out with Counters (an independent implementation)."""

    def get_ngrams(segment: Any, order: int) -> collections.Counter[tuple[Any, ...]]:
        counts: collections.Counter[tuple[Any, ...]] = collections.Counter()
        for n in range(1, order + 1):
            for i in range(0, len(segment) - n + 1):
                counts[tuple(segment[i : i + n])] += 1
        return counts

    matches = [0] * max_order
    possible = [0] * max_order
    ref_len = trans_len = 0
    for references, translation in zip(reference_corpus, translation_corpus):
        ref_len += min(len(r) for r in references)
        trans_len += len(translation)
        merged: collections.Counter[tuple[Any, ...]] = collections.Counter()
        for reference in references:
            merged |= get_ngrams(reference, max_order)
        overlap = get_ngrams(translation, max_order) & merged
        for ngram, count in overlap.items():
            matches[len(ngram) - 1] += count
        for order in range(1, max_order + 1):
            if len(translation) - order + 1 > 0:
                possible[order - 1] += len(translation) - order + 1
    precisions = [0.0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
    geo_mean = (
        math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
        if min(precisions) > 0
        else 0
    )
    if ref_len == 0 or trans_len == 0:
        ratio, bp = 0.0, 0.0
    else:
        ratio = float(trans_len) / ref_len
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return (geo_mean * bp, precisions, bp, ratio, trans_len, ref_len)


def test_documented_examples() -> None:
    # evaluate's bleu metric card and docstring.
    preds = ["hello there general kenobi", "foo bar foobar"]
    refs = [["hello there general kenobi", "hello there !"], ["foo bar foobar"]]
    assert H.compute(predictions=preds, references=refs) == {
        "bleu": 1.0,
        "precisions": [1.0, 1.0, 1.0, 1.0],
        "brevity_penalty": 1.0,
        "length_ratio": 1.1666666666666667,
        "translation_length": 7,
        "reference_length": 6,
    }
    refs1 = [["hello there general kenobi"], ["foo bar foobar"]]
    assert H.compute(predictions=preds, references=refs1) == {
        "bleu": 1.0,
        "precisions": [1.0, 1.0, 1.0, 1.0],
        "brevity_penalty": 1.0,
        "length_ratio": 1.0,
        "translation_length": 7,
        "reference_length": 7,
    }
    # The docstring's "hello there!" tokenises with 13a to "hello there !".
    refs2 = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]]
    assert H.compute(predictions=preds, references=refs2)["reference_length"] == 6
    # A callable tokenizer, as word_tokenize in the card.
    out = H.compute(predictions=preds, references=refs, tokenizer=str.split)
    assert out["length_ratio"] == 1.1666666666666667
    # One reference per prediction given as a plain str.
    assert H.compute(["a b c d"], ["a b c d"])["bleu"] == 1.0


tokens = st.lists(st.sampled_from(["a", "b", "c", "ü", "日"]), max_size=20)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(tokens, st.lists(tokens, min_size=1, max_size=4)), min_size=1, max_size=5),
    st.integers(1, 5),
    st.booleans(),
    st.booleans(),
)
def test_equals_plain_formula(data: Any, max_order: int, smooth: bool, as_ids: bool) -> None:
    trans = [t for t, _ in data]
    refs = [r for _, r in data]
    if as_ids:
        code = {"a": 1, "b": 2, "c": 3, "ü": 4, "日": 5}
        trans = [[code[x] for x in t] for t in trans]
        refs = [[[code[x] for x in r] for r in rs] for rs in refs]
    want = plain_compute_bleu(refs, trans, max_order, smooth)
    assert H.compute_bleu(refs, trans, max_order, smooth) == want
    result = H.corpus_score(trans, refs, max_order=max_order, smooth=smooth)
    assert (result.score, list(result.precisions), result.brevity_penalty) == want[:3]
    assert (result.hyp_len, result.ref_len) == want[4:]
    # Text through evaluate's default 13a equals tokens joined by spaces (none of these
    # characters is split by 13a).
    if not as_ids:
        text = H.compute(
            [" ".join(t) for t in trans],
            [[" ".join(r) for r in rs] for rs in refs],
            max_order=max_order,
            smooth=smooth,
        )
        assert (text["bleu"], text["precisions"]) == want[:2]


def test_errors_and_signature() -> None:
    with pytest.raises(errors.InvalidOptionError):
        H.compute(["a"], ["a"], max_order=0)
    with pytest.raises(errors.InputTypeError):
        H.compute([1], ["a"])
    r = H.corpus_score(["a b"], [["a b"]], max_order=2, smooth=True)
    assert r.signature == "BLEU|dialect:hf-evaluate|max_order:2|smooth:yes|tok:13a|ref:shortest"
