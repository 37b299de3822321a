"""Arrow items: the per-item API scores a table of candidates and reference lists exactly as
the same items given as Python mappings.

A table (pyarrow, a Hugging Face dataset's Arrow table, a stream of record batches) with a text
candidate column and a references column (``list``, ``large_list`` or ``fixed_size_list`` of
text, or text) is read by the core (``_core.split_arrow_items``): reference ``j`` of every item
becomes stream ``j``, ``None`` where an item has fewer. Checked with ``==`` (scores, rows,
signatures) against the Python items for every metric, on real WMT data and generated Unicode,
and for each error an item can have.
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from conftest import DATA, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

import rapidbleu
import rapidbleu.items
from rapidbleu import errors
from rapidbleu.metrics import BLEU, CHRF, COCOBLEU, METEOR, ROUGE, TER, CIDErD, COCORougeL
from rapidbleu.metrics.rouge.dialect_metric import PltrdyROUGE

HYPS = read_lines(DATA / "wmt22.en-de" / "hyp.Online-B.de")[:200]
REFS_A = read_lines(DATA / "wmt22.en-de" / "ref.A.de")[:200]
REFS_B = read_lines(DATA / "wmt22.en-de" / "ref.B.de")[:200]
TEXT_TYPES = [pa.string(), pa.large_string(), pa.string_view()]


def metrics() -> list[Any]:
    """One metric of each family; METEOR without WordNet (its synonyms are tested elsewhere)."""
    return [
        BLEU(),
        BLEU(effective_order=True, tokenize="intl"),
        CHRF(word_order=2),
        TER(),
        ROUGE(["rouge1", "rougeL"]),
        PltrdyROUGE(),
        METEOR(wordnet=False),
        CIDErD(),
        COCOBLEU(),
        COCORougeL(),
    ]


def real_items() -> list[dict[str, Any]]:
    """WMT22 items with one to three references (a reference repeated, one missing)."""
    rng = random.Random(7)
    out = []
    for i, hyp in enumerate(HYPS):
        refs: list[str | None] = [REFS_A[i], REFS_B[i], REFS_A[(i + 1) % len(REFS_A)]]
        refs = refs[: rng.randint(1, 3)]
        if len(refs) > 1 and i % 9 == 0:
            refs[1] = None  # a missing reference inside an item's list
        out.append({"candidate": hyp, "references": refs})
    return out


def table(items: list[dict[str, Any]], text: Any = None, lists: str = "list") -> Any:
    """``items`` as a pyarrow table of ``text`` values (default ``string``), references in
    ``lists`` layout."""
    text = pa.string() if text is None else text
    value = pa.field("item", text)
    ref_type = {"list": pa.list_(value), "large_list": pa.large_list(value)}[lists]
    return pa.table(
        {
            "candidate": pa.array([it["candidate"] for it in items], text),
            "references": pa.array([it["references"] for it in items], ref_type),
        }
    )


def assert_same(metric: Any, items: list[Any], arrow_items: Any) -> None:
    """Corpus score, signature, rows and item scores of the table equal the Python items'
    (or the table raises the items' error, word for word)."""
    try:
        want = rapidbleu.items.score_items(items, metric)
    except errors.RapidBleuError as e:
        with pytest.raises(type(e)) as raised:
            rapidbleu.items.score_items(arrow_items, metric)
        assert str(raised.value) == str(e)
        return
    want_sig, want_nrefs = str(metric.get_signature()), metric.num_refs
    got = rapidbleu.items.score_items(arrow_items, metric)
    assert str(got) == str(want) and got.score == want.score
    assert str(metric.get_signature()) == want_sig and metric.num_refs == want_nrefs
    each = rapidbleu.items.score_each_item(arrow_items, metric)
    assert np.array_equal(each, rapidbleu.items.score_each_item(items, metric))
    cands, refs, per_segment = rapidbleu.items.item_inputs(arrow_items)
    pairs = [(it["candidate"], it["references"]) for it in items]
    py_cands, py_refs = rapidbleu.items.split_items(pairs)
    assert np.array_equal(
        metric.statistics(cands, refs, per_segment=per_segment),
        metric.statistics(py_cands, py_refs, per_segment=True),
    )


@pytest.mark.parametrize("text", TEXT_TYPES, ids=str)
@pytest.mark.parametrize("lists", ["list", "large_list"])
def test_real_items_score_as_the_mappings(text: Any, lists: str) -> None:
    items = real_items()
    arrow_items = table(items, text, lists)
    for metric in metrics():
        assert_same(metric, items, arrow_items)


def test_the_bleu_helpers_and_record_batches() -> None:
    items = real_items()
    t = table(items)
    assert rapidbleu.bleu(t) == rapidbleu.bleu(items)
    assert np.array_equal(rapidbleu.bleu_per_item(t), rapidbleu.bleu_per_item(items))
    # A stream of several record batches, a struct array, and a slice (the struct's offset).
    batches = pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=37))
    assert rapidbleu.bleu(batches) == rapidbleu.bleu(items)
    struct = pa.StructArray.from_arrays([c.chunk(0) for c in t.columns], names=t.column_names)
    assert rapidbleu.bleu(struct) == rapidbleu.bleu(items)
    assert rapidbleu.bleu(struct.slice(5, 50)) == rapidbleu.bleu(items[5:55])
    assert rapidbleu.bleu(t.slice(3, 40)) == rapidbleu.bleu(items[3:43])


