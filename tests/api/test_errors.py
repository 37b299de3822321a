"""Bad input raises a :mod:`rapidbleu.errors` exception that says what was wrong and what is
allowed; the classes also derive from the built-in exceptions (TypeError / ValueError) that
sacreBLEU-style code catches. No other exception type, and never a Rust panic
(``InternalError``), reaches the caller, whatever the input.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import pytest
from conftest import ANY_CHAR, PIECES, seeded
from hypothesis import currently_in_test_context, event, given
from hypothesis import strategies as st

import rapidbleu
from rapidbleu import BLEU, errors

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

# Both libraries log warnings (sentence BLEU without effective order, tokenized-looking
# input) thousands of times here.
pytestmark = pytest.mark.usefixtures("quiet_logs")


def test_hierarchy() -> None:
    E = errors
    assert issubclass(E.InvalidOptionError, ValueError)
    assert issubclass(E.InputError, ValueError)
    assert issubclass(E.InputTypeError, TypeError)
    for cls in (
        E.LengthMismatchError,
        E.EmptyInputError,
        E.InvalidTextError,
        E.MissingReferenceError,
    ):
        assert issubclass(cls, E.InputError) and issubclass(cls, ValueError)
    assert issubclass(E.MissingDependencyError, ImportError)
    assert issubclass(E.MissingModelError, FileNotFoundError)
    assert issubclass(E.InternalError, RuntimeError)
    # sacreBLEU's classes for the same mistakes (tests/dropin/test_fidelity.py).
    assert issubclass(E.EmptyInputError, IndexError)
    assert issubclass(E.NoReferencesError, (E.EmptyInputError, RuntimeError))
    assert issubclass(E.MissingReferenceError, TypeError)
    for name in E.__all__:
        assert issubclass(getattr(E, name), E.RapidBleuError)


# (id, call, exception class, builtin it must also be, substrings of the message)
CASES: list[tuple[str, Callable[[], Any], type, type, list[str]]] = [
    # lengths: sacreBLEU silently truncates (zip); rapidbleu refuses
    (
        "mismatch-first-stream",
        lambda: BLEU().corpus_score(["a", "b"], [["a"]]),
        errors.LengthMismatchError,
        ValueError,
        ["references[0]", "1", "2"],
    ),
    (
        "mismatch-second-stream",
        lambda: BLEU().corpus_score(["a", "b"], [["a", "b"], ["a", "b", "c"]]),
        errors.LengthMismatchError,
        ValueError,
        ["references[1]", "3", "2"],
    ),
    (
        "mismatch-compat",
        lambda: rapidbleu.corpus_bleu(["a", "b", "c"], [["a", "b"]]),
        errors.LengthMismatchError,
        ValueError,
        ["2", "3"],
    ),
    (
        "mismatch-cached",
        lambda: BLEU(references=[["a", "b"]]).corpus_score(["a"], None),
        errors.LengthMismatchError,
        ValueError,
        ["1", "2"],
    ),
    (
        "mismatch-cached-streams",
        lambda: BLEU(references=[["a", "b"], ["a"]]),
        errors.LengthMismatchError,
        ValueError,
        ["references[1]"],
    ),
    (
        "mismatch-sentence-scores",
        lambda: BLEU().sentence_scores(["a", "b"], [["a"]]),
        errors.LengthMismatchError,
        ValueError,
        ["references[0]"],
    ),
    # types
    (
        "int-hypothesis",
        lambda: BLEU().corpus_score(["a", 1], [["a", "b"]]),
        errors.InputTypeError,
        TypeError,
        ["hypotheses[1]", "int", "str"],
    ),
    (
        "bytes-hypothesis",
        lambda: BLEU().corpus_score([b"a"], [["a"]]),
        errors.InputTypeError,
        TypeError,
        ["hypotheses[0]", "bytes"],
    ),
    (
        "none-hypothesis",
        lambda: BLEU().corpus_score(["a", None], [["a", "b"]]),
        errors.InputTypeError,
        TypeError,
        ["hypotheses[1]", "NoneType"],
    ),
    (
        "float-reference",
        lambda: BLEU().corpus_score(["a", "b"], [["a", 1.5]]),
        errors.InputTypeError,
        TypeError,
        ["references[0][1]", "float", "None"],
    ),
    (
        "bytes-reference",
        lambda: BLEU().corpus_score(["a"], [["x"], [b"a"]]),
        errors.InputTypeError,
        TypeError,
        ["references[1][0]", "bytes"],
    ),
    (
        "str-as-hypotheses",
        lambda: BLEU().corpus_score("abc", [["a", "b", "c"]]),
        errors.InputTypeError,
        TypeError,
        ["hypotheses", "str"],
    ),
    (
        "str-as-references",
        lambda: BLEU().corpus_score(["a"], "a"),
        errors.InputTypeError,
        TypeError,
        ["references", "stream"],
    ),
    (
        "str-as-stream",
        lambda: BLEU().corpus_score(["a"], ["a"]),
        errors.ReferenceNestingError,  # an InputTypeError (issue 25: the fix is named)
        TypeError,
        ["flat list of 1 str", "references[k][i]", "references = [references]"],
    ),
    (
        "nested-per-segment",
        lambda: BLEU().corpus_score(["a", "b"], [["a"], ["b"]]),
        errors.ReferenceNestingError,  # a LengthMismatchError
        ValueError,
        ["2 lists of 1 for 2 hypotheses", "references[k][i]", "zip(*references)"],
    ),
    (
        "int-as-references",
        lambda: BLEU().corpus_score(["a"], 5),
        errors.InputTypeError,
        TypeError,
        ["references"],
    ),
    (
        "str-as-sentence-references",
        lambda: BLEU().sentence_score("a", "a"),
        errors.InputTypeError,
        TypeError,
        ["references"],
    ),
    (
        "int-sentence-hypothesis",
        lambda: BLEU().sentence_score(1, ["a"]),
        errors.InputTypeError,
        TypeError,
        ["hypothesis", "int"],
    ),
    (
        "bytes-sentence-bleu",
        lambda: rapidbleu.sentence_bleu(b"a", ["a"]),
        errors.InputTypeError,
        TypeError,
        ["hypothesis", "bytes"],
    ),
    (
        "int-sentence-reference",
        lambda: BLEU().sentence_score("a", ["a", 3]),
        errors.InputTypeError,
        TypeError,
        ["int"],
    ),
    (
        "generator-hypotheses",
        lambda: BLEU().corpus_score((x for x in ["a"]), [["a"]]),
        errors.InputTypeError,
        TypeError,
        ["hypotheses", "generator"],
    ),
    (
        "float-statistics",
        lambda: BLEU.compute_bleu([1.0, 1, 1, 1], [1, 1, 1, 1], 1, 1),
        errors.InputTypeError,
        TypeError,
        ["integer"],
    ),
    # empty input
    (
        "empty-corpus",
        lambda: BLEU().corpus_score([], [[]]),
        errors.EmptyInputError,
        ValueError,
        ["empty"],
    ),
    (
        "empty-references",
        lambda: BLEU().corpus_score(["a"], []),
        errors.EmptyInputError,
        ValueError,
        ["reference"],
    ),
    (
        "empty-sentence-references",
        lambda: BLEU().sentence_score("a", []),
        errors.EmptyInputError,
        ValueError,
        ["reference"],
    ),
    (
        "empty-cache-references",
        lambda: BLEU(references=[]),
        errors.EmptyInputError,
        ValueError,
        ["reference"],
    ),
    (
        "no-references-no-cache",
        lambda: BLEU().corpus_score(["a"], None),
        errors.NoReferencesError,  # an EmptyInputError, and a RuntimeError as sacreBLEU's
        RuntimeError,
        ["references=", "cache"],
    ),
    (
        "empty-compat",
        lambda: rapidbleu.corpus_bleu([], [[]]),
        errors.EmptyInputError,
        ValueError,
        ["empty"],
    ),
    # a segment without any reference
    (
        "all-none-segment",
        lambda: BLEU().corpus_score(["a", "b"], [["a", None], ["b", None]]),
        errors.MissingReferenceError,
        ValueError,
        ["segment 1", "None"],
    ),
    (
        "all-none-sentence",
        lambda: BLEU().sentence_score("a", [None, None]),
        errors.MissingReferenceError,
        ValueError,
        ["None"],
    ),
    (
        "all-none-cached",
        lambda: BLEU(references=[[None, "x"]]),
        errors.MissingReferenceError,
        ValueError,
        ["segment 0"],
    ),
    (
        "all-none-sentence-bleu",
        lambda: rapidbleu.sentence_bleu("a", [None]),
        errors.MissingReferenceError,
        ValueError,
        ["None"],
    ),
    # options
    (
        "smooth-method",
        lambda: BLEU(smooth_method="bogus"),
        errors.FailedOptionCheckError,
        ValueError,
        ["'bogus'", "none", "floor", "add-k", "exp"],
    ),
    (
        "smooth-method-compat",
        lambda: rapidbleu.corpus_bleu(["a"], [["a"]], smooth_method="Exp"),
        errors.FailedOptionCheckError,
        ValueError,
        ["'Exp'", "exp"],
    ),
    (
        "smooth-method-compute-bleu",
        lambda: BLEU.compute_bleu([1] * 4, [1] * 4, 1, 1, "bogus"),
        errors.InvalidOptionError,
        ValueError,
        ["'bogus'", "floor", "add-k"],
    ),
    (
        "tokenizer",
        lambda: BLEU(tokenize="bogus"),
        errors.UnknownNameError,
        ValueError,
        ["'bogus'", "none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab"],
    ),
    (
        "tokenizer-compat",
        lambda: rapidbleu.sentence_bleu("a", ["a"], tokenize="13A"),
        errors.UnknownNameError,
        ValueError,
        ["'13A'", "13a"],
    ),
    (
        "tokenizer-items",
        lambda: rapidbleu.bleu([("a", ["a"])], tokenize="moses"),
        errors.UnknownNameError,
        ValueError,
        ["'moses'", "13a"],
    ),
    *[
        (
            f"max-ngram-order-{v!r}",
            (lambda v=v: BLEU(max_ngram_order=v)),
            errors.InvalidOptionError,
            ValueError,
            ["max_ngram_order", repr(v)],
        )
        for v in (0, -1, 2.5, True, "4", None)
    ],
    (
        "max-ngram-order-items",
        lambda: rapidbleu.bleu_per_item([("a", ["a"])], max_ngram_order=0),
        errors.InvalidOptionError,
        ValueError,
        ["max_ngram_order"],
    ),
    *[
        (
            f"smooth-value-{v!r}",
            (lambda v=v: BLEU(smooth_method="floor", smooth_value=v)),
            errors.InvalidOptionError,
            ValueError,
            ["smooth_value", repr(v)],
        )
        for v in (-0.1, -1, math.inf, -math.inf, math.nan, "0.1", True)
    ],
    (
        "smooth-value-add-k",
        lambda: BLEU(smooth_method="add-k", smooth_value=float("nan")),
        errors.InvalidOptionError,
        ValueError,
        ["smooth_value"],
    ),
    (
        "smooth-value-compat",
        lambda: rapidbleu.raw_corpus_bleu(["a"], [["a"]], smooth_value=-1),
        errors.InvalidOptionError,
        ValueError,
        ["smooth_value"],
    ),
    (
        "num-threads",
        lambda: BLEU(num_threads=-1),
        errors.InvalidOptionError,
        ValueError,
        ["num_threads"],
    ),
    (
        # n_bootstrap > 1 resamples (issue 5) and 0 or 1 do not, as in sacreBLEU; not an int
        # is an error (sacreBLEU fails with a TypeError on the comparison).
        "n-bootstrap-str",
        lambda: BLEU().corpus_score(["a"], [["a"]], n_bootstrap="1000"),
        errors.InvalidOptionError,
        ValueError,
        ["n_bootstrap", "'1000'"],
    ),
    (
        "n-bootstrap-float",
        lambda: BLEU().corpus_score(["a"], [["a"]], n_bootstrap=2.0),
        errors.InvalidOptionError,
        ValueError,
        ["n_bootstrap"],
    ),
    (
        "scale",
        lambda: rapidbleu.bleu([("a", ["a"])], scale="percentage"),
        errors.InvalidOptionError,
        ValueError,
        ["'percentage'", "unit", "percent"],
    ),
    # text that is not valid Unicode
    (
        "surrogate-hypothesis",
        lambda: BLEU().corpus_score(["ok", "a\ud800b"], [["a", "b"]]),
        errors.InvalidTextError,
        ValueError,
        ["hypotheses[1]", "surrogate"],
    ),
    (
        "surrogate-reference",
        lambda: BLEU().corpus_score(["a"], [["x"], ["\udfff"]]),
        errors.InvalidTextError,
        ValueError,
        ["references[1][0]", "surrogate"],
    ),
    (
        "surrogate-lowercase",
        lambda: BLEU(lowercase=True).corpus_score(["A\udc80"], [["a"]]),
        errors.InvalidTextError,
        ValueError,
        ["hypotheses[0]", "surrogate"],
    ),
    (
        "surrogate-sentence",
        lambda: rapidbleu.sentence_bleu("\ud83d", ["a"]),
        errors.InvalidTextError,
        ValueError,
        ["surrogate"],
    ),
    (
        "surrogate-cached",
        lambda: BLEU(references=[["a\ud800"]]),
        errors.InvalidTextError,
        ValueError,
        ["surrogate"],
    ),
    (
        "surrogate-items",
        lambda: rapidbleu.bleu([("a", ["\ud800"])]),
        errors.InvalidTextError,
        ValueError,
        ["surrogate"],
    ),
    (
        "surrogate-char-tokenizer",
        lambda: BLEU(tokenize="char").corpus_score(["\ud800"], [["a"]]),
        errors.InvalidTextError,
        ValueError,
        ["surrogate"],
    ),
    # signature before the number of references is known
    (
        "signature-before-scoring",
        lambda: BLEU().get_signature(),
        errors.InputError,
        ValueError,
        ["evaluate", "first"],
    ),
    # statistics
    (
        "compute-bleu-too-few-orders",
        lambda: BLEU.compute_bleu([1], [1], 1, 1),
        errors.InputError,
        ValueError,
        ["max_ngram_order", "4"],
    ),
]


@pytest.mark.parametrize(
    ("call", "cls", "builtin", "fragments"), [pytest.param(*c[1:], id=c[0]) for c in CASES]
)
def test_bad_input(call: Callable[[], Any], cls: type, builtin: type, fragments: list[str]) -> None:
    with pytest.raises(cls) as info:
        call()
    e = info.value
    assert type(e) is cls, f"expected exactly {cls.__name__}, got {type(e).__name__}: {e}"
    assert isinstance(e, builtin) and isinstance(e, errors.RapidBleuError)
    msg = str(e)
    missing = [f for f in fragments if f not in msg]
    assert not missing, f"message lacks {missing}: {msg!r}"


def test_negative_statistics_raise() -> None:
    """sacreBLEU fails on negative counts (math.log of a negative precision: ValueError);
    rapidbleu must not silently return NaN."""
    with pytest.raises(ValueError):
        SacreBLEU.compute_bleu([-1] * 4, [1] * 4, 1, 1)
    with pytest.raises(errors.InputError, match=r"negative|>= 0|non-negative"):
        BLEU.compute_bleu([-1] * 4, [1] * 4, 1, 1)


def test_huge_statistics() -> None:
    """Counts beyond int64 (sacreBLEU's Python ints take them): a score or a RapidBleuError,
    never a bare OverflowError."""
    big = 2**70
    theirs = SacreBLEU.compute_bleu([big] * 4, [big] * 4, big, big)
    try:
        ours = BLEU.compute_bleu([big] * 4, [big] * 4, big, big)
    except errors.RapidBleuError:
        return
    assert ours.score == theirs.score


def test_sacrebleu_truncates_silently() -> None:
    """The behaviour rapidbleu deliberately refuses (sacreBLEU issues #220, #281)."""
    s = SacreBLEU().corpus_score(["a b c d", "x y"], [["a b c d"]])
    assert s.sys_len == 4  # the second hypothesis was dropped without a word
    with pytest.raises(errors.LengthMismatchError):
        BLEU().corpus_score(["a b c d", "x y"], [["a b c d"]])


def test_errors_do_not_poison_the_metric() -> None:
    """After an error, the same BLEU object still scores correctly."""
    m = BLEU()
    with pytest.raises(errors.LengthMismatchError):
        m.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(errors.InputTypeError):
        m.corpus_score([1], [["a"]])
    assert m.corpus_score(["a b c d"], [["a b c d"]]).score == 100.00000000000004
    cached = BLEU(references=[["a b c d"]])
    with pytest.raises(errors.LengthMismatchError):
        cached.corpus_score(["a", "b"], None)
    assert cached.corpus_score(["a b c d"], None).score == 100.00000000000004


# --- no panic reaches Python -----------------------------------------------------------------

NASTY_CHARS = st.one_of(
    ANY_CHAR,
    st.sampled_from(
        ["\x00", "\uffff", "\ufffe", "\U0010ffff", "\U000e0001", "\u0000\u0000", "\u200b", "\ufeff"]
    ),
    st.sampled_from(PIECES),
    st.sampled_from(
        [
            " ",
            "\t",
            "\n",
            "\r",
            "\x0b",
            "\x0c",
            "\x1c",
            "\x1d",
            "\x1e",
            "\x1f",
            "\x85",
            "\xa0",
            "\u1680",
            "\u2000",
            "\u2007",
            "\u2028",
            "\u2029",
            "\u202f",
            "\u205f",
            "\u3000",
        ]
    ),
)


def _nasty_lines(max_repeat: int) -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(NASTY_CHARS, max_size=60).map("".join),
        st.builds(
            lambda piece, k: piece * k,
            st.lists(NASTY_CHARS, min_size=1, max_size=4).map("".join),
            st.integers(1, max_repeat),
        ),
        st.just(""),
    )


NASTY_LINE = _nasty_lines(3000)
NASTY_LINE_SHORT = _nasty_lines(200)
# Anything that might be passed where a str is expected.
JUNK = st.one_of(
    st.integers(),
    st.floats(),
    st.binary(max_size=4),
    st.none(),
    st.just([]),
    st.just(["a"]),
    st.just({"a": 1}),
)
ITEM = st.integers(0, 9).flatmap(lambda k: JUNK if k == 0 else NASTY_LINE)
OPTIONS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(["none", "13a", "intl", "zh", "char"]),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "smooth_value": st.one_of(
            st.none(),
            st.sampled_from([0, 0.0, 5e-324, 1e-300, 1e308, 2**70, 1.7976931348623157e308]),
        ),
        "effective_order": st.booleans(),
        "max_ngram_order": st.sampled_from([1, 2, 4, 7, 50]),
    }
)


