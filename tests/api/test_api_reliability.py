"""Regression tests of the reliability issue's API findings, with its own reproductions.

- Finding 4: a padded 2-D batch of token IDs is never read whole; every entry point that takes
  2-D arrays accepts ``pad_id=`` and ``lengths=``, and without them refuses the array with a
  message that names ``pad_id``; :func:`rapidbleu.metrics.bleu.tokens.token_statistics` needs
  its layout.
- Finding 7: each raw exception the issue lists is a :mod:`rapidbleu.errors` exception.
- Finding 8: one rule for lone surrogates (text and tokens), generators (hypotheses and
  references alike), NumPy integers as options, and masked arrays (their mask is honoured).

The command's findings (3, 6, ``--per-item`` JSON) are in ``test_cli_reliability.py``; NLTK's
non-finite batch (finding 5) in ``test_nltk_nonfinite.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
import sacrebleu

import rapidbleu
from rapidbleu import BLEU, errors
from rapidbleu.analysis import significance
from rapidbleu.analysis.pairwise import mbr_select
from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.evaluate import nmt_bleu
from rapidbleu.evaluate.gleu import corpus_gleu
from rapidbleu.metrics.bleu.tokens import token_statistics

# A batch padded with 0 on the right (and one row on the left), and its references.
SEQS = [[5, 6, 7, 8, 9, 10], [5, 6, 7], [11, 12, 13, 14]]
REFS = [[5, 6, 7, 8, 9, 11], [5, 6, 7, 4], [11, 12, 13, 14, 15]]
BATCH = np.array([[5, 6, 7, 8, 9, 10], [5, 6, 7, 0, 0, 0], [0, 0, 11, 12, 13, 14]])
LENGTHS = [6, 3, 6]  # row 2 is left-padded: lengths cannot express it, pad_id can
STREAM = np.array([[5, 6, 7, 8, 9, 11], [5, 6, 7, 4, 0, 0], [11, 12, 13, 14, 15, 0]])
PER_SEG = [[r] for r in REFS]


def _text(seqs: Any) -> list[str]:
    return [" ".join(map(str, s)) for s in seqs]


#: (name, call with the padded batch and **layout, call with plain lists): each entry point
#: that takes 2-D arrays.
ENTRY_POINTS: list[tuple[str, Callable[..., Any], Callable[[], Any]]] = [
    (
        "corpus_bleu",
        lambda **kw: rapidbleu.corpus_bleu(BATCH, [STREAM], **kw).score,
        lambda: rapidbleu.corpus_bleu(SEQS, [REFS]).score,
    ),
    (
        "BLEU.corpus_score",
        lambda **kw: BLEU().corpus_score(BATCH, [STREAM], **kw).score,
        lambda: BLEU().corpus_score(SEQS, [REFS]).score,
    ),
    (
        "BLEU.sentence_scores",
        lambda **kw: BLEU().sentence_scores(BATCH, [STREAM], **kw).tolist(),
        lambda: BLEU().sentence_scores(SEQS, [REFS]).tolist(),
    ),
    (
        "BLEU.statistics",
        lambda **kw: BLEU().statistics(BATCH, [STREAM], **kw).tolist(),
        lambda: BLEU().statistics(SEQS, [REFS]).tolist(),
    ),
    (
        "BLEU.statistics",
        lambda **kw: BLEU().statistics(BATCH, [STREAM], **kw).tolist(),
        lambda: BLEU().statistics(SEQS, [REFS]).tolist(),
    ),
    (
        "nltk.corpus_bleu",
        lambda **kw: rb_nltk.corpus_bleu(PER_SEG, BATCH, **kw),
        lambda: rb_nltk.corpus_bleu(PER_SEG, SEQS),
    ),
    (
        "nltk.corpus_score",
        lambda **kw: rb_nltk.corpus_score(PER_SEG, BATCH, **kw).score,
        lambda: rb_nltk.corpus_score(PER_SEG, SEQS).score,
    ),
    (
        "nltk.sentence_bleu_batch",
        lambda **kw: rb_nltk.sentence_bleu_batch(PER_SEG, BATCH, **kw).tolist(),
        lambda: rb_nltk.sentence_bleu_batch(PER_SEG, SEQS).tolist(),
    ),
    (
        "nmt_bleu.compute",
        lambda **kw: nmt_bleu.compute(BATCH, PER_SEG, **kw)["bleu"],
        lambda: nmt_bleu.compute(SEQS, PER_SEG)["bleu"],
    ),
    (
        "nmt_bleu.compute_bleu",
        lambda **kw: nmt_bleu.compute_bleu(PER_SEG, BATCH, **kw)[0],
        lambda: nmt_bleu.compute_bleu(PER_SEG, SEQS)[0],
    ),
    (
        "gleu.corpus_gleu",
        lambda **kw: corpus_gleu(PER_SEG, BATCH, **kw),
        lambda: corpus_gleu(PER_SEG, SEQS),
    ),
]


@pytest.mark.parametrize("name,padded,plain", ENTRY_POINTS, ids=[e[0] for e in ENTRY_POINTS])
def test_padded_batches_need_and_honour_pad_id(name: str, padded: Any, plain: Any) -> None:
    """Finding 4: a padded batch scored its padding (48.89 instead of 71.44)."""
    assert padded(pad_id=0) == plain()
    with pytest.raises(errors.InputError, match="pad_id"):
        padded()


def test_padded_batch_with_lengths() -> None:
    rows = [list(r[:n]) for r, n in zip(BATCH.tolist(), LENGTHS)]
    want = rapidbleu.corpus_bleu(rows, [REFS]).score
    ref_lengths = [[6, 4, 5]]
    assert rapidbleu.corpus_bleu(
        BATCH, [STREAM], lengths=LENGTHS, ref_lengths=ref_lengths
    ).score == (want)
    # The same scores as sacreBLEU on the IDs written as words.
    assert want == sacrebleu.corpus_bleu(_text(rows), [_text(REFS)]).score


def test_sentence_entry_points_take_a_2d_reference_array() -> None:
    refs = np.array([[5, 6, 7, 4, 0], [5, 6, 7, 8, 9]])
    want = rapidbleu.sentence_bleu([5, 6, 7, 8], [[5, 6, 7, 4], [5, 6, 7, 8, 9]]).score
    assert rapidbleu.sentence_bleu([5, 6, 7, 8], refs, pad_id=0).score == want
    assert BLEU().sentence_score([5, 6, 7, 8], refs, ref_lengths=[4, 5]).score == want
    nltk_want = rb_nltk.sentence_bleu([[5, 6, 7, 4], [5, 6, 7, 8, 9]], [5, 6, 7, 8])
    assert rb_nltk.sentence_bleu(refs, [5, 6, 7, 8], pad_id=0) == nltk_want
    with pytest.raises(errors.InputError, match="pad_id"):
        rapidbleu.sentence_bleu([5, 6, 7, 8], refs)


def test_token_statistics_layout_is_explicit() -> None:
    """``token_statistics(h, [r], pad_id=0)`` raised LengthMismatchError (NLTK's layout was
    assumed); the layout is now a required, named choice."""
    with pytest.raises(errors.InvalidOptionError, match="per_segment"):
        token_statistics(BATCH, [STREAM], pad_id=0)
    streams = token_statistics(BATCH, [STREAM], pad_id=0, per_segment=False)[0]
    per_segment = token_statistics(SEQS, PER_SEG, per_segment=True)[0]
    assert streams.tolist() == per_segment.tolist()


def test_layout_options_on_text_are_refused() -> None:
    with pytest.raises(errors.InvalidOptionError, match="text"):
        BLEU().corpus_score(["a b"], [["a b"]], pad_id=0)


# -- finding 7: raw exceptions -> rapidbleu.errors --------------------------------------------

_SYS = [["a b c d e"], ["a b c d x"]]
_REF = [["a b c d e"]]

RAW_EXCEPTIONS: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    (
        "pad_id=1.0",
        lambda: rapidbleu.corpus_bleu(BATCH, [STREAM], pad_id=1.0),
        errors.InvalidOptionError,
        "pad_id must be an integer",
    ),
    (
        "pad_id='0'",
        lambda: rapidbleu.corpus_bleu(BATCH, [STREAM], pad_id="0"),
        errors.InvalidOptionError,
        "pad_id",
    ),
    (
        "pad_id=2**70",
        lambda: rapidbleu.corpus_bleu(BATCH, [STREAM], pad_id=2**70),
        errors.InvalidOptionError,
        "2\\*\\*63",
    ),
    (
        "lengths=[2**64]",
        lambda: token_statistics(np.array([[1, 2]]), [[[1, 2]]], lengths=[2**64], per_segment=True),
        errors.InvalidOptionError,
        "lengths\\[0\\]",
    ),
    (
        "num_threads=-1",
        lambda: BLEU(num_threads=-1).corpus_score(["a"], [["a"]]),
        errors.InvalidOptionError,
        "num_threads",
    ),
    (
        "num_threads=2**64",
        lambda: BLEU(num_threads=2**64).corpus_score(["a"], [["a"]]),
        errors.InvalidOptionError,
        "num_threads",
    ),
    (
        "lowercase=array",  # a truth value is taken (issue 25, finding 5); none here
        lambda: BLEU(lowercase=np.array([1, 2])),
        errors.InvalidOptionError,
        "lowercase",
    ),
    (
        "estimate_ci([])",
        lambda: significance.estimate_ci(np.array([])),
        errors.InvalidOptionError,
        "at least one",
    ),
    (
        "Score.estimate_ci([])",
        lambda: BLEU().corpus_score(["a"], [["a"]]).estimate_ci([]),
        errors.InvalidOptionError,
        "at least one",
    ),
    (
        "mbr_select negative weights",
        lambda: mbr_select([["a b", "a c"]], weights=[[-1, 2]]),
        errors.InvalidOptionError,
        "non-negative",
    ),
    (
        "hf tokenizer returns None",
        lambda: nmt_bleu.compute(["a b"], [["a b"]], tokenizer=lambda s: None),
        errors.InputTypeError,
        "tokenizer returned NoneType",
    ),
]
for _n in (10**12, 2**63, 10**100):
    RAW_EXCEPTIONS += [
        (
            f"n_samples={_n}",
            lambda n=_n: significance.paired_bootstrap(_SYS, _REF, n_samples=n),
            errors.InvalidOptionError,
            "n_samples",
        ),
        (
            f"n_confidence={_n}",
            lambda n=_n: significance.paired_approximate_randomization(
                _SYS, _REF, n_samples=10, n_confidence=n
            ),
            errors.InvalidOptionError,
            "confidence",
        ),
        (
            f"n_bootstrap={_n}",
            lambda n=_n: BLEU().corpus_score(["a b"], [["a b"]], n_bootstrap=n),
            errors.InvalidOptionError,
            "n_bootstrap",
        ),
    ]


@pytest.mark.parametrize("name,call,exc,words", RAW_EXCEPTIONS, ids=[e[0] for e in RAW_EXCEPTIONS])
def test_raw_exceptions_are_rapidbleu_errors(
    name: str, call: Any, exc: type[Exception], words: str
) -> None:
    with pytest.raises(exc, match=words) as info:
        call()
    assert isinstance(info.value, errors.RapidBleuError)


def test_big_endian_ids_are_read_by_value() -> None:
    """``>i8`` arrays raised "'ndarray' object is not an instance of 'ndarray'"."""
    want = token_statistics([[1, 2, 9]], [[[1, 2, 3]]], per_segment=True)[0].tolist()
    big = [np.array([1, 2, 9], dtype=">i8")]
    assert token_statistics(big, [[[1, 2, 3]]], per_segment=True)[0].tolist() == want
    batch = np.array([[1, 2, 9, 0]], dtype=">i8")
    assert token_statistics(batch, [[[1, 2, 3]]], per_segment=True, pad_id=0)[0].tolist() == want


def test_thread_count_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAPIDBLEU_NUM_THREADS", "99999999999999999999999")
    with pytest.raises(errors.InvalidOptionError, match="RAPIDBLEU_NUM_THREADS"):
        BLEU().corpus_score(["a"], [["a"]])


# -- finding 8: one rule each -----------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: BLEU().corpus_score(["a \ud800"], [["a b"]]),
        lambda: BLEU().corpus_score([["a", "\ud800"]], [[["a", "b"]]]),
        lambda: token_statistics([["a", "\udfff"]], [[["a"]]], per_segment=True),
        lambda: rb_nltk.sentence_bleu([["a", "\ud800"]], ["a", "\ud800"]),
    ],
    ids=["text", "tokens", "token_statistics", "nltk"],
)
def test_a_lone_surrogate_is_not_text_anywhere(call: Any) -> None:
    with pytest.raises(errors.InvalidTextError, match="surrogate"):
        call()


@pytest.mark.parametrize(
    "hyps,refs",
    [
        (lambda: (h for h in ["a b c"]), lambda: [["a b c"]]),
        (lambda: ["a b c"], lambda: (s for s in [["a b c"]])),
        (lambda: ["a b c"], lambda: [(r for r in ["a b c"])]),
        (lambda: [(t for t in [1, 2])], lambda: [[[1, 2]]]),
        (lambda: ["a b c"], lambda: [{"a b c"}]),
    ],
    ids=["gen-hyps", "gen-refs", "gen-stream", "gen-tokens", "set-stream"],
)
def test_generators_and_sets_are_refused_everywhere(hyps: Any, refs: Any) -> None:
    """A generator was accepted as a reference stream but not as hypotheses: neither is now
    (read once, a generator would be silently empty the next time)."""
    with pytest.raises(errors.InputTypeError, match=r"generator|set"):
        BLEU().corpus_score(hyps(), refs())


def test_numpy_integers_are_integers() -> None:
    want = BLEU(max_ngram_order=3).corpus_score(["a b c"], [["a b c"]])
    got = BLEU(max_ngram_order=np.int64(3), num_threads=np.int32(2))
    assert got.corpus_score(["a b c"], [["a b c"]]).score == want.score
    seeded = significance.paired_bootstrap(_SYS, _REF, n_samples=5, seed=np.int64(3))
    assert (
        seeded[1].p_value
        == significance.paired_bootstrap(_SYS, _REF, n_samples=5, seed=3)[1].p_value
    )


def test_masked_arrays_honour_their_mask() -> None:
    row = np.ma.array([5, 6, 7, 99], mask=[0, 0, 0, 1])
    want = token_statistics([[5, 6, 7]], [[[5, 6, 7, 4]]], per_segment=True)[0].tolist()
    assert token_statistics([row], [[[5, 6, 7, 4]]], per_segment=True)[0].tolist() == want
    batch = np.ma.masked_equal(BATCH, 0)
    assert BLEU().corpus_score(batch, [STREAM], pad_id=0).score == (
        BLEU().corpus_score(SEQS, [REFS]).score
    )
    assert token_statistics(batch, PER_SEG, per_segment=True)[0].tolist() == (
        token_statistics(SEQS, PER_SEG, per_segment=True)[0].tolist()
    )
    assert rb_nltk.sentence_bleu_batch(PER_SEG, batch).tolist() == (
        rb_nltk.sentence_bleu_batch(PER_SEG, SEQS).tolist()
    )


@pytest.mark.parametrize("metric", [BLEU(lowercase=True), rapidbleu.CHRF(lowercase=True)])
def test_a_list_changed_while_it_is_read_is_read_safely(metric: Any) -> None:
    # `str.lower()` of a str subclass runs Python code while the list is read; the reader
    # reads the list's length again after it (no item past the end is touched).
    hyps: list[str] = []

    class Shrinks(str):
        def lower(self) -> str:
            hyps.clear()
            return "x"

    hyps[:] = ["a", Shrinks("Ä b"), "c", "d"]
    with pytest.raises(errors.LengthMismatchError, match="4 segments but there are 2 hyp"):
        metric.corpus_score(hyps, [["a", "b", "c", "d"]])


def test_the_tokenized_input_test_counts_as_python_does() -> None:
    items: list[Any] = ["a .", "b.", 3, None, "x \ud800 .", "\ud800", " .", "", "é .", b"c ."]
    expected = sum(1 for h in items if isinstance(h, str) and h.endswith(" ."))
    assert rapidbleu._core.count_tokenized(items) == expected == 4
    assert rapidbleu._core.count_tokenized(iter(items)) == 4
