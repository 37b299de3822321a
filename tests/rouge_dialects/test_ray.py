"""ROUGE's dialects through the template's Ray engine (``rapidbleu.distributed.ray``), on a
real local cluster (2 CPUs): the corpus value of ``PltrdyROUGE`` (the ``rouge`` package's and
rouge-chinese's ``avg=True`` means), ``XLSumROUGE`` (XL-Sum's scorer, means of its items) and
``ROUGE(tokenizer="unicode")`` equals the in-process one and the package's with ``==``, for one
and several blocks, and sentence-score columns equal ``sentence_scores``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import ray
import ray.data
import rouge
import rouge_chinese
from conftest import DATA, read_lines
from multilingual_rouge import rouge_scorer as mrs

from rapidbleu.distributed.ray import add_sentence_scores, corpus_score, local_cluster
from rapidbleu.metrics.rouge import ROUGE
from rapidbleu.metrics.rouge.dialect_metric import PltrdyROUGE
from rapidbleu.metrics.rouge.xlsum_metric import XLSumROUGE

N = 150
ZH = DATA / "wmt22.en-zh"
REFS = [x.rstrip() for x in read_lines(ZH / "ref.A.zh")[:N]]
HYPS = [x.rstrip() for x in read_lines(ZH / "hyp.HuaweiTSC.zh")[:N]]
EN = DATA / "wmt22.zh-en"
EN_REFS = [x.rstrip() or "x" for x in read_lines(EN / "ref.A.en")[:N]]
EN_HYPS = [x.rstrip() or "x" for x in read_lines(EN / "hyp.NiuTrans.en")[:N]]


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    with local_cluster(num_cpus=2):
        yield


def dataset(hyps: list[str], refs: list[str], blocks: int) -> ray.data.Dataset:
    items = [{"id": i, "hyp": h, "ref": r} for i, (h, r) in enumerate(zip(hyps, refs))]
    return ray.data.from_items(items, override_num_blocks=blocks)


def segmented(lines: list[str]) -> list[str]:
    import jieba

    return [" ".join(jieba.cut(x)) for x in lines]


@pytest.mark.parametrize("blocks", [1, 4])
@pytest.mark.parametrize("chinese", [False, True])
def test_pltrdy(blocks: int, chinese: bool) -> None:
    hyps, refs = (segmented(HYPS), segmented(REFS)) if chinese else (EN_HYPS, EN_REFS)
    result = corpus_score(dataset(hyps, refs, blocks), PltrdyROUGE(chinese=chinese), "hyp", "ref")
    local = PltrdyROUGE(chinese=chinese).corpus_score(hyps, [refs])
    package = (rouge_chinese if chinese else rouge).Rouge()
    want = package.get_scores(hyps, refs, avg=True)
    assert result.score.scores == local.scores
    for m, s in result.score.scores.items():
        assert (s.fmeasure, s.precision, s.recall) == (want[m]["f"], want[m]["p"], want[m]["r"])
    assert result.num_rows == N


@pytest.mark.parametrize("blocks", [1, 4])
def test_xlsum(blocks: int) -> None:
    types = ["rouge1", "rougeL", "rougeLsum"]
    result = corpus_score(
        dataset(HYPS, REFS, blocks), XLSumROUGE(types, lang="chinese"), "hyp", "ref"
    )
    local = XLSumROUGE(types, lang="chinese").corpus_score(HYPS, [REFS])
    assert result.score.scores == local.scores
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = mrs.RougeScorer(types, lang="chinese")
        items = [scorer.score(r, h) for r, h in zip(REFS, HYPS)]
    for t in types:
        total = [0.0, 0.0, 0.0]
        for item in items:  # summed in item order, as the engine folds blocks
            total = [a + float(b) for a, b in zip(total, item[t])]
        assert tuple(result.score.scores[t]) == tuple(x / N for x in total)


@pytest.mark.parametrize("blocks", [1, 3])
def test_unicode_tokenizer(blocks: int) -> None:
    metric = ROUGE(["rouge1", "rougeLsum"], tokenizer="unicode")
    result = corpus_score(dataset(HYPS, REFS, blocks), metric, "hyp", "ref")
    assert result.score.scores == metric.corpus_score(HYPS, [REFS]).scores


def test_sentence_score_columns() -> None:
    metrics: list[Any] = [PltrdyROUGE(), XLSumROUGE(["rouge2"], lang="chinese")]
    for metric, (hyps, refs) in zip(metrics, [(EN_HYPS, EN_REFS), (HYPS, REFS)]):
        scored = add_sentence_scores(dataset(hyps, refs, 3), metric, "hyp", "ref", column="s")
        rows = sorted(scored.take_all(), key=lambda r: r["id"])
        assert [r["s"] for r in rows] == metric.sentence_scores(hyps, [refs]).tolist()