def test_column_aliases_text_references_and_fixed_size_lists() -> None:
    items = real_items()[:60]
    one_ref = pa.table(
        {
            "prediction": [it["candidate"] for it in items],
            "reference": [REFS_A[i] for i in range(60)],
            "id": list(range(60)),  # other columns are ignored
        }
    )
    want = [{"candidate": it["candidate"], "references": [REFS_A[i]]} for i, it in enumerate(items)]
    for metric in metrics():  # PltrdyROUGE takes exactly one reference: here it scores
        assert_same(metric, want, one_ref)
    two = [[REFS_A[i], REFS_B[i]] for i in range(60)]
    fixed = pa.table(
        {
            "hypothesis": pa.array([it["candidate"] for it in items], pa.large_string()),
            "references": pa.FixedSizeListArray.from_arrays(
                pa.array([r for pair in two for r in pair], pa.string_view()), 2
            ),
        }
    )
    pairs = [(it["candidate"], refs) for it, refs in zip(items, two)]
    assert rapidbleu.bleu(fixed) == rapidbleu.bleu(pairs)
    assert rapidbleu.bleu(fixed.slice(7)) == rapidbleu.bleu(pairs[7:])


def test_a_datasets_table() -> None:
    import datasets

    items = real_items()[:80]
    ds = datasets.Dataset.from_list(items)
    assert rapidbleu.bleu(ds.data.table) == rapidbleu.bleu(items)
    assert rapidbleu.bleu(ds.with_format("arrow")[:]) == rapidbleu.bleu(items)


def test_a_polars_frame() -> None:
    # polars exports its own layouts (string_view, large_list) without pyarrow.
    import polars as pl

    items = real_items()[:80]
    frame = pl.DataFrame(
        {
            "candidate": [it["candidate"] for it in items],
            "references": [it["references"] for it in items],
        }
    )
    for metric in metrics():
        assert_same(metric, items, frame)


#: Any text Arrow can hold (not lone surrogates, which are not Unicode scalar values).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=examples(60), deadline=None)
@given(
    rows=st.lists(
        st.tuples(TEXT, st.lists(st.one_of(TEXT, st.none()), min_size=1, max_size=5)),
        min_size=1,
        max_size=8,
    ),
    text=st.sampled_from(TEXT_TYPES),
)
def test_any_unicode_items(rows: list[tuple[str, list[str | None]]], text: Any) -> None:
    items = [{"candidate": c, "references": r} for c, r in rows]
    arrow_items = table(items, text)
    for metric in [BLEU(), CHRF(), TER(), ROUGE(["rouge2"]), CIDErD(), COCORougeL()]:
        assert_same(metric, items, arrow_items)