def _only_rapidbleu_errors(f: Callable[[], Any]) -> Any:
    try:
        out = f()
    except errors.InternalError as e:  # a Rust panic caught at the boundary: a bug
        pytest.fail(f"InternalError (Rust panic): {e}")
    except errors.RapidBleuError as e:
        if currently_in_test_context():
            event(type(e).__name__)
        return None
    except Exception as e:
        pytest.fail(f"{type(e).__name__} is not a rapidbleu error: {e}")
    if currently_in_test_context():
        event("a result")
    return out


@seeded("hammer", 500)
@given(
    hyps=st.lists(ITEM, max_size=6),
    refs=st.one_of(
        st.lists(st.lists(ITEM, max_size=6), max_size=3),
        st.lists(st.lists(ITEM, min_size=1, max_size=1), min_size=1, max_size=3),
        JUNK,
        NASTY_LINE,
    ),
    opts=OPTIONS,
    cached=st.booleans(),
)
def test_no_foreign_exception(hyps: Any, refs: Any, opts: dict[str, Any], cached: bool) -> None:
    def run() -> None:
        m = BLEU(**opts, references=refs) if cached else BLEU(**opts)
        s = m.corpus_score(hyps, None if cached else refs)
        assert isinstance(s.score, float)
        m.get_signature().format()

    _only_rapidbleu_errors(run)
    _only_rapidbleu_errors(lambda: BLEU(**opts).sentence_scores(hyps, refs))
    if hyps:
        _only_rapidbleu_errors(lambda: BLEU(**opts).sentence_score(hyps[0], refs))
    _only_rapidbleu_errors(
        lambda: rapidbleu.bleu(list(zip(hyps, refs if isinstance(refs, list) else [refs])))
    )
    _only_rapidbleu_errors(
        lambda: rapidbleu.bleu_per_item([{"candidate": h, "references": refs} for h in hyps])
    )


