"""``ROUGE(..., tokenizer="unicode")``, rapidbleu's own tokenizer, against its Python reference.

The reference (make_golden.py's ``UnicodeTokenizer``, written from the definition with
``unicodedata``) runs inside rouge-score 0.1.2's own ``RougeScorer``; rapidbleu's tokenizer runs
in the core. Compared with ``==``: tokens, ``score``, ``score_multi`` and the batched
``score_arrays``, with and without the stemmer, on make_golden.py's items and on hypothesis's
full-Unicode text; and identical text in any script scores 1.0.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.rouge import ROUGE

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_golden

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
ITEMS = make_golden.items(random.Random(39))
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


def pair(stem: bool) -> tuple[ROUGE, rouge_scorer.RougeScorer]:
    return (
        ROUGE(TYPES, use_stemmer=stem, tokenizer="unicode"),
        rouge_scorer.RougeScorer(TYPES, tokenizer=make_golden.UnicodeTokenizer(stem)),
    )


@pytest.mark.parametrize("stem", [False, True])
def test_items(stem: bool) -> None:
    ours, theirs = pair(stem)
    for _, _, hyp, ref in ITEMS:
        assert ours.tokenize(hyp) == make_golden.UnicodeTokenizer(stem).tokenize(hyp)
        assert ours.score(ref, hyp) == theirs.score(ref, hyp)
        assert ours.score_multi([ref, hyp[::-1]], hyp) == theirs.score_multi([ref, hyp[::-1]], hyp)
    hyps = [h for _, _, h, _ in ITEMS]
    refs = [r for _, _, _, r in ITEMS]
    arrays = ours.score_arrays(hyps, [refs])
    for t in TYPES:
        want = np.array([list(theirs.score(r, h)[t]) for h, r in zip(hyps, refs)])
        assert (arrays[t] == want).all()


@settings(max_examples=examples(200), deadline=None)
@given(hyp=TEXT, ref=TEXT, stem=st.booleans())
def test_full_unicode(hyp: str, ref: str, stem: bool) -> None:
    ours, theirs = pair(stem)
    assert ours.tokenize(hyp) == make_golden.UnicodeTokenizer(stem).tokenize(hyp)
    assert ours.score(ref, hyp) == theirs.score(ref, hyp)


@settings(max_examples=examples(200), deadline=None)
@given(text=TEXT)
def test_identical_text_scores_one(text: str) -> None:
    # rouge2 is 0.0 on a text of one token (no bigram), in any tokenizer.
    ours = ROUGE(["rouge1", "rougeL", "rougeLsum"], tokenizer="unicode")
    scores = ours.score(text, text)
    expected = 1.0 if ours.tokenize(text) else 0.0
    assert all(s.fmeasure == expected for s in scores.values())


def test_options() -> None:
    rouge = ROUGE(["rouge1"], tokenizer="unicode")
    rouge.corpus_score(["a"], [["a"]])
    assert "tok:unicode" in str(rouge.get_signature())
    with pytest.raises(InvalidOptionError):
        ROUGE(["rouge1"], tokenizer="unicode", split_summaries=True)
    with pytest.raises(InvalidOptionError):
        ROUGE(["rouge1"], tokenizer="words")
    for text in ["नमस्ते दुनिया", "สวัสดีครับ", "我爱北京天安门", "مرحبا بالعالم", "Привет, мир"]:
        assert ROUGE(["rouge1"], tokenizer="unicode").score(text, text)["rouge1"].fmeasure == 1.0
        assert ROUGE(["rouge1"]).score(text, text)["rouge1"].fmeasure == 0.0
