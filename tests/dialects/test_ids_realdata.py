"""Token input and the dialects on real MT data (../shared/data), against their oracles.

The WMT22 en-de systems are tokenised with sacreBLEU's ``13a`` and split on whitespace, as
sacreBLEU's ``extract_all_word_ngrams`` does; the tokens are also mapped to integer IDs (one
vocabulary over all files). Then, with ``==``:

1. sacreBLEU 2.6.0 on the raw text (``tokenize="13a"``) equals rapidbleu's sacreBLEU dialect
   on the tokens and on the IDs (lists and a padded 2-D array), corpus and per sentence;
2. nltk 3.10.4's ``corpus_bleu`` equals ``rapidbleu.dialects.nltk.corpus_bleu`` on tokens and
   IDs for every smoothing method, and NLTK's ``sentence_bleu`` equals
   ``sentence_bleu_batch`` on the first lines;
3. the HF ``evaluate`` dialect equals the plain TF-NMT transcription of ``test_hf_evaluate``
   and the sacRebleu (R) dialect is within 1e-12 relative of the exact oracle of
   ``test_sacrebleu_r`` (the R package computes in long double).

Skipped with a clear message when the data folder is absent.
"""

from __future__ import annotations

import warnings
from functools import cache
from typing import Any

import numpy as np
import pytest
from conftest import DATA, read_lines

import rapidbleu
from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.dialects import sacrebleu_r as R
from rapidbleu.evaluate import nmt_bleu as H
from rapidbleu.metrics import BLEU
from rapidbleu.metrics.bleu.tokens import token_statistics

sacrebleu = pytest.importorskip("sacrebleu")
nb = pytest.importorskip("nltk.translate.bleu_score")
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402

PAIR = DATA / "wmt22.en-de"
SYSTEMS = ("Online-B", "PROMT")
pytestmark = pytest.mark.skipif(not PAIR.is_dir(), reason=f"{PAIR} not found")


@cache
def _text(name: str) -> tuple[str, ...]:
    return tuple(read_lines(PAIR / name))


@cache
def _tokens(name: str) -> tuple[tuple[str, ...], ...]:
    tok = Tokenizer13a()
    return tuple(tuple(tok(line.rstrip()).split()) for line in _text(name))


@cache
def _vocab() -> dict[str, int]:
    vocab: dict[str, int] = {}
    for name in ("ref.A.de", "ref.B.de", *(f"hyp.{s}.de" for s in SYSTEMS)):
        for seq in _tokens(name):
            for t in seq:
                vocab.setdefault(t, len(vocab))
    return vocab


def _ids(name: str) -> list[list[int]]:
    v = _vocab()
    return [[v[t] for t in seq] for seq in _tokens(name)]


def _corpus(system: str, form: str) -> tuple[Any, Any]:
    """(hypotheses, references per segment) as text, tokens or IDs."""
    names = (f"hyp.{system}.de", "ref.A.de", "ref.B.de")
    if form == "text":
        hyp, ra, rb = (list(_text(n)) for n in names)
    elif form == "tokens":
        hyp, ra, rb = ([list(s) for s in _tokens(n)] for n in names)
    else:
        hyp, ra, rb = (_ids(n) for n in names)
    return hyp, [[a, b] for a, b in zip(ra, rb)]


@pytest.mark.parametrize("system", SYSTEMS)
def test_sacrebleu_dialect_on_tokens_and_ids(system: str) -> None:
    text, text_refs = _corpus(system, "text")
    want = sacrebleu.corpus_bleu(text, [list(r) for r in zip(*text_refs)], tokenize="13a")
    for form in ("tokens", "ids"):
        hyps, refs = _corpus(system, form)
        got = rapidbleu.corpus_bleu(hyps, [list(r) for r in zip(*refs)])
        assert (got.score, got.counts, got.totals, got.sys_len, got.ref_len) == (
            want.score,
            want.counts,
            want.totals,
            want.sys_len,
            want.ref_len,
        ), form
    # A padded 2-D int32 batch of the first 300 hypotheses, sentence by sentence.
    hyps, refs = _corpus(system, "ids")
    hyps, refs = hyps[:300], refs[:300]
    width = max(map(len, hyps)) + 1
    batch = np.full((len(hyps), width), -1, dtype=np.int32)
    for i, h in enumerate(hyps):
        batch[i, : len(h)] = h
    metric = BLEU(effective_order=True)
    oracle = sacrebleu.metrics.BLEU(effective_order=True, tokenize="13a")
    want_s = [oracle.sentence_score(h, r).score for h, r in zip(text[:300], text_refs[:300])]
    got_s = [metric.sentence_score(h, r).score for h, r in zip(hyps, refs)]
    assert got_s == want_s
    rows, _ = token_statistics(batch, refs, pad_id=-1, per_segment=True)
    rows_list, _ = token_statistics(hyps, refs, per_segment=True)
    assert (rows == rows_list).all()


SMOOTHERS = [None] + [getattr(nb.SmoothingFunction(), f"method{m}") for m in range(8)]


@pytest.mark.parametrize("m", range(len(SMOOTHERS)))
def test_nltk_corpus_bleu(m: int) -> None:
    smoothing = SMOOTHERS[m]
    for form in ("tokens", "ids"):
        hyps, refs = _corpus(SYSTEMS[0], form)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = nb.corpus_bleu(refs, hyps, smoothing_function=smoothing)
            got = rb_nltk.corpus_bleu(refs, hyps, smoothing_function=smoothing)
        assert got == want, (form, got, want)


def test_nltk_sentence_bleu_batch() -> None:
    hyps, refs = _corpus(SYSTEMS[1], "ids")
    hyps, refs = hyps[:400], refs[:400]
    weights = [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5)]
    for m in (0, 1, 2, 3, 4, 7):
        smoothing = getattr(nb.SmoothingFunction(), f"method{m}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = [nb.sentence_bleu(r, h, weights, smoothing) for h, r in zip(hyps, refs)]
            got = rb_nltk.sentence_bleu_batch(refs, hyps, weights, smoothing)
        assert got.tolist() == want, m


def test_hf_evaluate_and_sacrebleu_r_dialects() -> None:
    from test_hf_evaluate import plain_compute_bleu
    from test_sacrebleu_r import close, oracle

    hyps, refs = _corpus(SYSTEMS[0], "ids")
    for smooth in (False, True):
        got = H.compute_bleu(refs, hyps, 4, smooth)
        assert tuple(got) == plain_compute_bleu(refs, hyps, 4, smooth)
    hyps, refs = hyps[:500], refs[:500]
    for smoothing in (None, "floor", "add-k"):
        got_r = R.bleu_corpus_ids(refs, hyps, smoothing=smoothing)
        want_r = oracle(refs, hyps, smoothing=smoothing)
        assert close(got_r, want_r), (smoothing, got_r, want_r)
