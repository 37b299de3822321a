"""evaluate's ``rouge`` reaching ROUGE's dialects (:mod:`rapidbleu.evaluate.rouge_dialects`).

The oracles are the packages driven as evaluate's ``rouge`` script drives rouge-score (its
``_compute``, transcribed): XL-Sum's ``multilingual_rouge.rouge_scorer.RougeScorer`` and its
``scoring.BootstrapAggregator`` (both sides seeded alike, and NumPy's generator left in the same
state); the ``rouge`` package's and rouge-chinese's ``Rouge(metrics=...).get_scores`` (``avg=True``
aggregated, else per item), each type's ``f`` under evaluate's key. Items: make_golden.py's
generated text in many scripts and real WMT lines; compared with ``==`` (and ``repr``), through
the functions, ``rapidbleu.evaluate.load`` and rapidbleu's loading script in the real
``evaluate.load(path)``.
"""

from __future__ import annotations

import os
import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import evaluate
import numpy as np
import pytest
import rouge
import rouge_chinese
from multilingual_rouge import rouge_scorer as mrs
from multilingual_rouge import scoring as mscoring

from rapidbleu import errors
from rapidbleu import evaluate as rb_evaluate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_golden

ITEMS = make_golden.items(random.Random(39))
PLTRDY = {"rouge1": "rouge-1", "rouge2": "rouge-2", "rouge3": "rouge-3", "rougeL": "rouge-l"}


@pytest.fixture(scope="module")
def load(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``evaluate.load(path)``, offline, with a private cache."""
    cache = tmp_path_factory.mktemp("hf")
    keys = ("HF_EVALUATE_OFFLINE", "HF_HOME", "HF_MODULES_CACHE")
    old = {k: os.environ.get(k) for k in keys}
    os.environ.update(
        HF_EVALUATE_OFFLINE="1", HF_HOME=str(cache), HF_MODULES_CACHE=str(cache / "modules")
    )
    yield lambda path: evaluate.load(str(path))
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def xlsum_oracle(
    predictions: Any,
    references: Any,
    rouge_types: Any = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    lang: Any = None,
    dialect: str = "xlsum",
) -> Any:
    """evaluate's rouge ``_compute`` with XL-Sum's scorer and aggregator in rouge-score's place."""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = mrs.RougeScorer(rouge_types, lang=lang, use_stemmer=use_stemmer)
    scores = [scorer.score(ref, pred) for ref, pred in zip(references, predictions)]
    if not use_aggregator:
        return {key: [s[key].fmeasure for s in scores] for key in scores[0]}
    aggregator = mscoring.BootstrapAggregator()
    for score in scores:
        aggregator.add_scores(score)
    return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}


def pltrdy_oracle(
    predictions: Any,
    references: Any,
    rouge_types: Any = None,
    use_aggregator: bool = True,
    dialect: str = "pltrdy",
) -> Any:
    """The package's ``get_scores``, each type's ``f`` under evaluate's key."""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL"]
    package = rouge_chinese if dialect == "chinese" else rouge
    scorer = package.Rouge(metrics=[PLTRDY[t] for t in rouge_types], stats=["f"])
    if use_aggregator:
        mean = scorer.get_scores(predictions, references, avg=True)
        return {t: mean[PLTRDY[t]]["f"] for t in rouge_types}
    items = scorer.get_scores(predictions, references)
    return {t: [item[PLTRDY[t]]["f"] for item in items] for t in rouge_types}


def seeded(compute: Any, seed: int = 7, **kw: Any) -> tuple[str, list[float]]:
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = compute(**kw)
    return repr(out), np.random.random(4).tolist()


def check(load: Any, oracle: Any, **kw: Any) -> None:
    want = seeded(oracle, **kw)
    assert seeded(rb_evaluate.rouge, **kw) == want
    assert seeded(rb_evaluate.load("rouge").compute, **kw) == want
    script = load(rb_evaluate.script_path("rouge"))
    # evaluate.Metric.compute runs under np.random.seed(its own seed), then restores the state.
    assert seeded(script.compute, **kw)[0] == seeded(oracle, seed=script.seed, **kw)[0]


def pairs(n: int, seed: int, chinese: bool = False) -> tuple[list[str], list[str]]:
    items = make_golden.chinese_items(ITEMS)[len(ITEMS) :] if chinese else ITEMS
    picked = random.Random(seed).sample(items, min(n, len(items)))
    picked += [it for it in ITEMS if "zh-en" in it[0] or "en-de" in it[0]][:10]
    return [hyp for _, _, hyp, _ in picked], [ref for _, _, _, ref in picked]


