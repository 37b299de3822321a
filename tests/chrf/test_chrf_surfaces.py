"""chrF on every surface BLEU has, against sacreBLEU 2.6.0 with ``==``, and its bad input.

Significance tests with several metrics at once (bootstrap CIs, paired bootstrap, approximate
randomisation), the compat functions and the drop-in namespace, per-item and JSONL scoring,
pairwise matrices and MBR, streaming of files in chunks, the reference cache, and the named
errors of options and input.
"""

from __future__ import annotations

import json
import logging
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from clitools import ours
from conftest import DATA, corpora, read_lines, seeded, strip_version
from hypothesis import given
from sacrebleu import significance as sb_sig
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF

import rapidbleu
from rapidbleu import _core
from rapidbleu.analysis import significance
from rapidbleu.analysis.pairwise import mbr_select, pairwise_scores
from rapidbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
)
from rapidbleu.items import score_each_item, score_items
from rapidbleu.metrics import BLEU, CHRF

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

SYSTEMS = ["hyp.C-3MA.4959.de", "hyp.FBK.4870.de", "hyp.online-A.0.de"]


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


@pytest.fixture(scope="module")
def wmt17() -> tuple[list[str], list[tuple[str, list[str]]]]:
    d = DATA / "wmt17.en-de"
    n = 600  # sacreBLEU's chrF is pure Python: keep its side to seconds
    return read_lines(d / "ref.A.de")[:n], [(s, read_lines(d / s)[:n]) for s in SYSTEMS]


# --- significance ---------------------------------------------------------------------------


@pytest.mark.parametrize("opts", [{}, {"word_order": 2}, {"eps_smoothing": True, "beta": 1}])
def test_confidence_interval(opts: dict[str, Any], wmt17: Any) -> None:
    ref, systems = wmt17
    o_metric, t_metric = CHRF(**opts), SacreCHRF(**opts)
    o = o_metric.corpus_score(systems[0][1], [ref], n_bootstrap=200)
    t = t_metric.corpus_score(systems[0][1], [ref], n_bootstrap=200)
    assert (o.score, o._mean, o._ci) == (t.score, t._mean, t._ci)
    assert type(o._mean) is type(t._mean) and type(o._ci) is type(t._ci)
    assert strip_version(o_metric.get_signature().format()) == t_metric.get_signature().format()
    for is_json in (False, True):
        sig = str(t_metric.get_signature())
        assert o.format(3, False, sig, is_json) == t.format(3, False, sig, is_json)


@pytest.mark.parametrize("test_type,n", [("bs", 200), ("ar", 300)])
def test_paired_tests_several_metrics(test_type: str, n: int, wmt17: Any) -> None:
    ref, systems = wmt17
    o_sigs, o = significance.PairedTest(
        systems, {"BLEU": BLEU(), "CHRF": CHRF(), "CHRF++": CHRF(word_order=2)}, [ref], test_type, n
    )()
    t_sigs, t = sb_sig.PairedTest(
        systems,
        {"BLEU": SacreBLEU(), "CHRF": SacreCHRF(), "CHRF++": SacreCHRF(word_order=2)},
        [ref],
        test_type,
        n,
    )()
    assert list(o) == list(t) == ["System", "BLEU", "chrF2", "chrF2++"]
    for name in ("BLEU", "chrF2", "chrF2++"):
        assert [r.__dict__ for r in o[name]] == [r.__dict__ for r in t[name]]
        assert [repr(r) for r in o[name]] == [repr(r) for r in t[name]]
        assert strip_version(str(o_sigs[name])) == str(t_sigs[name])


@seeded("chrf-significance-generated", 10)
@given(corpora(2, allow_none=False, min_segments=3, max_segments=8))
def test_paired_generated(corpus: Any) -> None:
    hyps, refs = corpus
    systems = [("a", hyps), ("b", refs[1])]
    for tt in ("bs", "ar"):
        _, o = significance.PairedTest(systems, {"c": CHRF(word_order=2)}, [refs[0]], tt, 50)()
        _, t = sb_sig.PairedTest(systems, {"c": SacreCHRF(word_order=2)}, [refs[0]], tt, 50)()
        assert [r.__dict__ for r in o["chrF2++"]] == [r.__dict__ for r in t["chrF2++"]]


