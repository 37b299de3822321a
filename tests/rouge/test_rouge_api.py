"""ROUGE on the Metric template, pickling, and bad input as ``rapidbleu.errors`` exceptions."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from rouge_score import rouge_scorer

from rapidbleu import _core
from rapidbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    MissingReferenceError,
)
from rapidbleu.metrics import ROUGE

HYPS = ["the cat sat\non the mat", "a dog runs", "", "running dogs ran"]
REFS = [["the cat is on the mat", "dogs run", "x", "a dog was running"]]


def test_sentence_scores_and_corpus_mean() -> None:
    rouge = ROUGE(["rougeL", "rouge1"], use_stemmer=True)
    oracle = rouge_scorer.RougeScorer(["rougeL", "rouge1"], use_stemmer=True)
    items = [oracle.score(r, h) for h, r in zip(HYPS, REFS[0])]
    assert rouge.sentence_scores(HYPS, REFS).tolist() == [100 * s["rougeL"].fmeasure for s in items]
    score = rouge.corpus_score(HYPS, REFS)
    total = 0.0
    for s in items:
        total += s["rougeL"].fmeasure
    assert score.score == 100 * (total / len(items))
    assert score.scores["rouge1"].recall == sum(s["rouge1"].recall for s in items) / len(items)
    assert rouge.sentence_score(HYPS[0], [REFS[0][0]]).score == 100 * items[0]["rougeL"].fmeasure


def test_rows_fold_in_order() -> None:
    rouge = ROUGE(["rouge2", "rougeLsum"])
    rows = rouge.statistics(HYPS, REFS)
    whole = rouge.total(rows)
    parts = None
    for k in range(len(rows)):
        parts = rouge.accumulate(parts, rows[k : k + 1])
    assert parts is not None
    assert parts[0] == whole[0] and np.array_equal(parts[1], whole[1])


def test_per_segment_and_missing_references() -> None:
    rouge = ROUGE(["rouge1"])
    streams = [["a b", None], ["x", "c d"]]
    per_seg = [["a b", "x"], ["c d"]]
    hyps = ["a b", "c"]
    assert np.array_equal(
        rouge.statistics(hyps, streams), rouge.statistics(hyps, per_seg, per_segment=True)
    )
    with pytest.raises(MissingReferenceError):
        rouge.statistics(hyps, [["a", None]])


def test_resampling_and_randomization() -> None:
    rouge = ROUGE(["rouge1"])
    rows = rouge.statistics(HYPS, REFS)
    f = rouge.score_rows(rows)
    idxs = np.array([[0, 1, 2, 3], [3, 3, 0, 1]])
    # A resample's score is the corpus score of its items (their mean, added in order).
    assert rouge.resample_scores(rows, idxs).tolist() == [
        rouge.corpus_score([HYPS[i] for i in ix], [[REFS[0][i] for i in ix]]).score for ix in idxs
    ]
    a, b = rouge.randomization_sums(rows, rows, np.array([[True, False, True, False]]))
    assert rouge.randomization_scores(a)[0] == pytest.approx(f.mean())
    assert rouge.randomization_scores(b)[0] == pytest.approx(f.mean())


def test_pickle_and_signature() -> None:
    rouge = ROUGE(["rouge1", "rougeLsum"], use_stemmer=True, num_threads=1)
    again = pickle.loads(pickle.dumps(rouge))
    assert again.score("a b", "a") == rouge.score("a b", "a")
    rouge.corpus_score(["a"], [["a"]])
    assert "types:rouge1+rougeLsum|stem:yes" in str(rouge.get_signature())


@pytest.mark.parametrize(
    ("types", "match"),
    [
        (["rouge0"], "rougen requires positive n: rouge0"),
        (["rougeX"], "invalid rouge type: 'rougeX'"),
        (["rouge10"], "invalid rouge type"),
        ([], "rouge_types is empty"),
        ("rouge1", "rouge_types must be a list"),
        ([1], "rouge_types must be a list of str"),
    ],
)
def test_bad_types(types: object, match: str) -> None:
    with pytest.raises(InvalidOptionError, match=match):
        ROUGE(types)  # type: ignore[arg-type]


def test_bad_input() -> None:
    rouge = ROUGE(["rouge1"])
    with pytest.raises(InputTypeError):
        rouge.score("a", 3)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError):
        rouge.score_multi("a b", "a")
    with pytest.raises(EmptyInputError):
        rouge.score_multi([], "a")
    with pytest.raises(EmptyInputError):
        rouge.statistics([], [[]])
    with pytest.raises(LengthMismatchError):
        rouge.statistics(["a", "b"], [["a"]])
    with pytest.raises(InvalidOptionError):
        ROUGE(["rouge1"], tokenizer=object())
    with pytest.raises(InvalidOptionError):
        ROUGE(["rouge1"], num_threads=-1)
    with pytest.raises(InputTypeError):
        _core.RougeOptions(["rouge1"]).token_statistics([3], [[([], None)]])
    with pytest.raises(EmptyInputError):
        _core.RougeOptions(["rouge1"]).item_statistics(["a"], [[]])
    with pytest.raises(LengthMismatchError):
        _core.RougeOptions(["rougeLsum"]).item_statistics(
            ["a"], [["a"]], 0, [["a"]], [[["a"], ["b"]]]
        )
    with pytest.raises(InvalidOptionError):
        _core.RougeOptions(["rouge1"]).item_statistics(["a"], [["a"]], 0, [["a"]])
    with pytest.raises(InputTypeError):
        _core.porter_stem("word")
    with pytest.raises(ValueError, match="lowercase a-z and 0-9"):
        _core.porter_stem(["Word"])
    with pytest.raises(ValueError, match="key words"):
        _core.RougeOptions.resample_means(np.zeros((2, 3)), np.zeros(5, dtype=np.uint32), 0, 3)


def _child_scores(_: int) -> list[float]:
    return (
        ROUGE(["rougeLsum"], use_stemmer=True)
        .score_arrays(HYPS * 40, [REFS[0] * 40])["rougeLsum"][:, 2]
        .tolist()
    )


def test_forked_child_after_the_parent_scored() -> None:
    import multiprocessing

    hyps, refs = HYPS * 40, [REFS[0] * 40]
    want = ROUGE(["rougeLsum"], use_stemmer=True).score_arrays(hyps, refs)["rougeLsum"]
    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.map_async(_child_scores, [0]).get(timeout=60)[0]
    assert got == want[:, 2].tolist()


def test_the_template_paths_equal_the_item_path() -> None:
    rouge = ROUGE(["rouge1", "rougeLsum"], use_stemmer=True)
    # A lone surrogate: the core's text path refuses it, and the item path reads it as a
    # separator, as rouge-score does.
    hyps, refs = [*HYPS, "ab\ud800cd\nef"], [[*REFS[0], "ab cd"]]
    rows = rouge.statistics(hyps, refs)
    items = _core.RougeOptions(rouge.rouge_types, True).item_statistics(
        hyps, [[r] for r in refs[0]]
    )
    assert rows.tolist() == items.tolist()
    assert np.array_equal(rows[:-1], rouge.statistics(HYPS, REFS))
    assert rouge.sentence_scores(hyps, refs).tolist() == rouge.score_rows(rows).tolist()
    chunk = _core.TextChunk.from_lists([HYPS, HYPS[::-1]], REFS)
    got = rouge.chunk_statistics(chunk)
    assert np.array_equal(got[0], rows[:-1])
    assert np.array_equal(got[1], rouge.statistics(HYPS[::-1], REFS))
    matrix = rouge.pairwise_matrices([(hyps, refs[0][:2])])[0]
    assert matrix.tolist() == [
        [rouge.sentence_score(h, [r]).score for r in refs[0][:2]] for h in hyps
    ]
    total = rouge.total(rows)
    assert rouge.score_totals(total).score == rouge.corpus_score(hyps, refs).score
    with pytest.raises(ValueError, match="rouge types need"):
        rouge.options.score_rows(np.zeros((1, 4), dtype=np.int64))
