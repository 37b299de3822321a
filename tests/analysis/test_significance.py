"""Paired tests and bootstrap confidence intervals, compared with sacreBLEU 2.6.0 with ``==``.

The real WMT17 en-de systems (the ones sacreBLEU's own significance tests use) and generated
corpora; p-values, means, CIs, formatted scores and signatures must be equal.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from conftest import examples, read_lines, strip_version
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu import significance as sb_sig
from sacrebleu.metrics import BLEU as SacreBLEU

from rapidbleu.analysis import significance
from rapidbleu.errors import InvalidOptionError, RapidBleuError
from rapidbleu.metrics import BLEU
from rapidbleu.metrics.resampling import bootstrap_indices

OPTION_SETS = [
    {},
    {"smooth_method": "floor"},
    {"smooth_method": "add-k", "smooth_value": 0.5},
    {"smooth_method": "add-k"},
    {"smooth_method": "none", "lowercase": True},
    {"tokenize": "intl", "effective_order": True},
    {"tokenize": "char", "max_ngram_order": 2},
]

SYSTEMS = [
    "hyp.C-3MA.4959.de",
    "hyp.FBK.4870.de",
    "hyp.online-A.0.de",
    "hyp.uedin-nmt.4722.de",
]


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)


@pytest.fixture(scope="module")
def wmt17(data_dir: Path) -> tuple[list[str], list[tuple[str, list[str]]]]:
    d = data_dir / "wmt17.en-de"
    return read_lines(d / "ref.A.de"), [(s, read_lines(d / s)) for s in SYSTEMS]


def _same_results(ours: list[significance.Result], theirs: list[sb_sig.Result]) -> None:
    assert [r.__dict__ for r in ours] == [r.__dict__ for r in theirs]
    assert [repr(r) for r in ours] == [repr(r) for r in theirs]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=str)
def test_confidence_interval_wmt17(opts: dict, wmt17) -> None:
    ref, systems = wmt17
    hyps = systems[0][1]
    ours_metric, theirs_metric = BLEU(**opts), SacreBLEU(**opts)
    ours = ours_metric.corpus_score(hyps, [ref], n_bootstrap=200)
    theirs = theirs_metric.corpus_score(hyps, [ref], n_bootstrap=200)
    assert (ours._mean, ours._ci, ours.score) == (theirs._mean, theirs._ci, theirs.score)
    sig_o, sig_t = ours_metric.get_signature(), theirs_metric.get_signature()
    assert strip_version(sig_o.format()) == sig_t.format()
    assert strip_version(sig_o.format(short=True)) == sig_t.format(short=True)
    for width in (1, 2, 4):
        for is_json in (False, True):
            assert strip_version(ours.format(width, False, str(sig_o), is_json)) == strip_version(
                theirs.format(width, False, str(sig_t), is_json)
            )


def test_confidence_interval_default_n(wmt17) -> None:
    ref, systems = wmt17
    ours = BLEU().corpus_score(systems[1][1], [ref], n_bootstrap=1000)
    theirs = SacreBLEU().corpus_score(systems[1][1], [ref], n_bootstrap=1000)
    assert (ours._mean, ours._ci) == (theirs._mean, theirs._ci)


@pytest.mark.parametrize("n", [-3, 0, 1])
def test_no_resampling_below_two(n: int, wmt17) -> None:
    # sacreBLEU's Metric.corpus_score resamples only when n_bootstrap > 1.
    ref, systems = wmt17
    ours_metric, theirs_metric = BLEU(), SacreBLEU()
    ours = ours_metric.corpus_score(systems[2][1], [ref], n_bootstrap=n)
    theirs = theirs_metric.corpus_score(systems[2][1], [ref], n_bootstrap=n)
    assert (ours.score, ours._mean, ours._ci) == (theirs.score, theirs._mean, theirs._ci)
    assert str(ours) == str(theirs)
    assert strip_version(ours_metric.get_signature().format()) == (
        theirs_metric.get_signature().format()
    )


@pytest.mark.parametrize("seed", ["42", "0", "7"])
def test_seed_from_environment(seed: str, wmt17, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    ref, systems = wmt17
    ours_m, theirs_m = BLEU(), SacreBLEU()
    ours = ours_m.corpus_score(systems[2][1], [ref], n_bootstrap=50)
    theirs = theirs_m.corpus_score(systems[2][1], [ref], n_bootstrap=50)
    assert (ours._mean, ours._ci) == (theirs._mean, theirs._ci)
    assert strip_version(str(ours_m.get_signature())) == str(theirs_m.get_signature())
    named = systems[:3]
    for tt in ("bs", "ar"):
        o_sig, o = significance.PairedTest(named, {"BLEU": BLEU()}, [ref], tt, 40)()
        t_sig, t = sb_sig.PairedTest(named, {"BLEU": SacreBLEU()}, [ref], tt, 40)()
        assert strip_version(str(o_sig["BLEU"])) == str(t_sig["BLEU"])
        if seed != "0":  # sacreBLEU: a seed of 0 means fresh entropy for the systems
            _same_results(o["BLEU"], t["BLEU"])
        else:
            assert o["BLEU"][0].__dict__ == t["BLEU"][0].__dict__


def test_random_seed_runs(wmt17, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "None")
    ref, systems = wmt17
    metric = BLEU()
    score = metric.corpus_score(systems[0][1], [ref], n_bootstrap=20)
    assert score._mean > 0 and "seed:none" in str(metric.get_signature())


@pytest.mark.parametrize("test_type,n", [("bs", 150), ("ar", 300)])
@pytest.mark.parametrize("opts", [OPTION_SETS[i] for i in (0, 2, 4, 5)], ids=str)
def test_paired_tests_wmt17(test_type: str, n: int, opts: dict, wmt17) -> None:
    ref, systems = wmt17
    o_sig, o = significance.PairedTest(
        systems, {"BLEU": BLEU(references=[ref], **opts)}, None, test_type, n
    )()
    t_sig, t = sb_sig.PairedTest(
        systems, {"BLEU": SacreBLEU(references=[ref], **opts)}, None, test_type, n
    )()
    assert o["System"] == t["System"]
    _same_results(o["BLEU"], t["BLEU"])
    assert strip_version(str(o_sig["BLEU"])) == str(t_sig["BLEU"])


def test_paired_defaults_wmt17(wmt17) -> None:
    """sacreBLEU's default sizes (1,000 resamples, 10,000 trials), once each."""
    ref, systems = wmt17
    for tt in ("bs", "ar"):
        _, o = significance.PairedTest(systems[:2], {"BLEU": BLEU()}, [ref], tt)()
        _, t = sb_sig.PairedTest(systems[:2], {"BLEU": SacreBLEU()}, [ref], tt)()
        _same_results(o["BLEU"], t["BLEU"])


