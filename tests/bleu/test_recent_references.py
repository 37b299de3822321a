"""BLEU counts the references of its last call once when the same strings come back.

Every score must equal sacreBLEU's whatever the metric saw before: the same references,
copies of their lists, lists changed in place between calls, other references, missing
references, and after a pickle.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
import sacrebleu
from conftest import DATA, assert_same_score, read_lines

from rapidbleu.metrics import BLEU
from rapidbleu.metrics.bleu import recent_references


def _wmt(name: str) -> tuple[list[list[str]], list[list[str]]]:
    """A test set's systems (at least four: reversed copies are added) and references."""
    folder = DATA / name
    refs = [read_lines(p) for p in sorted(folder.glob("ref.*"))]
    systems = [read_lines(p) for p in sorted(folder.glob("hyp.*"))]
    assert refs and systems, folder
    systems += [h[::-1] for h in systems]  # misaligned, but a system all the same
    return (systems * 4)[:4] if len(systems) < 4 else systems, refs


def _same(ours: Any, theirs: Any) -> None:
    assert_same_score(ours, theirs)


def _spy(metric: BLEU) -> list[int]:
    built: list[int] = []
    real = metric._cache

    def cache(refs: Any) -> Any:
        built.append(len(refs))
        return real(refs)

    metric._cache = cache  # type: ignore[method-assign]
    return built


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("wmt22.en-ja", {"tokenize": "ja-mecab"}),
        ("wmt22.en-de", {"tokenize": "13a", "lowercase": True}),
        ("wmt22.en-zh", {"tokenize": "zh"}),
        ("wmt22.en-de", {"tokenize": "intl", "smooth_method": "add-k"}),
    ],
)
def test_several_systems_against_one_test_set(name: str, options: dict[str, Any]) -> None:
    systems, refs = _wmt(name)
    ours, theirs = BLEU(**options), sacrebleu.BLEU(**options)
    built = _spy(ours)
    for hyps in systems:
        _same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert built == [len(refs)]  # prepared once, at the second call
    assert ours.num_refs == theirs.num_refs


def test_the_text_decides_never_a_stale_preparation() -> None:
    rng = random.Random(3)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"]
    refs = [[" ".join(rng.choices(words, k=6)) for _ in range(40)] for _ in range(2)]
    hyps = [" ".join(rng.choices(words, k=6)) for _ in range(40)]
    ours, theirs = BLEU(), sacrebleu.BLEU()
    built = _spy(ours)
    for step in range(12):
        if step == 4:
            refs[0][7] = "a changed line"  # in place: same lists, other text
        if step == 6:
            refs = [list(r) for r in refs]  # copies of the lists: the same strings
        if step == 8:
            refs = [[(s + "!")[:-1] for s in r] for r in refs]  # equal text, new objects
        if step == 10:
            refs[1][3] = None  # a missing reference
        _same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
        assert ours.num_refs == theirs.num_refs
    # Prepared at steps 1, 5 (after the change), 9 (new objects) and 11 (after None).
    assert len(built) == 4


def test_other_uses_of_the_metric_are_unchanged() -> None:
    systems, refs = _wmt("wmt22.en-de")
    ours, theirs = BLEU(), sacrebleu.BLEU()
    ours.corpus_score(systems[0], refs)
    ours.corpus_score(systems[0], refs)  # prepared now
    _same(ours.corpus_score(systems[1], refs[:1]), theirs.corpus_score(systems[1], refs[:1]))
    rows = ours.statistics(systems[2], refs)
    score = ours.corpus_score(systems[2], refs)  # from the prepared references
    assert ours.score_totals(ours.total(rows)).score == score.score
    _same(score, theirs.corpus_score(systems[2], refs))
    boot = ours.corpus_score(systems[3], refs, n_bootstrap=20)
    assert boot.score == theirs.corpus_score(systems[3], refs).score
    first = [r[0] for r in refs]
    _same(ours.sentence_score(systems[0][0], first), theirs.sentence_score(systems[0][0], first))


def test_copies_start_empty_and_score_the_same() -> None:
    systems, refs = _wmt("wmt22.en-de")
    ours, theirs = BLEU(), sacrebleu.BLEU()
    ours.corpus_score(systems[0], refs)
    ours.corpus_score(systems[1], refs)
    for twin in (pickle.loads(pickle.dumps(ours)), copy.deepcopy(ours), copy.copy(ours)):
        _same(twin.corpus_score(systems[2], refs), theirs.corpus_score(systems[2], refs))


def test_huge_references_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recent_references, "MAX_LINES", 10)
    refs = [["a b c d e"] * 6, ["a b"] * 6]  # 12 lines
    hyps = ["a b c d"] * 6
    metric = BLEU()
    built = _spy(metric)
    for _ in range(3):
        _same(metric.corpus_score(hyps, refs), sacrebleu.BLEU().corpus_score(hyps, refs))
    assert built == [] and metric._recent_refs._last is None
