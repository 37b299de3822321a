"""Columns of a block as a metric's inputs, and every refusal naming its column and row.

Engine-free: Arrow tables stand in for blocks (Ray Data, Spark and Dask all hand rapidbleu
Arrow or pandas blocks).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from rapidbleu import errors
from rapidbleu._core import TokenizedLines
from rapidbleu.distributed.blocks import combine, raise_problems, score_block
from rapidbleu.distributed.columns import Columns, Problem, as_table, kind_of
from rapidbleu.metrics import BLEU, CHRF, TER


def _read(table: pa.Table, cols: Columns, start: int = 0) -> object:
    try:
        return cols.read(table)
    except Problem as p:
        raise p.exception(start) from None


def test_kinds() -> None:
    assert kind_of(pa.string()) == kind_of(pa.large_string()) == "text"
    assert kind_of(pa.dictionary(pa.int8(), pa.string())) == "text"
    for t in (pa.list_(pa.int32()), pa.large_list(pa.uint16()), pa.list_(pa.int64(), 3)):
        assert kind_of(t) == "ids"
    assert kind_of(pa.list_(pa.string())) == "tokens"
    for t in (pa.int64(), pa.float64(), pa.binary(), pa.list_(pa.float32()), pa.bool_()):
        assert kind_of(t) is None


def test_column_names_are_checked() -> None:
    with pytest.raises(errors.InvalidOptionError, match="named twice"):
        Columns.of("h", ["r", "r"])
    with pytest.raises(errors.InvalidOptionError, match="both as hypotheses and as references"):
        Columns.of("r", ["r"])
    with pytest.raises(errors.InvalidOptionError, match="no reference columns"):
        Columns.of("h", [])
    with pytest.raises(errors.InvalidOptionError, match="column names"):
        Columns.of("h", [3])  # type: ignore[list-item]


def test_missing_column_lists_the_columns() -> None:
    table = pa.table({"hyp": ["a"], "reference": ["a"]})
    with pytest.raises(errors.MissingColumnError) as e:
        _read(table, Columns.of("hyp", ["ref"]))
    assert "reference column 'ref' is not in the data" in str(e.value)
    assert "'hyp', 'reference'" in str(e.value)
    with pytest.raises(errors.MissingColumnError, match="hypothesis column 'h'"):
        Columns.of("h", "reference").check_schema(["hyp", "reference"])


@pytest.mark.parametrize(
    "values,typename", [([1, 2], "int64"), ([1.5, 2.0], "double"), ([b"a", b"b"], "binary")]
)
def test_wrong_column_type(values: list[object], typename: str) -> None:
    table = pa.table({"hyp": ["a", "b"], "ref": values})
    with pytest.raises(errors.InputTypeError) as e:
        _read(table, Columns.of("hyp", "ref"))
    assert str(e.value).startswith(f"column 'ref': holds {typename}; a scored column holds text")


def test_reference_columns_of_different_kinds() -> None:
    table = pa.table({"hyp": ["a b"], "r1": ["a b"], "r2": [[1, 2]]})
    with pytest.raises(errors.InputTypeError) as e:
        _read(table, Columns.of("hyp", ["r1", "r2"]))
    assert "reference columns 'r1' (text) and 'r2' (token IDs (lists of integers))" in str(e.value)
    ids = pa.table({"hyp": [[1, 2]], "r1": ["a b"]})
    with pytest.raises(errors.InputTypeError, match=r"hypothesis column 'hyp' .token IDs"):
        _read(ids, Columns.of("hyp", ["r1"]))


@pytest.mark.parametrize("column", ["hyp", "r2"])
def test_null_cell_names_column_and_row(column: str) -> None:
    data = {"hyp": ["a", "b", "c"], "r1": ["a", "b", "c"], "r2": ["a", "b", "c"]}
    data[column] = ["a", "b", None]
    with pytest.raises(errors.NullValueError) as e:
        _read(pa.table(data), Columns.of("hyp", ["r1", "r2"]), start=40)
    assert str(e.value).startswith(f"column {column!r}, row 42: the cell is null")


def test_the_first_bad_row_is_named_whatever_its_column() -> None:
    table = pa.table({"hyp": ["a", "b", None], "ref": ["a", None, "c"]})
    with pytest.raises(errors.NullValueError, match=r"^column 'ref', row 1: "):
        _read(table, Columns.of("hyp", "ref"))


def test_null_token_and_null_list() -> None:
    table = pa.table({"hyp": [[1, 2], [3, None]], "ref": [[1, 2], [3, 4]]})
    with pytest.raises(errors.NullValueError, match=r"column 'hyp', row 1: a token in the list"):
        _read(table, Columns.of("hyp", "ref"))
    table = pa.table({"hyp": [[1, 2], [3]], "ref": [None, [3, 4]]})
    with pytest.raises(errors.NullValueError, match=r"column 'ref', row 0: the cell is null"):
        _read(table, Columns.of("hyp", "ref"))


def test_missing_references_when_allowed() -> None:
    hyps, r1, r2 = ["a b c", "d e", "f"], ["a b c", None, "x"], [None, "d e", "f"]
    table = pa.table({"hyp": hyps, "r1": r1, "r2": r2})
    block = score_block(BLEU(), Columns.of("hyp", ["r1", "r2"], True), table)
    assert block.problem is None
    bleu = BLEU()
    expected = bleu.statistics(hyps, [r1, r2])
    assert block.totals is not None
    assert block.totals[0].tolist() == expected.sum(0).tolist()
    assert block.num_refs == bleu.num_refs == -1  # one, one, then two references
    ids = pa.table({"hyp": [[1, 2], [3]], "r1": [[1, 2], None], "r2": [None, [3]]})
    block = score_block(BLEU(), Columns.of("hyp", ["r1", "r2"], True), ids)
    assert block.problem is None and block.totals is not None
    per_row = BLEU().statistics([[1, 2], [3]], [[[1, 2]], [[3]]], per_segment=True)
    assert block.totals[0].tolist() == per_row.sum(0).tolist()
    fixed = pa.table(
        {
            "hyp": pa.array([[1, 2], [3, 4]], pa.list_(pa.int64(), 2)),
            "r1": pa.array([[1, 2], None], pa.list_(pa.int64(), 2)),
            "r2": pa.array([None, [3, 5]], pa.list_(pa.int64(), 2)),
        }
    )
    block = score_block(BLEU(), Columns.of("hyp", ["r1", "r2"], True), fixed)
    per_row = BLEU().statistics([[1, 2], [3, 4]], [[[1, 2]], [[3, 5]]], per_segment=True)
    assert block.totals is not None and block.totals[0].tolist() == per_row.sum(0).tolist()
    none_left = pa.table({"hyp": ["a", "b"], "r1": ["a", None], "r2": ["a", None]})
    with pytest.raises(errors.MissingReferenceError, match="row 7: every reference column"):
        _read(none_left, Columns.of("hyp", ["r1", "r2"], True), start=6)


def test_token_ids_of_every_list_type_and_slices() -> None:
    rng = np.random.default_rng(3)
    seqs = [rng.integers(0, 9, int(rng.integers(0, 12))).tolist() for _ in range(40)]
    refs = [rng.integers(0, 9, int(rng.integers(1, 12))).tolist() for _ in range(40)]
    expected = BLEU().statistics(seqs, [refs])
    for t in (pa.list_(pa.int32()), pa.large_list(pa.int64()), pa.list_(pa.uint8())):
        table = pa.table({"hyp": pa.array(seqs, t), "ref": pa.array(refs, t)})
        for a, b in ((0, 40), (7, 20), (33, 40)):
            inputs = Columns.of("hyp", "ref").read(table.slice(a, b - a))
            rows = BLEU().statistics(inputs.systems[0], inputs.references)
            np.testing.assert_array_equal(rows, expected[a:b])
    fixed = np.arange(60).reshape(20, 3) % 7
    table = pa.table(
        {
            "hyp": pa.array(fixed.tolist(), pa.list_(pa.int64(), 3)),
            "ref": pa.array((fixed[::-1]).tolist(), pa.list_(pa.int64(), 3)),
        }
    ).slice(5)
    inputs = Columns.of("hyp", "ref").read(table)
    np.testing.assert_array_equal(
        BLEU().statistics(inputs.systems[0], inputs.references),
        BLEU().statistics(fixed[5:].tolist(), [fixed[::-1][5:].tolist()]),
    )


def test_text_is_read_in_place_with_nulls_as_missing_references() -> None:
    # Text columns reach the metric as lines the core reads in the block's Arrow buffers (no
    # str per cell); a null reference is None in its stream, dropped as sacreBLEU drops None.
    hyps = ["a b c", "d e f g", "h i", "é 中文"]
    r1, r2 = ["a b x", None, "h i", "é 中"], ["a b c", "d e f", None, None]
    table = pa.table({"hyp": hyps, "r1": r1, "r2": pa.array(r2, pa.string_view())}).slice(1)
    inputs = Columns.of("hyp", ["r1", "r2"], True).read(table)
    assert isinstance(inputs.systems[0], TokenizedLines) and not inputs.per_segment
    assert [list(s) for s in inputs.references] == [r1[1:], r2[1:]]
    per_row = [[r for r in pair if r is not None] for pair in zip(r1[1:], r2[1:])]
    for metric in (BLEU(), CHRF(), TER()):
        block = score_block(metric, Columns.of("hyp", ["r1", "r2"], True), table, keep_rows=True)
        assert block.problem is None and block.rows is not None
        np.testing.assert_array_equal(
            block.rows[0], metric.statistics(hyps[1:], per_row, per_segment=True)
        )


def test_token_lists_dictionary_text_and_pandas() -> None:
    hyps, refs = ["a b c", "d e f g"], ["a b x", "d e f g"]
    expected = BLEU().statistics(hyps, [refs]).sum(0).tolist()
    tokens = pa.table({"h": [h.split() for h in hyps], "r": [r.split() for r in refs]})
    encoded = pa.table({"h": pa.array(hyps).dictionary_encode(), "r": pa.array(refs)})
    frame = pd.DataFrame({"h": hyps, "r": refs})
    large = pa.table({"h": pa.array(hyps, pa.large_string()), "r": pa.array(refs)})
    for batch in (tokens, encoded, frame, large, {"h": np.array(hyps), "r": refs}):
        block = score_block(BLEU(tokenize="none"), Columns.of("h", "r"), batch)
        assert block.problem is None and block.totals is not None, block.problem
        assert (
            block.totals[0].tolist()
            == BLEU(tokenize="none").statistics(hyps, [refs]).sum(0).tolist()
        )
    block = score_block(BLEU(), Columns.of("h", "r"), frame)
    assert block.totals is not None and block.totals[0].tolist() == expected


def test_as_table_refuses_other_types() -> None:
    with pytest.raises(errors.InputTypeError, match="Arrow table, a pandas DataFrame"):
        as_table([("a", "b")])


def test_problems_raise_in_dataset_order_with_global_rows() -> None:
    cols = Columns.of("hyp", "ref")
    good = pa.table({"hyp": ["a"] * 5, "ref": ["a"] * 5})
    bad1 = pa.table({"hyp": ["a", "b", None], "ref": ["a", "b", "c"]})
    text = pa.schema([("hyp", pa.string()), ("ref", pa.string())])
    bad2 = pa.table({"hyp": ["a"], "ref": [None]}, schema=text)
    blocks = [score_block(BLEU(), cols, t) for t in (good, bad1, good, bad2)]
    with pytest.raises(errors.NullValueError, match=r"^column 'hyp', row 7: "):
        raise_problems(blocks)
    with pytest.raises(errors.NullValueError, match=r"^column 'ref', row 10: "):
        combine(BLEU(), [blocks[0], blocks[2], blocks[3]])
