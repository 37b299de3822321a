"""Differential fuzzing: every metric and dialect against its oracle, on full Unicode with lone
surrogates, and on hostile shapes of input.

- ``<metric>-vs-<oracle>``: each :data:`fuzz_families.METRICS` entry, any valid options, a
  generated corpus (full Unicode, empty segments, missing references) with or without a lone
  surrogate: corpus and sentence scores equal the oracle's (``==``: sacreBLEU's; for ROUGE
  rouge-score's), and a lone surrogate is an ``InvalidTextError`` (ROUGE scores it as
  rouge-score does).
- ``nltk-vs-nltk``: NLTK's ``corpus_bleu``, ``sentence_bleu`` (one by one and batched) and
  GLEU's ``corpus_gleu`` on token lists of full Unicode (surrogates included) against nltk.
- ``hostile-shapes``: 0-d, object, string, masked and 2-D arrays, generators, sets, dicts,
  ``None``, sequences that change while they are read, every public entry point: a result
  equal to the plain list's, or a :mod:`rapidbleu.errors` exception, never anything else.

Every input is counted in the tally printed at the end of the run (``fuzzstats``). Budgets
are small and fixed (``RAPIDBLEU_TEST_SCALE`` scales them).
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Sequence
from typing import Any, Callable

import numpy as np
import pytest
from conftest import corpora, quiet_logs, seeded  # noqa: F401  (quiet_logs is a fixture)
from fuzz_families import METRICS, MetricFamily, classify, outcome, with_surrogate
from fuzzstats import record
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu
from nltk.translate import gleu_score as nltk_gleu

import rapidbleu
from rapidbleu import errors
from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.evaluate import nmt_bleu
from rapidbleu.evaluate.gleu import corpus_gleu
from rapidbleu.metrics.bleu.tokens import token_statistics

pytestmark = pytest.mark.usefixtures("quiet_logs")


def _fields(score: Any) -> Any:
    """What must equal the oracle's: the score and its formatted line (version aside)."""
    return (score.score, str(score).split(" = ", 1)[-1])


@pytest.mark.parametrize("family", METRICS, ids=[m.name for m in METRICS])
def test_metric_equals_its_oracle(family: MetricFamily) -> None:
    name = f"{family.name}-vs-{family.against}"

    @seeded(name, 300)
    @given(
        options=family.options,
        extra=family.extra,
        corpus=st.integers(1, 3).flatmap(lambda n: corpora(n, max_segments=6)),
        surrogate=st.none() | st.tuples(st.integers(0, 50), st.integers(0, 10**6), st.booleans()),
    )
    def run(
        options: dict[str, Any],
        extra: dict[str, Any],
        corpus: Any,
        surrogate: tuple[int, int, bool] | None,
    ) -> None:
        hyps, refs = corpus
        if surrogate is not None:
            seg, where, in_ref = surrogate
            i = seg % len(hyps)
            if in_ref and refs[0][i] is not None:
                refs = [list(r) for r in refs]
                refs[0][i] = with_surrogate(refs[0][i], where)
            else:
                hyps = list(hyps)
                hyps[i] = with_surrogate(hyps[i], where)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = outcome(lambda: _fields(family.oracle(**options).corpus_score(hyps, refs)))
            ours = outcome(
                lambda: _fields(family.ours(**options, **extra).corpus_score(hyps, refs))
            )
            seg_refs = [r[0] for r in refs if r[0] is not None]
            s_theirs = outcome(
                lambda: _fields(family.oracle(**options).sentence_score(hyps[0], seg_refs))
            )
            s_ours = outcome(
                lambda: _fields(family.ours(**options, **extra).sentence_score(hyps[0], seg_refs))
            )
        refused = surrogate is not None and not family.surrogates_are_text
        for got, want, bad in (
            (ours, theirs, refused),
            (s_ours, s_theirs, refused and "\ud800" in hyps[0] + "".join(seg_refs)),
        ):
            result = classify(got, want, bad)
            record(name, result)
            assert result in ("ok", "refused"), (result, got, want, options, hyps, refs)

    run()


# -- NLTK ---------------------------------------------------------------------------------------

_TOKEN = st.text(st.characters(exclude_categories=()), min_size=1, max_size=3)


