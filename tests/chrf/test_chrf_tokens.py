"""chrF over token IDs and str tokens: word n-grams of the tokens, each token one word.

The oracle is sacreBLEU 2.6.0 on texts whose words stand for the tokens (``w<k>``, the k-th
distinct token): rows, corpus and sentence scores must be equal with ``==``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import examples, strip_version
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

from rapidbleu.errors import InputTypeError, InvalidOptionError
from rapidbleu.metrics import CHRF

TOKEN = st.one_of(
    st.integers(-5, 40),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from(["a", "(hi)", ".", "a b", "", "\u200b", "İ", "x!"]),
)
SEQ = st.lists(TOKEN, max_size=12)


def _as_text(hyps: list[Any], refs: list[list[Any]]) -> tuple[list[str], list[list[str | None]]]:
    """The oracle's input: every distinct token a word ``w<k>``."""
    names: dict[Any, str] = {}

    def text(seq: list[Any]) -> str:
        return " ".join(names.setdefault(t, f"w{len(names)}") for t in seq)

    return [text(h) for h in hyps], [[None if r is None else text(r) for r in s] for s in refs]


@settings(max_examples=examples(200))
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            st.lists(SEQ, min_size=n, max_size=n),
            st.lists(st.lists(SEQ, min_size=n, max_size=n), min_size=1, max_size=3),
        )
    ),
    st.integers(1, 4),
    st.booleans(),
    st.sampled_from([2, 1, 3.0]),
)
def test_tokens_equal_sacrebleu_on_words(
    corpus: Any, word_order: int, eps: bool, beta: Any
) -> None:
    hyps, refs = corpus
    ours = CHRF(char_order=0, word_order=word_order, eps_smoothing=eps, beta=beta)
    theirs = SacreCHRF(char_order=0, word_order=word_order, eps_smoothing=eps, beta=beta)
    th, tr = _as_text(hyps, refs)
    assert ours.statistics(hyps, refs).tolist() == theirs._extract_corpus_statistics(th, tr)
    assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(th, tr).score
    assert strip_version(str(ours.get_signature())) == str(theirs.get_signature())
    want = [theirs.sentence_score(h, [s[i] for s in tr]).score for i, h in enumerate(th)]
    assert ours.sentence_scores(hyps, refs).tolist() == want
    per_seg = [[s[i] for s in refs] for i in range(len(hyps))]
    assert ours.sentence_scores(hyps, per_seg, per_segment=True).tolist() == want
    assert [ours.sentence_score(h, r).score for h, r in zip(hyps, per_seg)] == want


def test_arrays_and_numpy_ids() -> None:
    metric = CHRF(char_order=0, word_order=2)
    hyps = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=np.int32)
    refs = [np.array([[1, 2, 3, 9], [8, 7, 6, 5]])]
    lists = metric.statistics(hyps.tolist(), [refs[0].tolist()])
    assert (metric.statistics(hyps, refs) == lists).all()
    (mat,) = metric.pairwise_matrices([(["a"], ["a"])])
    assert mat.tolist() == [[100.0]]


@pytest.mark.parametrize(
    "kw",
    [{}, {"char_order": 1, "word_order": 2}, {"char_order": 0, "word_order": 2, "lowercase": True}],
)
def test_token_input_needs_word_orders_only(kw: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError, match="token input has no characters"):
        CHRF(**kw).corpus_score([[1, 2]], [[[1, 2]]])


def test_bad_tokens() -> None:
    metric = CHRF(char_order=0, word_order=1)
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] holds a float"):
        metric.corpus_score([[1], [1.5]], [[[1], [2]]])
    with pytest.raises(InputTypeError, match=r"references\[0\]\[0\] is str"):
        metric.corpus_score([[1]], [["a b"]])
