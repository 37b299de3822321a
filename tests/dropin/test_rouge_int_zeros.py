"""rouge-score's int zeros: rougeL and rougeLsum of a side without tokens are ``0``, not ``0.0``.

Compared with ``type`` and ``json.dumps`` as well as ``==`` (``0 == 0.0`` would hide it), through
``RougeScorer.score``/``score_multi`` and evaluate's per-item lists.
"""

from __future__ import annotations

import json

import pytest
from conftest import SUBSET_DATA
from rouge_score import rouge_scorer as real_rouge

from rapidbleu.evaluate.metrics import rouge as evaluate_rouge
from rapidbleu.metrics.rouge import rouge_scorer as fast_rouge

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
REAL = (SUBSET_DATA / "wmt22.zh-en/hyp.NiuTrans.en").read_text("utf-8").splitlines()[:40]
ODD = ["", "!!!", " ", "\n\n", "a", "中文", "a b.\n!", "x\n\ny"]
PAIRS = [(t, p) for t in ODD for p in ODD] + list(zip(REAL, REAL[1:] + ODD))


def _typed(scores: dict[str, object]) -> str:
    return json.dumps({k: [repr(type(v)) for v in s] + list(s) for k, s in scores.items()})  # type: ignore[attr-defined]


@pytest.mark.parametrize("stem", [False, True])
def test_score_and_score_multi_keep_rouge_scores_types(stem: bool) -> None:
    real = real_rouge.RougeScorer(TYPES, use_stemmer=stem)
    fast = fast_rouge.RougeScorer(TYPES, use_stemmer=stem)
    for target, prediction in PAIRS:
        assert _typed(fast.score(target, prediction)) == _typed(real.score(target, prediction))
        multi = [target, "!", prediction[:5]]
        assert _typed(fast.score_multi(multi, prediction)) == _typed(
            real.score_multi(multi, prediction)
        )


def test_evaluates_per_item_lists_keep_rouge_scores_types() -> None:
    predictions = [p for _, p in PAIRS]
    references = [t for t, _ in PAIRS]
    # evaluate's rouge script with use_aggregator=False: score each pair, list the F-measures.
    scorer = real_rouge.RougeScorer(TYPES)
    scores = [scorer.score(r, p) for r, p in zip(references, predictions)]
    expected = {t: [s[t].fmeasure for s in scores] for t in TYPES}
    got = evaluate_rouge(predictions, references, use_aggregator=False)
    assert json.dumps(got) == json.dumps(expected)
    assert got == expected
