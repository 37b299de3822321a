"""rapidbleu.dialects.nltk against nltk 3.10.4 itself, with ==, on generated inputs."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nb

from rapidbleu.dialects import nltk as rb

WEIGHTS: list[Any] = [
    (0.25, 0.25, 0.25, 0.25),
    (0.5, 0.5),
    (1.0,),
    (0.1, 0.3, 0.5, 0.1),
    (0.2, 0.2, 0.2, 0.2, 0.2),
    (1 / 3, 1 / 3, 1 / 3),
    (1, 0, 0, 0),
    [0.25, 0.25, 0.25, 0.25],  # a list, not the default tuple: auto_reweigh ignores it
    [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)],
    [(0.25, 0.25, 0.25, 0.25), (0.2, 0.2, 0.2, 0.2, 0.2, 0.0)],
]
SMOOTHERS = [
    nb.SmoothingFunction(),
    nb.SmoothingFunction(epsilon=0.5, alpha=2, k=3),
    nb.SmoothingFunction(epsilon=1, alpha=0.5, k=0.7),
]


def _token_pool(draw: Any) -> list[Any]:
    if draw(st.booleans()):
        return list(range(draw(st.integers(1, 8))))
    # Full Unicode (NLTK keys tokens by str equality). Lone surrogates are not text:
    # rapidbleu refuses them (test_surrogates_are_refused), NLTK scores them.
    text = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=3)
    alphabet = draw(st.lists(text, min_size=1, max_size=8, unique=True))
    return alphabet


@st.composite
def corpora(draw: Any) -> tuple[list[Any], list[Any]]:
    pool = _token_pool(draw)
    tok = st.sampled_from(pool)
    seq = st.lists(tok, max_size=draw(st.sampled_from([6, 20, 60])))
    n = draw(st.integers(1, 4))
    hyps = [draw(seq) for _ in range(n)]
    refs = [draw(st.lists(seq, min_size=1, max_size=5)) for _ in range(n)]
    return hyps, refs


def outcome(f: Any, *args: Any) -> Any:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            value = f(*args)
        except Exception as e:  # NLTK's own errors (method6's assert, IndexError) must match
            value = type(e).__name__
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return value, [str(x.message) for x in w]


def methods(sf: Any, module: Any) -> list[Any]:
    mine = module.SmoothingFunction(sf.epsilon, sf.alpha, sf.k)
    return [None, *[getattr(mine, f"method{i}") for i in range(8)]]


CASES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CASES
@given(
    corpora(),
    st.sampled_from(WEIGHTS),
    st.integers(0, 8),
    st.sampled_from(range(len(SMOOTHERS))),
    st.booleans(),
)
def test_corpus_and_sentence_bleu_equal_nltk(
    corpus: Any, weights: Any, m: int, s: int, auto_reweigh: bool
) -> None:
    hyps, refs = corpus
    f_nltk = methods(SMOOTHERS[s], nb)[m]
    f_rb = methods(SMOOTHERS[s], rb)[m]
    expected = outcome(nb.corpus_bleu, refs, hyps, weights, f_nltk, auto_reweigh)
    assert outcome(rb.corpus_bleu, refs, hyps, weights, f_rb, auto_reweigh) == expected
    for r, h in zip(refs, hyps):
        expected = outcome(nb.sentence_bleu, r, h, weights, f_nltk, auto_reweigh)
        assert outcome(rb.sentence_bleu, r, h, weights, f_rb, auto_reweigh) == expected


@CASES
@given(corpora(), st.sampled_from(WEIGHTS), st.integers(0, 8), st.booleans())
def test_batch_equals_nltk_sentence_bleu(
    corpus: Any, weights: Any, m: int, auto_reweigh: bool
) -> None:
    hyps, refs = corpus
    f_nltk, f_rb = methods(SMOOTHERS[0], nb)[m], methods(SMOOTHERS[0], rb)[m]
    expected = []
    for r, h in zip(refs, hyps):
        value, _ = outcome(nb.sentence_bleu, r, h, weights, f_nltk, auto_reweigh)
        expected.append(value)
    got, _ = outcome(rb.sentence_bleu_batch, refs, hyps, weights, f_rb, auto_reweigh)
    if any(isinstance(v, str) for v in expected):
        assert isinstance(got, str)  # the same NLTK error (method6's assert, IndexError)
    else:
        assert got == [float(v) if not isinstance(v, list) else v for v in expected]


def test_nltk_smoothing_objects_are_accepted() -> None:
    # NLTK's own SmoothingFunction methods work with rapidbleu's corpus_bleu too.
    hyp = "the cat sat on the mat".split()
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    for i in range(8):
        f = getattr(nb.SmoothingFunction(), f"method{i}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert rb.corpus_bleu([refs], [hyp], smoothing_function=f) == nb.corpus_bleu(
                [refs], [hyp], smoothing_function=f
            )


NLTK_DOC = {
    "hyp1": "It is a guide to action which ensures that the military always obeys the "
    "commands of the party".split(),
    "hyp2": "It is to insure the troops forever hearing the activity guidebook that party "
    "direct".split(),
    "ref1": "It is a guide to action that ensures that the military will forever heed Party "
    "commands".split(),
    "ref2": "It is the guiding principle which guarantees the military forces always being "
    "under the command of the Party".split(),
    "ref3": "It is the practical guide for the army always to heed the directions of the "
    "party".split(),
}


@pytest.mark.parametrize("m", range(8))
def test_nltk_docstring_examples(m: int) -> None:
    d = NLTK_DOC
    refs = [d["ref1"], d["ref2"], d["ref3"]]
    for hyp in (d["hyp1"], d["hyp2"]):
        for weights in ((0.25,) * 4, [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4], (0.2,) * 5):
            a = outcome(nb.sentence_bleu, refs, hyp, weights, methods(SMOOTHERS[0], nb)[m + 1])
            b = outcome(rb.sentence_bleu, refs, hyp, weights, methods(SMOOTHERS[0], rb)[m + 1])
            assert a == b
    # corpus_bleu's docstring: 0.5920...
    assert round(rb.corpus_bleu([refs, [d["ref1"]]], [d["hyp1"], d["ref1"]]), 4) == round(
        nb.corpus_bleu([refs, [d["ref1"]]], [d["hyp1"], d["ref1"]]), 4
    )


def test_quirks() -> None:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        # method0's tiny non-zero result, with NLTK's warning.
        assert rb.sentence_bleu([[1, 2, 3, 5]], [1, 2, 3, 4]) == 8.636168555094496e-78
    assert "0 counts of 4-gram overlaps" in str(w[0].message)
    # No unigram match: the int 0, as NLTK.
    assert rb.sentence_bleu([[1]], [2]) == 0 and type(rb.sentence_bleu([[1]], [2])) is int
    # A str hypothesis is a sequence of characters (NLTK iterates it).
    assert rb.sentence_bleu(["abcd"], "abcd") == nb.sentence_bleu(["abcd"], "abcd") == 1.0
    with warnings.catch_warnings():
        # auto_reweigh fires for the default tuple only.
        assert rb.sentence_bleu([[1, 2]], [1, 2], auto_reweigh=True) == 1.0
        warnings.simplefilter("ignore")
        assert rb.sentence_bleu([[1, 2]], [1, 2], [0.25] * 4, auto_reweigh=True) == (
            nb.sentence_bleu([[1, 2]], [1, 2], [0.25] * 4, auto_reweigh=True)
        )


def test_corpus_score_result() -> None:
    refs = [[NLTK_DOC["ref1"], NLTK_DOC["ref2"]]]
    hyp = [NLTK_DOC["hyp1"]]
    sf = rb.SmoothingFunction()
    r = rb.corpus_score(refs, hyp, smoothing_function=sf.method1)
    assert r.score == nb.corpus_bleu(refs, hyp, smoothing_function=nb.SmoothingFunction().method1)
    assert r.signature.startswith("BLEU|dialect:nltk|weights:0.25,0.25,0.25,0.25|smooth:method1")
    assert r.hyp_len == 18 and len(r.precisions) == 4 and r.scale == "unit"


@pytest.mark.parametrize("m", range(8))
def test_batch_with_padding_and_nltk_smoothers(m: int) -> None:
    # NLTK's own SmoothingFunction objects, a padded 2-D batch, and methods 5-7 (the Python
    # path, which must see the unpadded sequences) all give nltk's per-sentence numbers.
    hyps = [[1, 2, 3, 4, 5, 1, 2], [1, 2, 3], [4, 4, 4, 4, 4], [1, 2, 3, 4]]
    refs = [[[1, 2, 3, 4, 5, 6], [2, 3]], [[1, 2, 3, 4]], [[4, 4, 4]], [[1, 2, 3, 4]]]
    batch = np.zeros((4, 9), dtype=np.int32)
    for i, h in enumerate(hyps):
        batch[i, : len(h)] = h
    sf = getattr(nb.SmoothingFunction(epsilon=0.3, k=2), f"method{m}")
    want, _ = outcome(
        lambda: [float(nb.sentence_bleu(r, h, smoothing_function=sf)) for r, h in zip(refs, hyps)]
    )
    for kw in ({"pad_id": 0}, {"lengths": [len(h) for h in hyps]}):
        got, _ = outcome(
            lambda kw=kw: rb.sentence_bleu_batch(refs, batch, smoothing_function=sf, **kw)
        )
        assert got == want


def test_batch_reads_str_hypotheses_and_references_as_characters() -> None:
    # NLTK iterates a str: its n-grams are of characters (read in Rust, `str_as_chars`).
    hyps = ["the cat", "a\u00e9b", ["t", "he"]]
    refs = [["the cat sat", "cat"], ["ab"], [["t", "he"], "the"]]
    sf = nb.SmoothingFunction().method1
    want = [nb.sentence_bleu(r, h, smoothing_function=sf) for r, h in zip(refs, hyps)]
    got = rb.sentence_bleu_batch(refs, hyps, smoothing_function=rb.SmoothingFunction().method1)
    assert got.tolist() == want


def test_surrogates_are_refused() -> None:
    """The one deliberate difference from NLTK on tokens: a lone surrogate is not text, in a
    token or in a str read as characters, as it is not in text given to BLEU (one rule)."""
    from rapidbleu import errors

    for refs, hyp in (([["a", "\ud800"]], ["a", "\ud800"]), (["a\udfff"], "a\udfff")):
        assert nb.sentence_bleu(refs, hyp) >= 0  # NLTK scores them
        with pytest.raises(errors.InvalidTextError, match="surrogate"):
            rb.sentence_bleu(refs, hyp)
        with pytest.raises(errors.InvalidTextError, match="surrogate"):
            rb.sentence_bleu_batch([refs], [hyp])


@st.composite
def str_corpora(draw: Any) -> tuple[list[str], list[list[str]]]:
    # Small full-Unicode alphabets (lone surrogates apart: not text), so that n-grams of
    # characters match; every hypothesis and reference a str, which NLTK reads as its
    # characters.
    alphabet = draw(
        st.lists(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6, unique=True)
    )
    line = st.text(st.sampled_from(alphabet), max_size=draw(st.sampled_from([6, 30])))
    n = draw(st.integers(1, 5))
    hyps = [draw(line) for _ in range(n)]
    refs = [draw(st.lists(line, min_size=1, max_size=3)) for _ in range(n)]
    return hyps, refs


@settings(max_examples=150, deadline=None)
@given(str_corpora(), st.sampled_from([0, 1, 2, 3, 4]))
def test_batch_of_str_sequences_equals_nltk(corpus: Any, method: int) -> None:
    hyps, refs = corpus
    f_nb = getattr(nb.SmoothingFunction(), f"method{method}")
    f_rb = getattr(rb.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [float(nb.sentence_bleu(r, h, smoothing_function=f_nb)) for r, h in zip(refs, hyps)]
        got = rb.sentence_bleu_batch(refs, hyps, smoothing_function=f_rb)
    assert got.tolist() == want