def test_resampled_float32_types() -> None:
    # A resample with no matches scores the Python float 0.0: the array is then float64.
    metric = CHRF(char_order=1)
    rows = np.array([[2, 2, 0], [2, 2, 2]])
    idxs = np.array([[0, 0], [1, 1]])
    scores = metric.resample_scores(rows, idxs)
    sb = SacreCHRF(char_order=1)
    want = np.array(
        [sb._compute_score_from_stats(s).score for s in rows.astype("float32")[idxs].sum(1)]
    )
    assert scores.dtype == want.dtype and scores.tolist() == want.tolist()
    rows = np.array([[2, 2, 1], [2, 2, 2]])
    want = np.array(
        [sb._compute_score_from_stats(s).score for s in rows.astype("float32")[idxs].sum(1)]
    )
    scores = metric.resample_scores(rows, idxs)
    assert scores.dtype == want.dtype == np.float32 and scores.tolist() == want.tolist()


# --- compat API and namespace -------------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [{}, {"remove_whitespace": False}, {"word_order": 2, "beta": 3, "eps_smoothing": True}],
)
def test_compat_functions(kw: dict[str, Any], wmt17: Any) -> None:
    ref, systems = wmt17
    hyps = systems[1][1][:100]
    o, t = (
        rapidbleu.corpus_chrf(hyps, [ref[:100]], **kw),
        sacrebleu.corpus_chrf(hyps, [ref[:100]], **kw),
    )
    assert (o.score, str(o)) == (t.score, str(t))
    for h, r in zip(hyps[:20], ref[:20]):
        o, t = rapidbleu.sentence_chrf(h, [r], **kw), sacrebleu.sentence_chrf(h, [r], **kw)
        assert (o.score, str(o)) == (t.score, str(t))


def test_drop_in_namespace() -> None:
    from rapidbleu.sacrebleu.metrics.chrf import CHRF as NamespaceCHRF

    import rapidbleu.sacrebleu as sb

    assert NamespaceCHRF is CHRF is sb.CHRF is rapidbleu.CHRF is sb.metrics.CHRF
    assert sb.corpus_chrf is rapidbleu.corpus_chrf
    assert sb.sentence_chrf(" a b", ["a b"]).score == sacrebleu.sentence_chrf(" a b", ["a b"]).score
    score = CHRF().corpus_score(["a"], [["a"]])
    assert isinstance(score, rapidbleu.CHRFScore)
    assert (score.char_order, score.word_order, score.beta) == (6, 0, 2)


def test_sacrebleu_attributes() -> None:
    o, t = CHRF(word_order=2, beta=1.5), SacreCHRF(word_order=2, beta=1.5)
    for name in (
        "char_order",
        "word_order",
        "order",
        "beta",
        "lowercase",
        "whitespace",
        "eps_smoothing",
        "CHAR_ORDER",
        "WORD_ORDER",
        "BETA",
        "_PUNCTS",
    ):
        assert getattr(o, name) == getattr(t, name), name
    stats = [3, 4, 2] * 8
    assert o._compute_f_score(stats) == t._compute_f_score(stats)
    assert o._compute_score_from_stats(stats).score == t._compute_score_from_stats(stats).score
    rows = [[3, 4, 2] * 8, [1, 0, 0] * 8]
    assert o._aggregate_and_compute(rows).score == t._aggregate_and_compute(rows).score


# --- per-item, JSONL, pairwise, MBR -------------------------------------------------------


ITEMS = [
    {"candidate": "The cat sat.", "references": ["The cat sat on the mat.", "A cat."]},
    {"candidate": "(hi) there", "references": ["hi there!"]},
    {"candidate": "", "references": ["x"]},
]


