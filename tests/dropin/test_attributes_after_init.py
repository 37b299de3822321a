"""Options set as attributes after construction: the numbers and signatures of the oracle.

sacreBLEU 2.6.0 reads most options from ``self`` at call time, bakes some into objects made in
``__init__`` (BLEU's tokenizer, TER's tokenizer, chrF's ``order``), and rouge-score 0.1.2 reads
``rouge_types`` per call. For every attribute, the same assignment on rapidbleu's object and on
the oracle's gives ``==`` scores and signatures, on real WMT text and generated Unicode text.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
import sacrebleu
from conftest import SUBSET_DATA
from rouge_score import rouge_scorer as real_rouge

import rapidbleu
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.rouge import rouge_scorer as fast_rouge


def _lines(name: str, n: int = 150) -> list[str]:
    return (SUBSET_DATA / name).read_text(encoding="utf-8").splitlines()[:n]


def _generated(n: int, seed: int) -> list[str]:
    """Lines of words from mixed scripts, cases, punctuation and odd whitespace."""
    rng = random.Random(seed)
    alphabet = "abcXYZ äÖß İıΣσς 中文字 ٠١ .,!?()'\"-\u00a0\u3000\u200b\t"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(60)]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(n)]


REAL = (_lines("wmt17.en-de/hyp.FBK.4870.de"), [_lines("wmt17.en-de/ref.A.de")])
GENERATED = (_generated(120, 1), [_generated(120, 2), _generated(120, 3)])
INPUTS = {"real": REAL, "generated": GENERATED}
VERSION = f"2.6.0+rapidbleu.{rapidbleu.__version__}"


def _signature(metric: Any) -> str:
    return str(metric.get_signature()).replace(VERSION, "2.6.0")


# (class, constructor kwargs, [(attribute, value), ...]) as a program would write them.
CASES = [
    ("BLEU", {}, [("lowercase", True)]),
    ("BLEU", {"lowercase": True}, [("lowercase", False)]),
    ("BLEU", {}, [("max_ngram_order", 2)]),
    ("BLEU", {}, [("max_ngram_order", 6)]),
    ("BLEU", {}, [("smooth_method", "floor")]),
    ("BLEU", {}, [("smooth_method", "floor"), ("smooth_value", 0.3)]),
    ("BLEU", {}, [("smooth_method", "add-k"), ("smooth_value", 2)]),
    ("BLEU", {}, [("smooth_method", "none")]),
    ("BLEU", {}, [("effective_order", True)]),
    ("BLEU", {}, [("trg_lang", "zh")]),  # sacreBLEU chose the tokenizer in __init__
    ("BLEU", {}, [("tokenize", "char")]),  # not an attribute sacreBLEU reads
    ("BLEU", {"tokenize": "intl"}, [("lowercase", 1), ("max_ngram_order", 3)]),
    ("CHRF", {}, [("whitespace", True)]),
    ("CHRF", {}, [("lowercase", True)]),
    ("CHRF", {}, [("beta", 1)]),
    ("CHRF", {}, [("beta", 3.0)]),
    ("CHRF", {}, [("eps_smoothing", True)]),
    ("CHRF", {}, [("char_order", 4), ("order", 4)]),
    ("CHRF", {}, [("word_order", 2), ("order", 8)]),
    ("CHRF", {"word_order": 2}, [("word_order", 1), ("order", 7), ("beta", 1)]),
    ("TER", {}, [("normalized", True)]),  # sacreBLEU: the signature only
    ("TER", {}, [("case_sensitive", True)]),
    ("TER", {}, [("no_punct", True), ("asian_support", True)]),
]


def _made(module: Any, name: str, kwargs: dict[str, Any], sets: list[tuple[str, Any]]) -> Any:
    metric = getattr(module, name)(**kwargs)
    for attr, value in sets:
        setattr(metric, attr, value)
    return metric


@pytest.mark.parametrize("data", sorted(INPUTS))
@pytest.mark.parametrize(("name", "kwargs", "sets"), CASES)
def test_an_attribute_set_after_construction_acts_as_in_sacrebleu(
    name: str, kwargs: dict[str, Any], sets: list[tuple[str, Any]], data: str
) -> None:
    hyps, refs = INPUTS[data]
    fast = _made(rapidbleu, name, kwargs, sets)
    real = _made(sacrebleu, name, kwargs, sets)
    assert fast.corpus_score(hyps, refs).score == real.corpus_score(hyps, refs).score
    assert _signature(fast) == _signature(real)
    for i in range(0, len(hyps), 7):
        seg = [r[i] for r in refs]
        assert fast.sentence_score(hyps[i], seg).score == real.sentence_score(hyps[i], seg).score
    assert _signature(fast) == _signature(real)


def test_chrf_order_left_behind_is_refused_not_a_different_number() -> None:
    # sacreBLEU's CHRF keeps `order` from __init__ and fails on rows of the new width.
    fast, real = rapidbleu.CHRF(), sacrebleu.CHRF()
    fast.char_order = real.char_order = 4
    with pytest.raises(ValueError):
        real.corpus_score(*REAL)
    with pytest.raises(InvalidOptionError, match="order"):
        fast.corpus_score(*REAL)
    fast.order = real.order = 4  # consistent again: the same number
    assert fast.corpus_score(*REAL).score == real.corpus_score(*REAL).score


def test_an_unknown_smoothing_set_later_fails_at_the_call_as_in_sacrebleu() -> None:
    fast, real = rapidbleu.BLEU(), sacrebleu.BLEU()
    fast.smooth_method = real.smooth_method = "nope"
    with pytest.raises(AssertionError):
        real.corpus_score(*REAL)
    with pytest.raises(AssertionError) as caught:
        fast.corpus_score(*REAL)
    assert isinstance(caught.value, InvalidOptionError)


@pytest.mark.parametrize("name", ["BLEU", "CHRF"])
def test_cached_references_with_changed_counting_options_are_refused(name: str) -> None:
    fast = getattr(rapidbleu, name)(references=REAL[1])
    fast.lowercase = True
    with pytest.raises(InvalidOptionError, match="cached"):
        fast.corpus_score(REAL[0], None)


def test_smoothing_set_after_caching_references_applies() -> None:
    fast = rapidbleu.BLEU(references=REAL[1])
    real = sacrebleu.BLEU(references=REAL[1])
    fast.smooth_method = real.smooth_method = "floor"
    fast.effective_order = real.effective_order = True
    assert fast.corpus_score(REAL[0], None).score == real.corpus_score(REAL[0], None).score


@pytest.mark.parametrize("types", [["rouge2"], ["rougeL", "rouge1"], ("rougeLsum", "rouge3")])
def test_rouge_types_set_after_construction_score_as_rouge_score(types: Any) -> None:
    hyps, refs = INPUTS["real"][0][:40], INPUTS["real"][1][0][:40]
    fast = fast_rouge.RougeScorer(["rouge1"], use_stemmer=True)
    real = real_rouge.RougeScorer(["rouge1"], use_stemmer=True)
    fast.rouge_types = real.rouge_types = types
    for h, r in zip(hyps, refs):
        assert fast.score(r, h) == real.score(r, h)
        assert fast.score_multi([r, h[:20]], h) == real.score_multi([r, h[:20]], h)


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda m: pickle.loads(pickle.dumps(m))])
def test_bleu_with_cached_references_pickles_and_copies(copier: Any) -> None:
    hyps, refs = REAL
    real = sacrebleu.BLEU(references=refs)
    fast = copier(rapidbleu.BLEU(references=refs))
    assert fast.corpus_score(hyps, None).score == copier(real).corpus_score(hyps, None).score
    assert _signature(fast) == _signature(real)


def test_class_attributes_and_private_statistics_have_sacrebleus_types() -> None:
    assert type(rapidbleu.BLEU.TOKENIZERS) is type(sacrebleu.BLEU.TOKENIZERS)
    assert list(rapidbleu.BLEU.TOKENIZERS) == list(sacrebleu.BLEU.TOKENIZERS)
    hyps, refs = GENERATED
    for name in ("BLEU", "CHRF"):
        fast = getattr(rapidbleu, name)()._extract_corpus_statistics(hyps, refs)
        real = getattr(sacrebleu, name)()._extract_corpus_statistics(hyps, refs)
        assert (type(fast), type(fast[0]), fast) == (type(real), type(real[0]), real)


@pytest.mark.parametrize(
    ("kwargs", "builtin"),
    [({"smooth_method": "foo"}, AssertionError), ({"tokenize": "foo"}, KeyError)],
)
def test_option_errors_are_sacrebleus_exception_types_too(
    kwargs: dict[str, Any], builtin: type[Exception]
) -> None:
    with pytest.raises(builtin):
        sacrebleu.BLEU(**kwargs)
    with pytest.raises(builtin) as caught:
        rapidbleu.BLEU(**kwargs)
    assert isinstance(caught.value, InvalidOptionError)
    assert "foo" in str(caught.value) and not str(caught.value).startswith("'")