@pytest.mark.parametrize("aggregate", [True, False])
@pytest.mark.parametrize(
    ("lang", "stem", "types"),
    [
        (None, False, None),
        (None, True, ["rougeLsum", "rouge3", "rougeL"]),
        ("chinese", False, None),
        ("burmese", False, ["rouge1", "rougeL"]),
        ("hindi", True, None),
    ],
)
def test_xlsum_through_evaluate(
    load: Any, aggregate: bool, lang: Any, stem: bool, types: Any
) -> None:
    preds, refs = pairs(30, 1)
    kw: dict[str, Any] = dict(predictions=preds, references=refs, use_aggregator=aggregate)
    kw.update(use_stemmer=stem, rouge_types=types, dialect="xlsum")
    check(load, xlsum_oracle, lang=lang, **kw)
    if lang is not None and not aggregate:  # lang= alone selects XL-Sum's dialect
        del kw["dialect"]
        assert rb_evaluate.rouge(lang=lang, **kw) == xlsum_oracle(lang=lang, **kw)


def _pltrdy_safe(preds: list[str], refs: list[str], chinese: bool) -> tuple[list[str], list[str]]:
    """The pairs the package scores without raising (no empty text, no deep recursion)."""
    package = rouge_chinese if chinese else rouge
    keep = []
    for p, r in zip(preds, refs):
        try:
            package.Rouge().get_scores(p, r)
        except (ValueError, RecursionError):
            continue
        keep.append((p, r))
    return [p for p, _ in keep], [r for _, r in keep]


@pytest.mark.parametrize("aggregate", [True, False])
@pytest.mark.parametrize("types", [None, ["rougeL", "rouge3", "rouge1"]])
@pytest.mark.parametrize("dialect", ["pltrdy", "chinese"])
def test_pltrdy_through_evaluate(load: Any, aggregate: bool, types: Any, dialect: str) -> None:
    preds, refs = _pltrdy_safe(*pairs(60, 2, dialect == "chinese"), dialect == "chinese")
    assert len(preds) > 40
    kw = dict(predictions=preds, references=refs, use_aggregator=aggregate, rouge_types=types)
    check(load, pltrdy_oracle, dialect=dialect, **kw)


def test_pltrdy_errors_are_the_packages() -> None:
    with pytest.raises(ValueError, match=r"Hypothesis is empty\.") as theirs:
        rouge.Rouge().get_scores(["a", ""], ["a", "b"], avg=True)
    with pytest.raises(ValueError) as ours:
        rb_evaluate.rouge(["a", ""], ["a", "b"], dialect="pltrdy")
    assert str(ours.value) == str(theirs.value)


def test_unicode_tokenizer() -> None:
    from rapidbleu.metrics.rouge import ROUGE

    preds, refs = pairs(40, 3)
    got = rb_evaluate.rouge(preds, refs, tokenizer="unicode", use_aggregator=False)
    assert got == ROUGE(tokenizer="unicode").fmeasure_lists(
        preds, [[r] for r in refs], per_segment=True
    )
    assert rb_evaluate.rouge(["สวัสดีครับ"], ["สวัสดีครับ"], tokenizer="unicode")["rouge1"] == 1.0


def test_bad_options() -> None:
    with pytest.raises(errors.InvalidOptionError, match="unknown dialect"):
        rb_evaluate.rouge(["a"], ["a"], dialect="perl")
    with pytest.raises(errors.InvalidOptionError, match="rougeLsum"):
        rb_evaluate.rouge(["a"], ["a"], dialect="pltrdy", rouge_types=["rougeLsum"])
    with pytest.raises(errors.InvalidOptionError, match="use_stemmer"):
        rb_evaluate.rouge(["a"], ["a"], dialect="chinese", use_stemmer=True)
    with pytest.raises(errors.InvalidOptionError, match="tokenizer"):
        rb_evaluate.rouge(["a"], ["a"], dialect="xlsum", tokenizer=str.split)
    with pytest.raises(errors.InputError, match="one reference"):
        rb_evaluate.rouge(["a"], [["a", "b"]], lang="thai")
    with pytest.raises(errors.LengthMismatchError):
        rb_evaluate.rouge(["a", "b"], ["a"], dialect="xlsum")
