"""The per-item API: ``rapidbleu.bleu``, ``rapidbleu.bleu_per_item`` and ``BleuResult``.

Items are ``{"candidate": str, "references": [str, ...]}`` mappings or ``(candidate,
references)`` pairs, each with its own number of references. The oracle is sacreBLEU with the
references laid out as streams padded with ``None`` (``nrefs:var``); the unit scale is
sacreBLEU's score divided by 100.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest
from conftest import assert_same_score, corpora, seeded, strip_version
from hypothesis import given
from hypothesis import strategies as st

import rapidbleu
from rapidbleu import errors

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

# Both libraries log warnings (sentence BLEU without effective order, tokenized-looking
# input) thousands of times here.
pytestmark = pytest.mark.usefixtures("quiet_logs")


ITEMS = [
    {
        "candidate": "The cat sat on the mat.",
        "references": ["The cat is on the mat.", "A cat sat on a mat."],
    },
    {"candidate": "Hello world", "references": ["Hello world"]},
    {
        "candidate": "It wasn't surprising.",
        "references": ["It was not unexpected.", "No one was surprised.", "Hm."],
    },
    {"candidate": "", "references": ["Nothing here"]},
]


def _streams(
    items: list[tuple[str, list[str | None]]],
) -> tuple[list[str], list[list[str | None]]]:
    """sacreBLEU's layout: streams padded with None where an item has fewer references."""
    k = max(len(refs) for _, refs in items)
    hyps = [c for c, _ in items]
    streams = [[refs[j] if j < len(refs) else None for _, refs in items] for j in range(k)]
    return hyps, streams


def _pairs(items: list[dict[str, Any]]) -> list[tuple[str, list[str | None]]]:
    return [(it["candidate"], list(it["references"])) for it in items]


