"""evaluate's ``rouge`` (``rapidbleu.evaluate.rouge``) against evaluate's own rouge script.

The oracles are huggingface/evaluate's ``metrics/rouge/rouge.py`` (the copy kept byte for byte
in tests/upstream/evaluate) loaded with the real ``evaluate.load(path)``, offline, and
rouge-score driven as that script drives it. Aggregated results draw from NumPy's global
generator, so both sides are seeded alike, and the generator must be left in the same state
(the same next numbers).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import evaluate
import numpy as np
import pytest
from conftest import DATA, read_lines
from rouge_score import rouge_scorer, scoring

from rapidbleu import errors
from rapidbleu import evaluate as rb_evaluate

SCRIPT = Path(__file__).resolve().parents[1] / "upstream" / "evaluate" / "metrics" / "rouge"


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


def _seeded(compute: Any, **kw: Any) -> tuple[Any, Any]:
    np.random.seed(7)
    out = compute(**kw)
    # The generator's next numbers (its key array may be in either of two equal forms).
    return out, np.random.random(4).tolist()


def oracle(
    predictions: Any,
    references: Any,
    rouge_types: Any = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Any = None,
) -> Any:
    """rouge-score driven as evaluate's script drives it (its ``_compute``, transcribed)."""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    if tokenizer is not None:
        tokenizer = type("Tokenizer", (), {"tokenize": staticmethod(tokenizer)})()
    scorer = rouge_scorer.RougeScorer(rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    scores = [
        scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        for ref, pred in zip(references, predictions)
    ]
    if not use_aggregator:
        return {key: [s[key].fmeasure for s in scores] for key in scores[0]}
    aggregator = scoring.BootstrapAggregator()
    for score in scores:
        aggregator.add_scores(score)
    return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}


def _check(load: Any, **kw: Any) -> None:
    # evaluate's compute runs under a seed taken from the generator when the metric is loaded
    # (and restores the state after), so each side is compared with its kind: rapidbleu's
    # loading script with evaluate's, both loaded and run under the same seed;
    def through_evaluate(path: Any) -> Any:
        return lambda **kw: load(path).compute(**kw)

    theirs = _seeded(through_evaluate(SCRIPT / "rouge.py"), **kw)
    assert _seeded(through_evaluate(rb_evaluate.script_path("rouge")), **kw) == theirs
    # and the functions with rouge-score driven the same way, without evaluate.
    direct = _seeded(oracle, **kw)
    for ours in (rb_evaluate.METRICS["rouge"], rb_evaluate.load("rouge").compute):
        assert _seeded(ours, **kw) == direct
    if not kw.get("use_aggregator", True):
        assert direct[0] == theirs[0]


PREDS = ["hello there general kenobi", "the cat sat\non the mat", "running dogs", ""]
REFS = ["hello there general kenobi", "a cat sat on a mat\nquietly", "dogs run", "x"]
MULTI = [[r, "another reference here"] for r in REFS]


@pytest.mark.parametrize("aggregate", [True, False])
@pytest.mark.parametrize(
    "kw",
    [{}, {"use_stemmer": True}, {"rouge_types": ["rougeLsum", "rouge3", "rougeL"]}],
    ids=["default", "stemmer", "types"],
)
def test_documented_shapes(load: Any, aggregate: bool, kw: dict[str, Any]) -> None:
    _check(load, predictions=PREDS, references=REFS, use_aggregator=aggregate, **kw)
    _check(load, predictions=PREDS, references=MULTI, use_aggregator=aggregate, **kw)


def test_user_tokenizer(load: Any) -> None:
    _check(load, predictions=PREDS, references=MULTI, tokenizer=lambda s: s.split())


def test_real_data(load: Any) -> None:
    d = DATA / "wmt22.zh-en"
    hyps = read_lines(d / "hyp.NiuTrans.en")[:300]
    refs = [list(r) for r in zip(read_lines(d / "ref.A.en"), read_lines(d / "ref.B.en"))][:300]
    _check(load, predictions=hyps, references=refs, use_stemmer=True)
    _check(load, predictions=hyps, references=[r[0] for r in refs], use_aggregator=False)


def test_errors() -> None:
    with pytest.raises(errors.EmptyInputError):
        rb_evaluate.rouge([], [])
    with pytest.raises(errors.InputTypeError):
        rb_evaluate.rouge("a b", ["a b"])
    with pytest.raises(errors.LengthMismatchError):
        rb_evaluate.rouge(["a", "b"], ["a"])
    with pytest.raises(errors.InvalidOptionError):
        rb_evaluate.rouge(["a"], ["a"], rouge_types=["rougeX"])