def test_ar_with_confidence(wmt17) -> None:
    ref, systems = wmt17
    _, o = significance.PairedTest(systems[:3], {"BLEU": BLEU()}, [ref], "ar", 100, 50)()
    _, t = sb_sig.PairedTest(systems[:3], {"BLEU": SacreBLEU()}, [ref], "ar", 100, 50)()
    _same_results(o["BLEU"], t["BLEU"])


def test_function_api(wmt17) -> None:
    ref, systems = wmt17
    hyps = [h for _, h in systems[:3]]
    _, t = sb_sig.PairedTest(
        [("Baseline", hyps[0]), ("System 2", hyps[1]), ("System 3", hyps[2])],
        {"BLEU": SacreBLEU()},
        [ref],
        "bs",
        100,
    )()
    _same_results(significance.paired_bootstrap(hyps, [ref], n_samples=100), t["BLEU"])
    _, t = sb_sig.PairedTest(
        [("a", hyps[0]), ("b", hyps[1])], {"BLEU": SacreBLEU()}, [ref], "ar", 100
    )()
    res = significance.paired_approximate_randomization(
        [("a", hyps[0]), ("b", hyps[1])], [ref], n_samples=100
    )
    _same_results(res, t["BLEU"])


def test_explicit_seed_equals_environment(wmt17, monkeypatch: pytest.MonkeyPatch) -> None:
    ref, systems = wmt17
    hyps = systems[0][1]
    monkeypatch.setenv("SACREBLEU_SEED", "5")
    from_env = significance.bootstrap_scores(BLEU(), hyps, [ref], 30)
    monkeypatch.delenv("SACREBLEU_SEED")
    assert from_env.tolist() == significance.bootstrap_scores(BLEU(), hyps, [ref], 30, 5).tolist()
    stats = SacreBLEU()._extract_corpus_statistics(hyps, [ref])
    monkeypatch.setenv("SACREBLEU_SEED", "5")
    _, theirs = sb_sig._bootstrap_resample(stats, SacreBLEU(), 30)
    assert from_env.tolist() == [s.score for s in theirs]