def test_items() -> None:
    cands = [i["candidate"] for i in ITEMS]
    per = [i["references"] for i in ITEMS]
    streams = [[r[k] if k < len(r) else None for r in per] for k in range(2)]
    metric = CHRF(word_order=2)
    assert (
        score_items(ITEMS, metric).score
        == SacreCHRF(word_order=2).corpus_score(cands, streams).score
    )
    want = [SacreCHRF(word_order=2).sentence_score(c, r).score for c, r in zip(cands, per)]
    assert score_each_item(ITEMS, metric).tolist() == want


def test_jsonl_chrf_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in ITEMS), encoding="utf-8")
    rc, out, err = ours(
        ["--jsonl", str(path), "-m", "bleu", "chrf", "--per-item"], tmp_path, capsys
    )
    assert rc == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    want = [SacreCHRF().sentence_score(i["candidate"], i["references"]).score / 100 for i in ITEMS]
    assert [line["chrf"] for line in lines] == want
    assert all("bleu" in line for line in lines)
    rc, out, err = ours(["--jsonl", str(path), "-m", "chrf", "-cw", "2"], tmp_path, capsys)
    corpus = json.loads(out)
    cands = [i["candidate"] for i in ITEMS]
    streams = [
        [r[k] if k < len(r) else None for r in (i["references"] for i in ITEMS)] for k in range(2)
    ]
    assert corpus["chrf"] == SacreCHRF(word_order=2).corpus_score(cands, streams).score / 100


def test_pairwise_and_mbr(wmt17: Any) -> None:
    ref, systems = wmt17
    hyps = [s[1][i] for s in systems for i in range(5)]
    refs = ref[:7]
    (mat,) = pairwise_scores([hyps], [refs], metric=CHRF(word_order=2))
    sb = SacreCHRF(word_order=2)
    want = [[sb.sentence_score(h, [r]).score for r in refs] for h in hyps]
    assert mat.tolist() == want
    (self_mat,) = pairwise_scores([hyps], metric=CHRF())
    assert self_mat.shape == (15, 15) and (np.diag(self_mat) == 100.0).all()
    best = mbr_select([hyps], metric=CHRF(word_order=2))
    expected = np.array([[sb.sentence_score(h, [r]).score for r in hyps] for h in hyps]).mean(1)
    assert best.tolist() == [int(np.argmax(expected))]


# --- streaming and the reference cache ----------------------------------------------------


def test_streaming_equals_whole_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import rapidbleu.cli.scoring as scoring

    d = DATA / "wmt22.en-de"
    args = [
        str(d / "ref.A.de"),
        "-i",
        str(d / "hyp.PROMT.de"),
        "-m",
        "chrf",
        "-cw",
        "2",
        "-w",
        "16",
        "-b",
    ]
    rc, whole, _ = ours(args, tmp_path, capsys)
    monkeypatch.setattr(scoring, "CHUNK_LINES", 97)
    rc2, chunked, _ = ours(args, tmp_path, capsys)
    want = CHRF(word_order=2).corpus_score(
        read_lines(d / "hyp.PROMT.de"), [read_lines(d / "ref.A.de")]
    )
    assert rc == rc2 == 0 and whole == chunked == f"{want.score:.16f}\n"


