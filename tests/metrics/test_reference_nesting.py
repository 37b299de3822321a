"""References nested per segment (issue 25): a named error with the shape and the fix.

The shapes are those of the field's reports (sacreBLEU #220, #256, #272, #275, #281; lighteval
#1112; ragas #2888), on real WMT22 lines; ``benchmarks/reference_nesting.py`` measures the
same shapes against sacreBLEU and the square-corpus check on 200 random corpora per size.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Callable

import pytest
import sacrebleu
from conftest import DATA

import rapidbleu
from rapidbleu import errors
from rapidbleu.analysis import nesting

N = 40


def _lines(name: str) -> list[str]:
    text = (DATA / "wmt22.en-de" / name).read_text(encoding="utf-8")
    return text.rstrip("\n").split("\n")[:N]


HYPS, REF_A, REF_B = _lines("hyp.PROMT.de"), _lines("ref.A.de"), _lines("ref.B.de")

#: The reports' shapes: (references as given, the fix's words in the message).
SHAPES: dict[str, tuple[Any, str]] = {
    "220-per-segment-pairs": ([[a, b] for a, b in zip(REF_A, REF_B)], "zip(*references)"),
    "256-275-281-singletons": ([[a] for a in REF_A], "zip(*references)"),
    "272-flat-strings": (list(REF_A), "references = [references]"),
    "lighteval-1112-ragged": (
        [[a, b] if i % 2 else [a] for i, (a, b) in enumerate(zip(REF_A, REF_B))],
        "itertools.zip_longest(*references)",
    ),
}

ENTRY_POINTS: dict[str, Callable[[Any], Any]] = {
    "BLEU.corpus_score": lambda refs: rapidbleu.BLEU().corpus_score(HYPS, refs),
    "CHRF.corpus_score": lambda refs: rapidbleu.CHRF().corpus_score(HYPS, refs),
    "TER.corpus_score": lambda refs: rapidbleu.TER().corpus_score(HYPS, refs),
    "corpus_bleu": lambda refs: rapidbleu.corpus_bleu(HYPS, refs),
    "corpus_chrf": lambda refs: rapidbleu.corpus_chrf(HYPS, refs),
    "statistics": lambda refs: rapidbleu.BLEU().statistics(HYPS, refs),
    "cached": lambda refs: rapidbleu.BLEU(references=refs).corpus_score(HYPS, None),
    "check_references": lambda refs: rapidbleu.check_references(HYPS, refs),
}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_every_entry_point_names_the_nesting(shape: str, entry: str) -> None:
    refs, fix = SHAPES[shape]
    if entry == "cached" and shape == "lighteval-1112-ragged":
        # Caching refuses streams of different lengths before it sees any hypothesis.
        with pytest.raises(errors.LengthMismatchError, match="segments"):
            ENTRY_POINTS[entry](refs)
        return
    with pytest.raises(errors.ReferenceNestingError) as e:
        ENTRY_POINTS[entry](refs)
    message = str(e.value)
    assert "references[k][i]" in message and fix in message, message
    # The error is what the old classes were, so `except` clauses keep working.
    assert isinstance(e.value, (errors.LengthMismatchError, errors.InputTypeError))


@pytest.mark.parametrize("shape", ["220-per-segment-pairs", "256-275-281-singletons"])
def test_the_fix_in_the_message_gives_sacrebleus_score(shape: str) -> None:
    refs, _ = SHAPES[shape]
    fixed = [list(stream) for stream in zip(*refs)]  # what the message says
    want = sacrebleu.corpus_bleu(HYPS, fixed)
    assert rapidbleu.corpus_bleu(HYPS, fixed).score == want.score
    assert rapidbleu.check_references(HYPS, fixed) == "streams"


def test_the_flat_list_fix_gives_sacrebleus_score() -> None:
    fixed = [list(REF_A)]
    assert rapidbleu.corpus_bleu(HYPS, fixed).score == sacrebleu.corpus_bleu(HYPS, fixed).score


@pytest.mark.parametrize("n", [2, 3, 5])
def test_square_corpus_is_decided_by_the_text(n: int) -> None:
    """n hypotheses with n references each: both readings fit; the text decides."""
    others = [_lines(s) for s in ("hyp.Online-B.de", "hyp.OpenNMT.de", "hyp.JDExploreAcademy.de")]
    pool = [REF_A, REF_B, *others]
    for start in range(0, N - n, n):
        idx = list(range(start, start + n))
        hyps = [HYPS[i] for i in idx]
        streams = [[source[i] for i in idx] for source in pool[:n]]
        nested = [list(seg) for seg in zip(*streams)]
        assert rapidbleu.check_references(hyps, streams) in ("streams", "undecided")
        with contextlib.suppress(errors.ReferenceNestingError):
            assert rapidbleu.check_references(hyps, nested) == "undecided"
            continue
    # A clear case: the hypotheses are one of the reference streams.
    hyps = HYPS[:n]
    streams = [source[:n] for source in [HYPS, *pool][:n]]
    assert rapidbleu.check_references(hyps, streams) == "streams"
    with pytest.raises(errors.ReferenceNestingError, match=r"reads per segment.*zip"):
        rapidbleu.check_references(hyps, [list(seg) for seg in zip(*streams)])


def test_square_corpus_without_evidence_is_undecided() -> None:
    assert rapidbleu.check_references(["a b", "c d"], [["x y", "z w"], ["q r", "s t"]]) == (
        "undecided"
    )


def test_the_square_check_costs_a_bounded_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever n, one call into the core with at most 2 x 48 x 8 pairs."""
    n = 300
    hyps = [f"w{i} x{i} y" for i in range(n)]
    streams = [[f"w{i} x{i} z" for i in range(n)] for _ in range(n)]
    calls: list[int] = []
    real = rapidbleu.BLEU.statistics

    def spy(self: Any, hypotheses: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(hypotheses))
        return real(self, hypotheses, *args, **kwargs)

    monkeypatch.setattr(rapidbleu.BLEU, "statistics", spy)
    assert rapidbleu.check_references(hyps, streams) == "streams"
    limit = 2 * nesting.SAMPLE_SEGMENTS * nesting.SAMPLE_REFERENCES
    assert len(calls) == 1 and calls[0] <= limit


def test_token_ids_are_checked_alike() -> None:
    hyps = [[1, 2, 3], [4, 5, 6]]
    with pytest.raises(errors.ReferenceNestingError, match="2 lists of 1"):
        rapidbleu.BLEU().corpus_score(hyps, [[[1, 2, 3]], [[4, 5, 6]]])
    assert rapidbleu.check_references(hyps, [[[1, 2, 3], [4, 5, 6]]]) == "streams"


def test_right_shapes_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    assert rapidbleu.check_references(HYPS, [REF_A, REF_B]) == "streams"
    assert rapidbleu.check_references(HYPS[:1], [[REF_A[0]]]) == "streams"  # 1 x 1: the same
    # A stream one segment short stays a plain length mismatch (not a nesting error).
    with pytest.raises(errors.LengthMismatchError) as e:
        rapidbleu.corpus_bleu(HYPS, [REF_A, REF_B[:-1]])
    assert type(e.value) is errors.LengthMismatchError


def test_jsonl_item_with_streams_inside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rapidbleu.cli.main import main

    (tmp_path / "items.jsonl").write_text(
        '{"candidate": "a b", "references": [["a b", "a c"]]}\n', encoding="utf-8"
    )
    with contextlib.chdir(tmp_path):
        code = main(["--jsonl", "items.jsonl"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert "references[0] is a list of strings" in err and "flatten" in err, err