@seeded("nltk-vs-nltk", 150)
@given(
    alphabet=st.lists(_TOKEN, min_size=1, max_size=6, unique=True),
    data=st.data(),
    weights=st.sampled_from([(0.25,) * 4, (0.5, 0.5), (1.0,), (0.2, 0.3, 0.5)]),
    method=st.integers(0, 7),
)
def test_nltk_equals_nltk_on_any_tokens(
    alphabet: list[str], data: Any, weights: tuple[float, ...], method: int
) -> None:
    seq = st.lists(st.sampled_from(alphabet), max_size=10)
    n = data.draw(st.integers(1, 4))
    hyps = [data.draw(seq) for _ in range(n)]
    refs = [data.draw(st.lists(seq, min_size=1, max_size=3)) for _ in range(n)]
    surrogate = any("\ud800" <= c <= "\udfff" for tok in alphabet for c in tok)
    sf = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    ours_sf = getattr(rb_nltk.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        calls = [
            (
                lambda: nltk_bleu.corpus_bleu(refs, hyps, weights, sf),
                lambda: rb_nltk.corpus_bleu(refs, hyps, weights, ours_sf),
            ),
            (
                lambda: nltk_bleu.sentence_bleu(refs[0], hyps[0], weights, sf),
                lambda: rb_nltk.sentence_bleu(refs[0], hyps[0], weights, ours_sf),
            ),
            (
                lambda: [nltk_bleu.sentence_bleu(r, h, weights, sf) for r, h in zip(refs, hyps)],
                lambda: rb_nltk.sentence_bleu_batch(refs, hyps, weights, ours_sf).tolist(),
            ),
            (  # GLEU (evaluate's google_bleu) against NLTK's corpus_gleu
                lambda: nltk_gleu.corpus_gleu(refs, hyps, 1, len(weights)),
                lambda: corpus_gleu(refs, hyps, 1, len(weights)),
            ),
        ]
        for theirs, ours in calls:
            want = outcome(theirs)
            if want[0] == "raised" and not surrogate:
                # nltk's own exceptions (ZeroDivisionError of method 4 on an empty hypothesis,
                # ...) are raised by rapidbleu's NLTK code the same way.
                got = outcome(ours)
                same = got[0] == "raised" and type(got[1]) is type(want[1])
                record("nltk-vs-nltk", "refused" if same else "differed")
                assert same, (got, want)
                continue
            result = classify(outcome(ours), want, surrogate)
            record("nltk-vs-nltk", result)
            assert result in ("ok", "refused"), (result, hyps, refs, method, weights)


# -- hostile shapes -----------------------------------------------------------------------------


class _Shrinking(Sequence[Any]):
    """A sequence that loses its last item each time an item is read (changed during a call)."""

    def __init__(self, items: list[Any]) -> None:
        self.items = list(items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: Any) -> Any:
        item = self.items[i]
        if self.items:
            self.items.pop()
        return item


class _Growing(list):  # type: ignore[type-arg]
    """A list whose iteration appends to it (changed during a call)."""

    def __iter__(self) -> Any:
        for i, x in enumerate(list.__iter__(self)):
            if i < 50:
                self.append(x)
            yield x


# name -> (wrap a list of segments, what is allowed): "same" must give the plain list's result,
# "refuse" must raise a rapidbleu.errors exception, "either" gives the plain list's result or
# raises one (text entry points refuse arrays, as sacreBLEU does), "any" gives any result or
# raises one (the sequence changes while it is read), but nothing else.
SHAPES: dict[str, tuple[Callable[[list[Any]], Any], str]] = {
    "list": (list, "same"),
    "tuple": (tuple, "same"),
    "deque": (deque, "same"),
    "object-array": (lambda xs: _object_array(xs), "either"),
    "generator": (lambda xs: (x for x in xs), "refuse"),
    "iterator": (lambda xs: iter(xs), "refuse"),
    "set": (lambda xs: set(map(_hashable, xs)), "refuse"),
    "dict": (lambda xs: {i: _hashable(x) for i, x in enumerate(xs)}, "refuse"),
    "none": (lambda xs: None, "refuse"),
    "zero-d": (lambda xs: np.array(xs[0] if isinstance(xs[0], str) else 7), "refuse"),
    "str": (lambda xs: " ".join(map(str, xs)), "refuse"),
    "bytes": (lambda xs: b"a b", "refuse"),
    "int": (lambda xs: 3, "refuse"),
    "shrinking": (_Shrinking, "any"),
    "growing": (_Growing, "any"),
}


def _hashable(x: Any) -> Any:
    return tuple(map(_hashable, x)) if isinstance(x, list) else x


def _object_array(xs: list[Any]) -> Any:
    arr = np.empty(len(xs), dtype=object)
    for i, x in enumerate(xs):
        arr[i] = x
    return arr


def _streams(per_segment: list[Any]) -> list[Any]:
    """Per-segment references (one each) as one reference stream (sacreBLEU's layout)."""
    return [[r[0] for r in per_segment]]


def _entry_points() -> dict[str, tuple[Callable[[Any, Any], Any], bool, bool]]:
    """name -> (call with (hypotheses, references in its layout), takes token lists, takes
    reference streams (else per-segment lists))."""
    return {
        "BLEU.corpus_score": (
            lambda h, r: rapidbleu.BLEU().corpus_score(h, r).score,
            True,
            True,
        ),
        "BLEU.sentence_scores": (
            lambda h, r: rapidbleu.BLEU().sentence_scores(h, r).tolist(),
            True,
            True,
        ),
        "corpus_bleu": (lambda h, r: rapidbleu.corpus_bleu(h, r).score, True, True),
        "token_statistics": (
            lambda h, r: token_statistics(h, r, per_segment=True)[0].tolist(),
            True,
            False,
        ),
        "nltk.corpus_bleu": (lambda h, r: rb_nltk.corpus_bleu(r, h), True, False),
        "nltk.sentence_bleu_batch": (
            lambda h, r: rb_nltk.sentence_bleu_batch(r, h).tolist(),
            True,
            False,
        ),
        "nmt_bleu.compute": (lambda h, r: nmt_bleu.compute(h, r)["bleu"], False, False),
    }


ENTRY_POINTS = _entry_points()


@seeded("hostile-shapes", 300)
@given(
    entry=st.sampled_from(sorted(ENTRY_POINTS)),
    shape=st.sampled_from(sorted(SHAPES)),
    target=st.sampled_from(["hypotheses", "references", "one-segment"]),
    kind=st.sampled_from(["text", "tokens", "ids"]),
    n=st.integers(1, 4),
)
def test_hostile_shapes(entry: str, shape: str, target: str, kind: str, n: int) -> None:
    call, takes_tokens, stream_layout = ENTRY_POINTS[entry]
    if kind != "text" and not takes_tokens:
        kind = "text"
    words = [["a", "b", "c", "d"], ["b", "c"], ["c", "d", "a"], ["x"]][:n]
    if kind == "text":
        hyps: list[Any] = [" ".join(w) for w in words]
        refs: list[Any] = [[" ".join(reversed(w))] for w in words]
        if entry.startswith("nltk") or entry == "token_statistics":
            hyps, refs = [list(w) for w in words], [[list(reversed(w))] for w in words]
    elif kind == "tokens":
        hyps, refs = [list(w) for w in words], [[list(reversed(w))] for w in words]
    else:
        ids = {"a": 1, "b": 2, "c": 3, "d": 4, "x": 5}
        hyps = [[ids[t] for t in w] for w in words]
        refs = [[[ids[t] for t in reversed(w)]] for w in words]
    if stream_layout:
        refs = _streams(refs)
    plain = outcome(lambda: call(hyps, refs))
    wrap, rule = SHAPES[shape]
    if target == "hypotheses":
        got = outcome(lambda: call(wrap(hyps), refs))
    elif target == "references":
        got = outcome(lambda: call(hyps, wrap(refs)))
    else:
        # One sequence inside: a segment's tokens (a segment's references for text).
        if isinstance(hyps[0], list):
            h2 = [wrap(hyps[0]), *hyps[1:]]
            got = outcome(lambda: call(h2, refs))
        else:
            r2 = [wrap(refs[0]), *refs[1:]]
            got = outcome(lambda: call(hyps, r2))
    if got[0] == "raised":
        e = got[1]
        ok = isinstance(e, errors.RapidBleuError) and not isinstance(e, errors.InternalError)
        result = "refused" if ok and rule != "same" else ("differed" if ok else "crashed")
        if result == "differed" and plain[0] == "raised":
            result = "refused"  # the plain list is refused too
    else:
        accepted_ok = rule == "any" or (rule != "refuse" and got == plain)
        result = "ok" if accepted_ok else "differed"
    record("hostile-shapes", result)
    assert result in ("ok", "refused"), (entry, shape, target, kind, got, plain)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_masked_and_two_d_arrays(entry: str) -> None:
    """Masked rows read without their masked entries; 2-D integer arrays need ``pad_id``."""
    call, _, stream_layout = ENTRY_POINTS[entry]
    hyps = [[1, 2, 3, 4], [2, 3]]
    refs = [[[4, 3, 2, 1]], [[3, 2]]]
    if stream_layout:
        refs = _streams(refs)
    masked = [np.ma.array([1, 2, 3, 4, 9], mask=[0, 0, 0, 0, 1]), np.ma.array([2, 3])]
    plain = outcome(lambda: call(hyps, refs))
    got = outcome(lambda: call(masked, refs))
    result = classify(got, plain, surrogate=False)
    record("hostile-shapes", result)
    assert result == "ok", (got, plain)
    batch = np.array([[1, 2, 3, 4], [2, 3, 0, 0]])
    got = outcome(lambda: call(batch, refs))
    ok = got[0] == "raised" and isinstance(got[1], errors.InputError) and "pad_id" in str(got[1])
    record("hostile-shapes", "refused" if ok else "differed")
    assert ok, got