def test_reference_cache(wmt17: Any) -> None:
    ref, systems = wmt17
    cached = CHRF(word_order=2, references=[ref])
    plain = CHRF(word_order=2)
    for _, hyps in systems:
        a, b = cached.corpus_score(hyps, None), plain.corpus_score(hyps, [ref])
        assert a.score == b.score
        assert (cached.sentence_scores(hyps) == plain.sentence_scores(hyps, [ref])).all()
    assert cached.has_cached_references and cached.num_refs == 1
    t = SacreCHRF(word_order=2, references=[ref])
    assert (
        cached.corpus_score(systems[0][1], None).score == t.corpus_score(systems[0][1], None).score
    )
    with pytest.raises(EmptyInputError):
        plain.corpus_score(systems[0][1], None)


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw,fragment",
    [
        ({"char_order": -1}, "char_order must be an integer from 0 to 100, got -1"),
        ({"char_order": 101}, "char_order must be an integer from 0 to 100, got 101"),
        ({"char_order": 2.0}, "char_order must be an integer from 0 to 100, got 2.0"),
        ({"word_order": True}, "word_order must be an integer from 0 to 100, got True"),
        ({"word_order": "2"}, "word_order must be an integer from 0 to 100, got '2'"),
        ({"char_order": 0, "word_order": 0}, "char_order and word_order are both 0"),
        ({"beta": -1}, "beta must be an int or a float from 0 to 2**26, got -1"),
        ({"beta": float("nan")}, "got nan"),
        ({"beta": float("inf")}, "got inf"),
        ({"beta": 2**27}, "got 134217728"),
        ({"beta": "2"}, "got '2'"),
        ({"beta": None}, "got None"),
        ({"lowercase": np.array([1, 2])}, "lowercase takes a truth value"),
    ],
)
def test_bad_options(kw: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidOptionError) as e:
        CHRF(**kw)
    assert fragment in str(e.value)


def test_numpy_option_values() -> None:
    metric = CHRF(char_order=np.int64(4), word_order=np.int32(1), beta=np.float64(2.0))
    theirs = SacreCHRF(char_order=4, word_order=1, beta=2.0)
    o, t = metric.corpus_score(["a b"], [["a c"]]), theirs.corpus_score(["a b"], [["a c"]])
    assert (o.score, str(o)) == (t.score, str(t))


@pytest.mark.parametrize(
    "hyps,refs,exc,fragment",
    [
        (["a", "b"], [["a"]], LengthMismatchError, "references[0] has 1 segments"),
        (["a"], [["a"], ["a", "b"]], LengthMismatchError, "references[1] has 2 segments"),
        ([], [[]], EmptyInputError, "no hypotheses"),
        (["a"], [], EmptyInputError, "no reference streams"),
        (["a", 3], [["a", "b"]], InputTypeError, "hypotheses[1] is int"),
        (["a"], [[b"a"]], InputTypeError, "references[0][0] is bytes"),
        ("abc", [["a"]], InputTypeError, "hypotheses must be a sequence"),
        (["a"], ["a"], InputTypeError, "references is a flat list of 1 str"),
        (
            ["a", "b"],
            [["a", None], [None, None]],
            MissingReferenceError,
            "segment 1 has no reference",
        ),
        (["\ud800"], [["a"]], InvalidTextError, "lone surrogate"),
        ([[1, 2]], [[[1, 2]]], InvalidOptionError, "token input has no characters"),
    ],
)
def test_bad_input(hyps: Any, refs: Any, exc: type, fragment: str) -> None:
    with pytest.raises(exc) as e:
        CHRF().corpus_score(hyps, refs)
    assert fragment in str(e.value)


def test_bad_sentence_input() -> None:
    with pytest.raises(InputTypeError, match="hypothesis must be a str"):
        CHRF().sentence_score(3, ["a"])
    with pytest.raises(EmptyInputError):
        CHRF().sentence_score("a", [])
    with pytest.raises(InputTypeError):
        CHRF().sentence_score("a", "a")


def test_core_options_value() -> None:
    o = _core.ChrfOptions(char_order=4, word_order=2, beta=2.0, lowercase=True)
    assert pickle.loads(pickle.dumps(o)) == o and hash(o) == hash(pickle.loads(pickle.dumps(o)))
    assert repr(o) == (
        "ChrfOptions(char_order=4, word_order=2, beta=2.0, lowercase=True, whitespace=False, "
        "eps_smoothing=False)"
    )
    assert (o.row_len, o.factor, o.beta, type(o.beta)) == (18, 4.0, 2.0, float)
    with pytest.raises(rapidbleu.errors.InputError, match="18 columns but char_order 4"):
        _core.ChrfOptions(char_order=4, beta=2).score_rows(np.zeros((1, 18), dtype=np.int64))