@pytest.mark.parametrize("opts", OPTION_SETS[:4], ids=str)
def test_float32_sums_beyond_2_24(opts: dict) -> None:
    """Sums above 2**24 are not exact in float32: NumPy's own sums are used there."""
    rng = np.random.default_rng(3)
    n = 400
    stats = np.zeros((n, 10), dtype=np.int64)
    stats[:, 0] = rng.integers(40_000, 90_000, n)
    stats[:, 1] = rng.integers(40_000, 90_000, n)
    for k in range(4):
        stats[:, 6 + k] = np.maximum(stats[:, 0] - k, 0)
        stats[:, 2 + k] = rng.integers(0, stats[:, 6 + k] // (k + 2) + 1)
    assert stats[:, 0].sum() > 2**24
    idxs = bootstrap_indices(12345, 60, len(stats))  # SACREBLEU_SEED's default
    ours = BLEU(**opts).resample_scores(stats, idxs)
    metric = SacreBLEU(**opts)
    _, theirs = sb_sig._bootstrap_resample(stats.tolist(), metric, 60)
    assert ours.tolist() == [s.score for s in theirs]


WORDS = st.sampled_from(["a", "b", "c", "d", "e", "the", "ä", "中", ".", ",", "x1", "-", "&amp;"])
SENTENCE = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)


@settings(max_examples=examples(25))
@given(
    data=st.lists(st.tuples(SENTENCE, SENTENCE, SENTENCE), min_size=1, max_size=30),
    opts=st.sampled_from(OPTION_SETS),
    test_type=st.sampled_from(["bs", "ar"]),
)
def test_generated_corpora(data: list[tuple[str, str, str]], opts: dict, test_type: str) -> None:
    ref = [r for r, _, _ in data]
    systems = [("bl", [b for _, b, _ in data]), ("sys", [s for _, _, s in data])]
    o = BLEU(**opts).corpus_score(systems[1][1], [ref], n_bootstrap=25)
    t = SacreBLEU(**opts).corpus_score(systems[1][1], [ref], n_bootstrap=25)
    assert (o._mean, o._ci) == (t._mean, t._ci)
    _, ours = significance.PairedTest(systems, {"BLEU": BLEU(**opts)}, [ref], test_type, 30)()
    _, theirs = sb_sig.PairedTest(systems, {"BLEU": SacreBLEU(**opts)}, [ref], test_type, 30)()
    _same_results(ours["BLEU"], theirs["BLEU"])


def test_errors() -> None:
    refs = [["a b c", "d e f"]]
    with pytest.raises(InvalidOptionError, match="at least two systems"):
        significance.paired_bootstrap([["a b c", "d e f"]], refs)
    with pytest.raises(InvalidOptionError, match="n_samples"):
        significance.paired_bootstrap([["a", "b"], ["a", "b"]], refs, n_samples=0)
    with pytest.raises(InvalidOptionError, match="test_type"):
        significance.PairedTest([("a", ["x"]), ("b", ["y"])], {"BLEU": BLEU()}, [["x"]], "t")
    with pytest.raises(InvalidOptionError, match="seed"):
        significance.bootstrap_scores(BLEU(), ["a"], [["a"]], 5, seed=-1)
    with pytest.raises((InvalidOptionError, TypeError)):
        BLEU().corpus_score(["a"], [["a"]], n_bootstrap=2.5)  # type: ignore[arg-type]


def test_bad_seed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "abc")
    with pytest.raises(RapidBleuError, match="SACREBLEU_SEED"):
        BLEU().corpus_score(["a b"], [["a b"]], n_bootstrap=5)
    with pytest.raises(ValueError):
        BLEU().corpus_score(["a b"], [["a b"]], n_bootstrap=5)


def test_sacrebleu_is_the_pinned_version() -> None:
    assert sacrebleu.__version__ == "2.6.0"
