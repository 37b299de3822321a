"""Arrow text input: every metric scores Arrow arrays exactly as the same lists of ``str``.

Arrow columns (pyarrow's ``string``, ``large_string`` and ``string_view`` arrays, chunked
arrays, slices, Hugging Face datasets' columns) are read by the core through the C data
interface; nulls are ``None``. Checked with ``==`` against the list of the same text, on real
WMT data and on generated full-Unicode text, and for the errors: nulls in hypotheses, Arrow data
that is not text, and bytes that are not UTF-8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from conftest import DATA, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu import errors
from rapidbleu._core import TokenizedLines
from rapidbleu.analysis.pairwise import pairwise_scores
from rapidbleu.metrics import BLEU, CHRF, ROUGE, TER

TYPES = [pa.string(), pa.large_string(), pa.string_view()]
HYPS = read_lines(DATA / "wmt22.en-de" / "hyp.Online-B.de")[:300]
REFS = read_lines(DATA / "wmt22.en-de" / "ref.A.de")[:300]


def metrics() -> list[Any]:
    return [BLEU(), BLEU(tokenize="intl", lowercase=True), CHRF(), CHRF(word_order=2), TER()]


def arrow(lines: list[str | None], kind: Any, chunks: int = 1) -> Any:
    """``lines`` as an Arrow array of ``kind``, or a chunked array of ``chunks`` pieces."""
    if chunks == 1:
        return pa.array(lines, kind)
    cut = [len(lines) * k // chunks for k in range(chunks + 1)]
    return pa.chunked_array([pa.array(lines[a:b], kind) for a, b in zip(cut, cut[1:])], kind)


@pytest.mark.parametrize("kind", TYPES, ids=str)
@pytest.mark.parametrize("chunks", [1, 3])
def test_real_data_scores_equal_the_lists(kind: Any, chunks: int) -> None:
    hyps, refs = arrow(HYPS, kind, chunks), arrow(REFS, kind, chunks)
    for metric in metrics():
        assert str(metric.corpus_score(hyps, [refs])) == str(metric.corpus_score(HYPS, [REFS]))
        got = metric.sentence_scores(hyps, [refs])
        assert np.array_equal(got, metric.sentence_scores(HYPS, [REFS]))
        assert np.array_equal(metric.statistics(hyps, [refs]), metric.statistics(HYPS, [REFS]))


def test_rouge_and_pairwise() -> None:
    hyps, refs = pa.array(HYPS[:50]), pa.array(REFS[:50], pa.string_view())
    rouge = ROUGE(["rouge1", "rougeL"])
    assert str(rouge.corpus_score(hyps, [refs])) == str(rouge.corpus_score(HYPS[:50], [REFS[:50]]))
    want = pairwise_scores([HYPS[:20]], [REFS[:10]], metric=CHRF())[0]
    got = pairwise_scores([pa.array(HYPS[:20])], [pa.array(REFS[:10])], metric=CHRF())[0]
    assert np.array_equal(got, want)


#: Any text Arrow can hold (not lone surrogates, which are not Unicode scalar values).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=examples(100), deadline=None)
@given(
    pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=8),
    kind=st.sampled_from(TYPES),
    offset=st.integers(0, 3),
)
def test_any_text_and_slices(pairs: list[tuple[str, str]], kind: Any, offset: int) -> None:
    pad = [("x", "y")] * offset  # a slice of a larger array: the interface's offset
    hyps = arrow([h for h, _ in pad + pairs], kind).slice(offset)
    refs = arrow([r for _, r in pad + pairs], kind).slice(offset)
    assert list(TokenizedLines.from_arrow(hyps)) == [h for h, _ in pairs]
    for metric in metrics():
        want = metric.corpus_score([h for h, _ in pairs], [[r for _, r in pairs]])
        assert str(metric.corpus_score(hyps, [refs])) == str(want)


def test_nulls_follow_the_rule_for_none() -> None:
    refs_b: list[str | None] = [None, *REFS[1:10]]
    bleu = BLEU()
    got = bleu.corpus_score(pa.array(HYPS[:10]), [pa.array(REFS[:10]), pa.array(refs_b)])
    assert str(got) == str(bleu.corpus_score(HYPS[:10], [REFS[:10], refs_b]))
    with pytest.raises(errors.InputTypeError, match=r"hypotheses\[1\] is NoneType"):
        bleu.corpus_score(pa.array([HYPS[0], None]), [REFS[:2]])
    with pytest.raises(errors.MissingReferenceError):
        bleu.corpus_score(HYPS[:2], [pa.array([None, REFS[1]])])


def test_what_is_not_arrow_text_is_refused() -> None:
    with pytest.raises(errors.InputTypeError, match='format "l"; expected text'):
        BLEU().corpus_score(pa.array([1, 2]), [REFS[:2]])
    with pytest.raises(errors.InputTypeError, match="neither __arrow_c_stream__"):
        TokenizedLines.from_arrow([1, 2])
    # Bytes that are not UTF-8, in an array built without pyarrow's check.
    offsets = pa.py_buffer(np.array([0, 1, 3], dtype=np.int32).tobytes())
    bad = pa.StringArray.from_buffers(2, offsets, pa.py_buffer(b"a\xff\xfe"))
    with pytest.raises(errors.InvalidTextError, match=r"\[1\] is not valid UTF-8"):
        BLEU().corpus_score(bad, [["a", "b"]])


def test_a_datasets_column() -> None:
    import datasets

    table = datasets.Dataset.from_dict({"hyp": HYPS[:40], "ref": REFS[:40]}).data
    got = CHRF().corpus_score(table.column("hyp"), [table.column("ref")])
    assert str(got) == str(CHRF().corpus_score(HYPS[:40], [REFS[:40]]))


def test_the_lines_outlive_the_array() -> None:
    array = pa.array(["a b c", None, "é 中文"])
    lines = TokenizedLines.from_arrow(array)
    del array  # the lines hold the Arrow buffers
    assert list(lines) == ["a b c", None, "é 中文"] and lines[-1] == "é 中文"
