"""TER's seam and its edges: rows that fold in order across any split and thread count,
pairwise matrices, the real data's golden scores, and bad input as named errors.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, read_lines
from sacrebleu.metrics import TER as SacreTER

import rapidbleu
from rapidbleu import _core
from rapidbleu.analysis.pairwise import pairwise_scores
from rapidbleu.errors import (
    EmptyInputError,
    InputError,
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
)
from rapidbleu.metrics import TER, metric_classes


def _corpus(n: int, seed: int, nrefs: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    hyps, refs = [], [[] for _ in range(nrefs)]
    for _ in range(n):
        ws = [f"w{rng.randrange(15)}" for _ in range(rng.randrange(0, 30))]
        for r in refs:
            r.append(" ".join(rng.sample(ws, len(ws))[: rng.randrange(0, len(ws) + 1)]))
        rng.shuffle(ws)
        hyps.append(" ".join(ws))
    return hyps, refs


@pytest.mark.parametrize("nrefs", [1, 3])
def test_threads_and_splits_change_nothing(nrefs: int) -> None:
    hyps, refs = _corpus(400, nrefs, nrefs)
    one = TER(num_threads=1)
    rows = one.statistics(hyps, refs)
    expected = one.total(rows)
    for threads in (0, 2, 3):
        ter = TER(num_threads=threads)
        assert np.array_equal(ter.statistics(hyps, refs), rows)
        assert ter.total(ter.statistics(hyps, refs)) == expected
    for cuts in ([1], [17, 200], list(range(0, 400, 7))):
        totals = None
        for a, b in zip([0, *cuts], [*cuts, 400]):
            part = one.statistics(hyps[a:b], [r[a:b] for r in refs]) if b > a else rows[:0]
            totals = one.accumulate(totals, part)
        assert totals == expected, cuts
    theirs = SacreTER().corpus_score(hyps, refs)
    assert expected == [theirs.num_edits, theirs.ref_length]


def test_pairwise_matrices_equal_sentence_scores() -> None:
    hyps = [["a b c", "c b a", "", "a a a a"], ["x y"]]
    refs = [["a b c d", "b", ""], ["y x", "z"]]
    for ter in (TER(), TER(normalized=True, no_punct=True)):
        mats = pairwise_scores(hyps, refs, metric=ter)
        theirs = SacreTER(normalized=ter.normalized, no_punct=ter.no_punct)
        for m, hs, rs in zip(mats, hyps, refs):
            assert m.tolist() == [[theirs.sentence_score(h, [r]).score for r in rs] for h in hs]


def test_registry_and_options_object() -> None:
    assert metric_classes()["ter"] is TER
    assert TER.higher_is_better is False and TER.additive is False
    opts = _core.TerOptions(no_punct=True)
    assert pickle.loads(pickle.dumps(opts)) == opts and hash(opts) == hash(
        _core.TerOptions(no_punct=True)
    )
    assert repr(opts).startswith("TerOptions(normalized=False, no_punct=True")


def test_bad_input() -> None:
    ter = TER()
    with pytest.raises(InvalidOptionError, match="normalized takes a truth value"):
        TER(normalized=np.array([1, 2]))  # type: ignore[arg-type]
    with pytest.raises(LengthMismatchError):
        ter.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(EmptyInputError):
        ter.corpus_score([], [[]])
    with pytest.raises(EmptyInputError):
        ter.corpus_score(["a"], [])
    with pytest.raises(MissingReferenceError, match="segment 1 has no reference"):
        ter.corpus_score(["a", "b"], [["a", None]])
    with pytest.raises(InputTypeError):
        ter.corpus_score(["a", 3], [["a", "b"]])  # type: ignore[list-item]
    with pytest.raises(InputTypeError):
        ter.corpus_score("a b", [["a b"]])  # type: ignore[arg-type]
    with pytest.raises(InputTypeError):
        ter.corpus_score(["a"], ["a"])
    with pytest.raises(InvalidTextError, match="lone surrogate"):
        ter.corpus_score(["a\ud800"], [["a"]])
    with pytest.raises(EmptyInputError):
        ter.sentence_score("a", [])
    with pytest.raises(InvalidOptionError, match="num_threads"):
        TER(num_threads=-1).corpus_score(["a"], [["a"]])
    with pytest.raises(InputTypeError):
        rapidbleu.tokenizers.tokenizer_ter.TercomTokenizer()(None)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="columns"):
        ter.accumulate(None, np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(InputError, match="references"):
        ter.total(np.array([[1, 2, 0]]))
    with pytest.raises(InputError, match="negative"):
        ter.total(np.array([[-1, 2, 1]]))
    with pytest.raises(
        InputError, match=r"TER totals must be \(num_edits: int, ref_length: float\)"
    ):
        ter.options.accumulate(np.array([[1, 2, 1]]), [1, 2.0])


def _golden_lines() -> list[dict]:
    lines = (DATA / "golden.jsonl").read_text("utf-8").splitlines()
    return [g for g in map(json.loads, lines) if g["metric"] == "TER"]


GOLDEN = _golden_lines()


def test_golden_lines_are_there() -> None:
    # 19 in tests/data, 39 in ../shared/data.
    assert len(GOLDEN) >= 19


@pytest.mark.parametrize("g", GOLDEN, ids=[f"{g['system']}-{len(g['refs'])}" for g in GOLDEN])
def test_real_data_golden(g: dict) -> None:
    """``TER().corpus_score`` of every TER line of golden.jsonl (sacreBLEU 2.6.0), with ``==``."""
    assert g["options"] == {}
    hyps = read_lines(DATA / g["hyp"])
    refs = [read_lines(DATA / r) for r in g["refs"]]
    ter = TER()
    score = ter.corpus_score(hyps, refs)
    assert score.score == g["score"]
    assert (score.num_edits, score.ref_length) == (
        g["extra"]["num_edits"],
        g["extra"]["ref_length"],
    )
    assert str(ter.get_signature()).split("|version:")[0] == g["signature"].split("|version:")[0]


@pytest.mark.parametrize(
    "opts",
    [
        {"normalized": True},
        {"no_punct": True, "case_sensitive": True},
        {"normalized": True, "asian_support": True, "no_punct": True},
    ],
    ids=str,
)
@pytest.mark.parametrize("pair", ["wmt22.en-zh", "wmt22.en-de"])
def test_real_data_options(opts: dict, pair: str, data_dir: Path) -> None:
    """Every option on real lines (the first 400 of a system, 2 references), live."""
    d = data_dir / pair
    trg = pair.split("-")[1]
    hyp = sorted(d.glob(f"hyp.*.{trg}"))[0]
    hyps = read_lines(hyp)[:400]
    refs = [read_lines(d / f"ref.{k}.{trg}")[:400] for k in "AB"]
    ours, theirs = TER(**opts).corpus_score(hyps, refs), SacreTER(**opts).corpus_score(hyps, refs)
    assert (ours.score, ours.num_edits, ours.ref_length) == (
        theirs.score,
        theirs.num_edits,
        theirs.ref_length,
    )
