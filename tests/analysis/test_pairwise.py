"""Sentence-BLEU matrices, MBR helpers and self-BLEU against their oracles, with ``==``.

- every matrix entry equals ``sacrebleu.sentence_bleu`` of that pair;
- MBR selection and reference aggregation equal straightforward Python implementations;
- self-BLEU equals the sacreBLEU recipe, ``nltk.sentence_bleu`` and ``fast_bleu.SelfBLEU``.
"""

from __future__ import annotations

import logging
import random
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from conftest import ANY_CHAR, PIECES, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from rapidbleu.analysis import pairwise, selfbleu
from rapidbleu.errors import EmptyInputError, InvalidOptionError, LengthMismatchError

TEXT = st.lists(st.one_of(st.sampled_from(PIECES), st.text(ANY_CHAR, max_size=3)), max_size=8).map(
    " ".join
)
OPTIONS = [
    {},
    {"smooth_method": "floor", "smooth_value": 0.2},
    {"smooth_method": "add-k"},
    {"smooth_method": "none", "effective_order": False},
    {"tokenize": "intl", "lowercase": True},
    {"tokenize": "char", "max_ngram_order": 3},
    {"tokenize": "zh"},
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    logging.getLogger("rapidbleu").setLevel(logging.ERROR)
    warnings.simplefilter("ignore")


def _sentence(h: str, r: str, opts: dict) -> float:
    opts = dict(opts)
    eff = opts.pop("effective_order", True)
    return SacreBLEU(effective_order=eff, **opts).sentence_score(h, [r]).score


@pytest.fixture(scope="module")
def sentences(data_dir: Path) -> list[str]:
    lines = read_lines(data_dir / "wmt17.en-de" / "ref.A.de")
    return random.Random(5).sample(lines, 300)


@pytest.mark.parametrize("opts", OPTIONS, ids=str)
def test_matrix_equals_sentence_bleu_real(opts: dict, sentences: list[str]) -> None:
    hyps, refs = sentences[:25], sentences[25:45]
    m = pairwise.pairwise_bleu(hyps, refs, **opts)
    assert m.shape == (25, 20) and m.dtype == np.float64
    want = [[_sentence(h, r, opts) for r in refs] for h in hyps]
    assert m.tolist() == want


@settings(max_examples=examples(40))
@given(
    hyps=st.lists(TEXT, min_size=1, max_size=6),
    refs=st.lists(TEXT, min_size=1, max_size=6),
    opts=st.sampled_from(OPTIONS),
)
def test_matrix_equals_sentence_bleu_generated(
    hyps: list[str], refs: list[str], opts: dict
) -> None:
    m = pairwise.pairwise_bleu(hyps, refs, **opts)
    assert m.tolist() == [[_sentence(h, r, opts) for r in refs] for h in hyps]


def test_batch_and_threads(sentences: list[str]) -> None:
    groups = [sentences[i : i + 7] for i in range(0, 70, 7)]
    refs = [sentences[100 + i : 100 + i + 5] for i in range(0, 50, 5)]
    mats = pairwise.pairwise_bleu_batch(groups, refs)
    for h, r, m in zip(groups, refs, mats):
        assert m.tolist() == pairwise.pairwise_bleu(h, r, num_threads=1).tolist()
        assert m.tolist() == [[sacrebleu.sentence_bleu(x, [y]).score for y in r] for x in h]
    # Default references: the hypotheses themselves.
    square = pairwise.pairwise_bleu(groups[0])
    assert square.tolist() == pairwise.pairwise_bleu(groups[0], groups[0]).tolist()


def test_mbr_select_equals_python(sentences: list[str]) -> None:
    rng = random.Random(1)
    hyps = [sentences[i : i + 8] for i in range(0, 80, 8)]
    refs = [sentences[150 + i : 150 + i + 6] for i in range(0, 60, 6)]
    weights = [[rng.random() for _ in range(6)] for _ in range(10)]
    for w in (None, weights):
        got = pairwise.mbr_select(hyps, refs, w)
        want = []
        for s, (h, r) in enumerate(zip(hyps, refs)):
            m = np.array([[sacrebleu.sentence_bleu(x, [y]).score for y in r] for x in h])
            exp = m.mean(axis=1) if w is None else np.average(m, axis=1, weights=w[s])
            want.append(int(np.argmax(exp)))
        assert got.tolist() == want


def _aggregate_python(hyp: str, refs: list[str], order: int, tok: str) -> list[int]:
    """The formula of aggregate_mbr_statistics, written out with Counters."""
    t = SacreBLEU(tokenize=tok).tokenizer

    def grams(s: str) -> list[Counter]:
        w = t(s.rstrip()).split()
        return [
            Counter(tuple(w[i : i + n]) for i in range(len(w) - n + 1)) for n in range(1, order + 1)
        ]

    m = len(refs)
    sums = [Counter() for _ in range(order)]
    for r in refs:
        for n, c in enumerate(grams(r)):
            sums[n].update(c)
    hg = grams(hyp)
    hlen = len(t(hyp.rstrip()).split())
    correct = [sum(min(m * c, sums[n][g]) for g, c in hg[n].items()) for n in range(order)]
    total = [m * max(0, hlen - n) for n in range(order)]
    ref_len = sum(len(t(r.rstrip()).split()) for r in refs)
    return [m * hlen, ref_len, *correct, *total]


@pytest.mark.parametrize("tok", ["13a", "char"])
def test_aggregation_equals_python(tok: str, sentences: list[str]) -> None:
    hyps = [sentences[i : i + 6] for i in range(0, 36, 6)]
    refs = [sentences[200 + i : 200 + i + 9] for i in range(0, 54, 9)]
    stats = pairwise.aggregate_mbr_statistics(hyps, refs, tokenize=tok)
    for h, r, s in zip(hyps, refs, stats):
        assert s.tolist() == [_aggregate_python(x, r, 4, tok) for x in h]
    scores = pairwise.aggregate_mbr_scores(hyps, refs, tokenize=tok)
    for s, sc in zip(stats, scores):
        want = []
        for row in s.tolist():
            want.append(
                SacreBLEU.compute_bleu(row[2:6], row[6:10], row[0], row[1], "exp", None, True).score
            )
        assert sc.tolist() == want


@settings(max_examples=examples(30))
@given(hyps=st.lists(TEXT, min_size=1, max_size=4), refs=st.lists(TEXT, min_size=1, max_size=4))
def test_aggregation_generated(hyps: list[str], refs: list[str]) -> None:
    (stats,) = pairwise.aggregate_mbr_statistics([hyps], [refs])
    assert stats.tolist() == [_aggregate_python(h, refs, 4, "13a") for h in hyps]


@pytest.mark.parametrize("opts", OPTIONS[:5], ids=str)
def test_self_bleu_sacrebleu_recipe(opts: dict, sentences: list[str]) -> None:
    samples = sentences[:80] + sentences[:3]  # duplicates too
    got = selfbleu.self_bleu_scores(samples, **opts)
    metric = SacreBLEU(**opts)
    want = [
        metric.corpus_score([s], [[o] for o in samples[:i] + samples[i + 1 :]]).score
        for i, s in enumerate(samples)
    ]
    if not opts:  # the recipe itself
        assert want == [
            sacrebleu.corpus_bleu([s], [[o] for o in samples[:i] + samples[i + 1 :]]).score
            for i, s in enumerate(samples)
        ]
    assert got.tolist() == want
    assert selfbleu.self_bleu(samples, **opts) == sum(want) / len(want)


@settings(max_examples=examples(30))
@given(samples=st.lists(TEXT, min_size=2, max_size=7))
def test_self_bleu_generated(samples: list[str]) -> None:
    got = selfbleu.self_bleu_scores(samples)
    want = [
        sacrebleu.corpus_bleu([s], [[o] for o in samples[:i] + samples[i + 1 :]]).score
        for i, s in enumerate(samples)
    ]
    assert got.tolist() == want


WEIGHTS = [(0.25, 0.25, 0.25, 0.25), (1 / 3, 1 / 3, 1 / 3), (0.5, 0.5), (0.1, 0.2, 0.3, 0.4)]


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("smoothing", ["method0", "method1"])
def test_self_bleu_nltk(weights: tuple, smoothing: str, sentences: list[str]) -> None:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    rng = random.Random(3)
    toks = [s.split()[: rng.randint(0, 14)] for s in sentences[:70]]
    fn = getattr(SmoothingFunction(), smoothing)
    want = [
        sentence_bleu(toks[:i] + toks[i + 1 :], t, weights, smoothing_function=fn)
        for i, t in enumerate(toks)
    ]
    got = selfbleu.self_bleu_scores(toks, "nltk", weights=weights, smoothing=smoothing)
    assert got.tolist() == want
    # Strings are split on whitespace, as NLTK users do with str.split().
    texts = [" ".join(t) for t in toks]
    assert selfbleu.self_bleu_scores(texts, "nltk", weights, smoothing).tolist() == want


def test_self_bleu_nltk_auto_reweigh() -> None:
    from nltk.translate.bleu_score import sentence_bleu

    toks = [["a", "b"], ["a", "b", "c"], ["a"], ["b", "c", "a", "b"], ["c"]]
    want = [
        sentence_bleu(toks[:i] + toks[i + 1 :], t, auto_reweigh=True) for i, t in enumerate(toks)
    ]
    assert selfbleu.self_bleu_scores(toks, "nltk", auto_reweigh=True).tolist() == want


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
@pytest.mark.parametrize("smoothing", [0, 1])
def test_self_bleu_fast_bleu(weights: tuple, smoothing: int, sentences: list[str]) -> None:
    from fast_bleu import SelfBLEU

    rng = random.Random(4)
    toks = [s.split()[: rng.randint(0, 14)] for s in sentences[:120]]
    want = SelfBLEU(toks, {"w": weights}, smoothing_func=smoothing).get_score()["w"]
    got = selfbleu.self_bleu_scores(toks, "fast-bleu-fixed", weights, f"method{smoothing}")
    assert got.tolist() == want


def test_errors() -> None:
    with pytest.raises(InvalidOptionError, match="convention"):
        selfbleu.self_bleu_scores(["a", "b"], "moses")
    with pytest.raises(ValueError, match="at least 2 samples"):
        selfbleu.self_bleu_scores(["a"])
    with pytest.raises(InvalidOptionError, match="smoothing"):
        selfbleu.self_bleu_scores(["a", "b"], "nltk", smoothing="method4")
    with pytest.raises(InvalidOptionError, match="takes weights"):
        selfbleu.self_bleu_scores(["a", "b"], "nltk", tokenize="intl")
    with pytest.raises(TypeError):
        selfbleu.self_bleu_scores([["a"], "b"], "nltk")
    with pytest.raises(TypeError):
        pairwise.pairwise_bleu("abc", ["a"])
    with pytest.raises(TypeError):
        pairwise.pairwise_bleu(["a", 3], ["a"])  # type: ignore[list-item]
    with pytest.raises(LengthMismatchError):
        pairwise.pairwise_bleu_batch([["a"], ["b"]], [["a"]])
    with pytest.raises(EmptyInputError):
        pairwise.aggregate_mbr_statistics([["a"]], [[]])
    with pytest.raises(EmptyInputError):
        pairwise.mbr_select([["a"]], [[]])
    with pytest.raises(LengthMismatchError):
        pairwise.mbr_select([["a", "b"]], [["a", "b"]], [[1.0]])
    assert pairwise.pairwise_bleu([], ["a"]).shape == (0, 1)