def test_bleu_against_sacrebleu() -> None:
    hyps, streams = _streams(_pairs(ITEMS))
    sacre = SacreBLEU()
    theirs = sacre.corpus_score(hyps, streams)
    p = rapidbleu.bleu(ITEMS, scale="percent")
    assert p.scale == "percent"
    assert p.score == theirs.score and list(p.precisions) == theirs.precisions
    assert p.brevity_penalty == theirs.bp
    assert (p.hyp_len, p.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert (list(p.counts), list(p.totals)) == (theirs.counts, theirs.totals)
    assert p.length_ratio == theirs.ratio
    assert strip_version(p.signature) == sacre.get_signature().format()
    assert "nrefs:var" in p.signature

    r = rapidbleu.bleu(ITEMS)  # the default scale: unit
    assert r.scale == "unit"
    assert r.brevity_penalty == theirs.bp  # the brevity penalty is 0..1 on both scales
    assert (r.counts, r.totals, r.signature, r.hyp_len, r.ref_len) == (
        p.counts,
        p.totals,
        p.signature,
        p.hyp_len,
        p.ref_len,
    )


def test_bleu_per_item_against_sacrebleu() -> None:
    expected = [sacrebleu.sentence_bleu(it["candidate"], it["references"]).score for it in ITEMS]
    per = rapidbleu.bleu_per_item(ITEMS, scale="percent")
    assert isinstance(per, np.ndarray) and per.dtype == np.float64 and per.shape == (len(ITEMS),)
    assert per.tolist() == expected
    # effective_order defaults to on for per-item scores (as sentence_bleu), off for bleu().
    no_eff = [SacreBLEU().sentence_score(it["candidate"], it["references"]).score for it in ITEMS]
    assert rapidbleu.bleu_per_item(ITEMS, effective_order=False, scale="percent").tolist() == no_eff


def test_unit_scale_is_sacrebleu_over_100() -> None:
    """The module says: "they are sacreBLEU's scores divided by 100"; x / 100 != x * 0.01 for
    about 15% of floats, so this needs an actual division."""
    hyps, streams = _streams(_pairs(ITEMS))
    theirs = SacreBLEU().corpus_score(hyps, streams)
    r = rapidbleu.bleu(ITEMS)
    assert r.score == theirs.score / 100
    assert list(r.precisions) == [p / 100 for p in theirs.precisions]
    expected = [sacrebleu.sentence_bleu(it["candidate"], it["references"]).score for it in ITEMS]
    assert rapidbleu.bleu_per_item(ITEMS).tolist() == [s / 100 for s in expected]


def test_item_shapes_are_equivalent() -> None:
    """Mappings, tuples, lists, a single reference as a plain str, any iterable of items."""
    as_dicts = [
        {"candidate": "a b c d", "references": ["a b c d"]},
        {"candidate": "x y", "references": ["x z"]},
    ]
    as_pairs = [("a b c d", ["a b c d"]), ("x y", ["x z"])]
    as_lists = [["a b c d", ["a b c d"]], ["x y", ("x z",)]]
    as_strs = [("a b c d", "a b c d"), {"candidate": "x y", "references": "x z"}]
    as_gen = (p for p in as_pairs)
    results = [
        rapidbleu.bleu(x) for x in (as_dicts, as_pairs, as_lists, as_strs, as_gen, tuple(as_pairs))
    ]
    assert all(r == results[0] for r in results), results
    per = [rapidbleu.bleu_per_item(x).tolist() for x in (as_dicts, as_pairs, as_lists, as_strs)]
    assert all(p == per[0] for p in per)
    assert "nrefs:1" in results[0].signature


def test_single_string_reference_is_one_reference_not_characters() -> None:
    r = rapidbleu.bleu([("a b c d", "a b c d")], scale="percent")
    assert r.score == 100.00000000000004
    assert "nrefs:1|" in r.signature


def test_variable_number_of_references() -> None:
    items = [
        ("a b c d e", ["a b c d e"]),
        ("f g h i", ["f g h", "f g h i", "x"]),
        ("j", ["j k", "j"]),
    ]
    r = rapidbleu.bleu(items, scale="percent")
    hyps, streams = _streams(items)
    sacre = SacreBLEU()
    assert r.score == sacre.corpus_score(hyps, streams).score
    assert strip_version(r.signature) == sacre.get_signature().format()
    assert r.signature.startswith("nrefs:var|")
    # The same number everywhere gives that number.
    same = rapidbleu.bleu([("a", ["a", "b"]), ("c", ["c", "d"])])
    assert same.signature.startswith("nrefs:2|")


def test_none_references_inside_an_item_are_skipped() -> None:
    with_none = [("a b c d", [None, "a b c d"]), ("x y", ["x y", None])]
    without = [("a b c d", ["a b c d"]), ("x y", ["x y"])]
    assert rapidbleu.bleu(with_none).score == rapidbleu.bleu(without).score
    assert rapidbleu.bleu_per_item(with_none).tolist() == rapidbleu.bleu_per_item(without).tolist()


def test_options_reach_the_metric() -> None:
    items = [
        ("Das ist EIN Test , oder ?", ["das ist ein Test, oder?"]),
        ("中文测试。", ["中文测试"]),
    ]
    hyps, streams = _streams(items)
    for opts in (
        {"tokenize": "intl"},
        {"lowercase": True},
        {"tokenize": "char", "smooth_method": "floor", "smooth_value": 0.2},
        {"smooth_method": "add-k", "smooth_value": 3},
        {"smooth_method": "none", "effective_order": True},
        {"max_ngram_order": 2},
        {"max_ngram_order": 6, "tokenize": "char"},
        {"tokenize": "zh"},
    ):
        sacre = SacreBLEU(**opts)
        theirs = sacre.corpus_score(hyps, streams)
        r = rapidbleu.bleu(items, **opts, scale="percent")
        assert (r.score, list(r.precisions), r.brevity_penalty) == (
            theirs.score,
            theirs.precisions,
            theirs.bp,
        ), opts
        assert strip_version(r.signature) == sacre.get_signature().format(), opts
        sent = SacreBLEU(**{"effective_order": True, **opts})
        expected = [sent.sentence_score(c, refs).score for c, refs in items]
        assert rapidbleu.bleu_per_item(items, **opts, scale="percent").tolist() == expected, opts


def test_trg_lang_picks_the_tokenizer() -> None:
    r = rapidbleu.bleu([("中文测试。", ["中文测试"])], trg_lang="zh")
    assert "|tok:zh|" in r.signature
    assert "|tok:13a|" in rapidbleu.bleu([("a", ["a"])], trg_lang="de").signature
    assert "|tok:intl|" in rapidbleu.bleu([("a", ["a"])], trg_lang="zh", tokenize="intl").signature


def test_to_dict() -> None:
    r = rapidbleu.bleu(ITEMS)
    d = r.to_dict()
    assert d == {
        "bleu": r.score,
        "precisions": list(r.precisions),
        "brevity_penalty": r.brevity_penalty,
        "length_ratio": r.length_ratio,
        "hyp_len": r.hyp_len,
        "ref_len": r.ref_len,
        "counts": list(r.counts),
        "totals": list(r.totals),
        "signature": r.signature,
        "scale": "unit",
    }
    assert json.loads(json.dumps(d)) == d  # JSON-ready, floats round-trip exactly
    assert rapidbleu.bleu([("a b c d", ["a b c d"])]).to_dict()["bleu"] == 1.0000000000000004
    assert rapidbleu.bleu(ITEMS, scale="percent").to_dict()["scale"] == "percent"


def test_result_is_frozen() -> None:
    r = rapidbleu.bleu(ITEMS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.score = 1.0  # type: ignore[misc]
    assert r.length_ratio == (r.hyp_len / r.ref_len)
    empty_ref = rapidbleu.bleu([("a", [""])])
    assert empty_ref.ref_len == 0 and empty_ref.length_ratio == 0.0


@seeded("items-parity", 150)
@given(
    corpus=st.integers(1, 4).flatmap(lambda k: corpora(k)),
    eff=st.booleans(),
    tok=st.sampled_from(["13a", "intl", "char"]),
)
def test_items_parity_generated(corpus: Any, eff: bool, tok: str) -> None:
    """Generated corpora with None holes: bleu(items) == sacreBLEU on the padded streams."""
    hyps, refs = corpus
    items = [
        {"candidate": h, "references": [r[i] for r in refs if r[i] is not None]}
        for i, h in enumerate(hyps)
    ]
    sacre = SacreBLEU(tokenize=tok, effective_order=eff)
    theirs = sacre.corpus_score(hyps, refs)
    r = rapidbleu.bleu(items, tokenize=tok, effective_order=eff, scale="percent")
    assert (r.score, list(r.counts), list(r.totals), r.hyp_len, r.ref_len) == (
        theirs.score,
        theirs.counts,
        theirs.totals,
        theirs.sys_len,
        theirs.ref_len,
    )
    metric = rapidbleu.BLEU(tokenize=tok, effective_order=eff)
    assert_same_score(metric.corpus_score(hyps, refs), theirs)
    sent = SacreBLEU(tokenize=tok, effective_order=True)
    expected = [sent.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    assert rapidbleu.bleu_per_item(items, tokenize=tok, scale="percent").tolist() == expected


# --- malformed items: the error names the item --------------------------------------------------

GOOD = {"candidate": "a b", "references": ["a b"]}
BAD_ITEMS = [
    (
        "missing-candidate",
        [GOOD, {"references": ["x"]}],
        errors.InputError,
        ["item 1", "candidate"],
    ),
    (
        "missing-references",
        [GOOD, GOOD, {"candidate": "x"}],
        errors.InputError,
        ["item 2", "references"],
    ),
    (
        "typo-key",
        [{"candidat": "x", "references": ["x"]}],
        errors.InputError,
        ["item 0", "candidate"],
    ),
    ("references-int", [GOOD, ("x", 5)], errors.InputTypeError, ["item 1", "int"]),
    ("references-bytes", [GOOD, ("x", b"x")], errors.InputTypeError, ["item 1", "bytes"]),
    ("references-empty", [GOOD, ("x", [])], errors.InputError, ["item 1", "reference"]),
    ("item-int", [GOOD, 7], errors.InputTypeError, ["item 1", "int"]),
    ("item-str", [GOOD, "just a string"], errors.InputTypeError, ["item 1", "str"]),
    ("item-triple", [GOOD, ("a", ["a"], "extra")], errors.InputTypeError, ["item 1", "pair"]),
    (
        "candidate-int",
        [GOOD, {"candidate": 3, "references": ["x"]}],
        errors.InputTypeError,
        ["item 1", "int"],
    ),
    ("candidate-none", [GOOD, (None, ["x"])], errors.InputTypeError, ["item 1", "NoneType"]),
    ("reference-int", [GOOD, ("x", ["x", 4])], errors.InputTypeError, ["item 1", "int"]),
    ("references-all-none", [GOOD, ("x", [None])], errors.MissingReferenceError, ["1"]),
    ("candidate-surrogate", [GOOD, ("\ud800", ["x"])], errors.InvalidTextError, ["1", "surrogate"]),
    ("no-items", [], errors.EmptyInputError, ["no items"]),
]


@pytest.mark.parametrize(
    "func", [rapidbleu.bleu, rapidbleu.bleu_per_item], ids=["bleu", "bleu_per_item"]
)
@pytest.mark.parametrize(
    ("items", "cls", "fragments"), [pytest.param(*c[1:], id=c[0]) for c in BAD_ITEMS]
)
def test_malformed_items(func: Any, items: list[Any], cls: type, fragments: list[str]) -> None:
    with pytest.raises(cls) as info:
        func(items)
    msg = str(info.value)
    assert type(info.value) is cls, f"{type(info.value).__name__}: {msg}"
    missing = [f for f in fragments if f not in msg]
    assert not missing, f"message lacks {missing}: {msg!r}"


@pytest.mark.parametrize("items", ["a b", b"a b", {"candidate": "a", "references": ["a"]}, 5])
def test_items_container_type(items: Any) -> None:
    with pytest.raises(errors.InputTypeError) as info:
        rapidbleu.bleu(items)
    assert "items" in str(info.value)


def test_bad_scale() -> None:
    for func in (rapidbleu.bleu, rapidbleu.bleu_per_item):
        with pytest.raises(errors.InvalidOptionError, match=r"unit.*percent"):
            func([GOOD], scale="percentage")