def test_item_errors_name_the_item() -> None:
    def t(cands: list[Any], refs: list[Any], **kw: Any) -> Any:
        return pa.table({"candidate": pa.array(cands, pa.string()), "references": refs}, **kw)

    cases = [
        (t(["a", None], [["a"], ["b"]]), errors.InputError, "item 1: candidate is null"),
        (t(["a", "b"], [["a"], None]), errors.InputError, "item 1: references is null"),
        (t(["a", "b"], [["a"], []]), errors.InputError, "item 1 has no reference"),
        (t([], pa.array([], pa.list_(pa.string()))), errors.EmptyInputError, "no items"),
        (pa.table({"text": ["a"], "references": [["a"]]}), errors.InputError, "'candidate'"),
        (pa.table({"candidate": ["a"], "refs": [["a"]]}), errors.InputError, "'references'"),
        (t(["a"], [[1]]), errors.InputTypeError, "values of column 'references'"),
        (t(["a"], [1]), errors.InputTypeError, "expected a list of text"),
        (pa.table({"candidate": [1], "references": [["a"]]}), errors.InputTypeError, '"l"'),
        (pa.array(["a"]), errors.InputTypeError, "a table or a struct array"),
    ]
    for arrow_items, kind, message in cases:
        with pytest.raises(kind, match=message):
            rapidbleu.bleu(arrow_items)
    null_row = pa.StructArray.from_arrays(
        [pa.array(["a", "b"]), pa.array([["a"], ["b"]])],
        names=["candidate", "references"],
        mask=pa.array([False, True]),
    )
    with pytest.raises(errors.InputError, match="item 1 is null"):
        rapidbleu.bleu(null_row)
    # Bytes that are not UTF-8, in arrays built without pyarrow's check.
    offsets = pa.py_buffer(np.array([0, 1, 3], dtype=np.int32).tobytes())
    bad = pa.StringArray.from_buffers(2, offsets, pa.py_buffer(b"a\xff\xfe"))
    with pytest.raises(errors.InvalidTextError, match=r"item 1: candidate is not valid UTF-8"):
        rapidbleu.bleu(pa.table({"candidate": bad, "references": [["a"], ["b"]]}))
    refs = pa.ListArray.from_arrays(pa.array([0, 1, 2], pa.int32()), bad)
    with pytest.raises(errors.InvalidTextError, match=r"item 1: references\[0\] is not valid"):
        rapidbleu.bleu(pa.table({"candidate": ["a", "b"], "references": refs}))


def test_the_streams_outlive_the_table() -> None:
    t = table([{"candidate": "a b", "references": ["a b", "é 中文"]}])
    cands, streams, per_segment = rapidbleu.items.item_inputs(t)
    del t  # the lines hold the table's buffers
    assert (list(cands), [list(s) for s in streams], per_segment) == (
        ["a b"],
        [["a b"], ["é 中文"]],
        False,
    )


#: Arrow input in workers forked (and spawned) after the parent read Arrow input: the UTF-8
#: check ran on rayon's global pool, which has no threads in a forked child, and waited forever.
AFTER_FORK = """
import multiprocessing as mp
import pyarrow as pa
import rapidbleu
items = [{"candidate": f"猫 が {i}", "references": [f"猫 は {i}", "a b"]} for i in range(500)]
table = pa.Table.from_pylist(items)
def score(_=None):
    return rapidbleu.bleu(table).score, rapidbleu.bleu(items).score
if __name__ == "__main__":
    parent = score()
    for method in ("fork", "spawn"):
        with mp.get_context(method).Pool(2) as pool:
            assert pool.map(score, range(2)) == [parent, parent], method
"""


def test_workers_forked_after_the_parent_read_arrow(tmp_path: Any) -> None:
    program = tmp_path / "after_fork.py"  # a file: spawned workers import the main module
    program.write_text(AFTER_FORK, encoding="utf-8")
    done = subprocess.run([sys.executable, str(program)], timeout=180, capture_output=True)
    assert done.returncode == 0, done.stderr