@seeded("hammer-valid", 120)
@given(
    hyps=st.lists(NASTY_LINE_SHORT, min_size=1, max_size=4),
    nrefs=st.integers(1, 3),
    data=st.data(),
    opts=OPTIONS,
)
def test_nasty_valid_input_scores_like_sacrebleu(
    hyps: list[str], nrefs: int, data: Any, opts: dict[str, Any]
) -> None:
    """Valid but nasty text and extreme options: a score, equal to sacreBLEU's."""
    refs = [
        data.draw(st.lists(NASTY_LINE_SHORT, min_size=len(hyps), max_size=len(hyps)))
        for _ in range(nrefs)
    ]
    ours = _only_rapidbleu_errors(lambda: BLEU(**opts).corpus_score(hyps, refs))
    assert ours is not None
    theirs = SacreBLEU(**opts).corpus_score(hyps, refs)
    if math.isnan(theirs.score):
        assert math.isnan(ours.score)
    else:
        assert (ours.score, ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
            theirs.score,
            theirs.counts,
            theirs.totals,
            theirs.sys_len,
            theirs.ref_len,
        )


@pytest.mark.parametrize("tok", ["none", "13a", "intl", "zh", "char"])
def test_very_long_lines(tok: str) -> None:
    """A 100k-token line, a 1 MB line without spaces, 100k whitespace characters of every kind."""
    words = " ".join(f"w{i % 997}" for i in range(100_000))
    spaces = "".join([" ", "\t", "\xa0", "\u3000", "\u2028", "\x1f"] * 20_000)
    blob = "x" * 1_000_000
    nul = "\x00 " * 50_000
    hyps = [words, blob, spaces, nul, words[::-1]]
    refs = [[words, blob[:-1], "", nul, words]]
    for order in (4, 50):
        metric = BLEU(tokenize=tok, max_ngram_order=order)
        s = _only_rapidbleu_errors(lambda m=metric: m.corpus_score(hyps, refs))
        assert s is not None and 0.0 <= s.score <= 100.00000000000004 + 1e-9
    if tok in ("none", "13a"):  # sacreBLEU is slow on these; two tokenizers suffice
        theirs = SacreBLEU(tokenize=tok).corpus_score(hyps, refs)
        ours = BLEU(tokenize=tok).corpus_score(hyps, refs)
        assert (ours.score, ours.counts, ours.totals) == (
            theirs.score,
            theirs.counts,
            theirs.totals,
        )
