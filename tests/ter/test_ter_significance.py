"""TER's confidence intervals and paired tests against sacreBLEU 2.6.0 with ``==``.

sacreBLEU resamples TER in its own float arithmetic: the bootstrap adds float32 rows
``[edits, avg_ref_len]`` one after the other and divides in float32; approximate randomisation
multiplies bool masks by float64 rows. With three references the average lengths are not
dyadic, so only the same order of additions gives the same digits; these tests run 1, 2 and 3
references on real WMT22 segments (the first 300 lines, to keep sacreBLEU's TER quick).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from conftest import read_lines, strip_version
from sacrebleu import significance as sb_sig
from sacrebleu.metrics import TER as SacreTER

from rapidbleu.analysis import significance
from rapidbleu.metrics import TER

N = 300
SYSTEMS = ["hyp.PROMT.de", "hyp.Online-B.de", "hyp.OpenNMT.de"]


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)


@pytest.fixture(scope="module")
def wmt22(data_dir: Path) -> tuple[list[list[str]], list[tuple[str, list[str]]]]:
    d = data_dir / "wmt22.en-de"
    refs = [read_lines(d / "ref.A.de")[:N], read_lines(d / "ref.B.de")[:N]]
    # A third stream (another system's output) makes the average lengths thirds.
    refs.append(read_lines(d / "hyp.JDExploreAcademy.de")[:N])
    return refs, [(s, read_lines(d / s)[:N]) for s in SYSTEMS]


def _same(ours: list[significance.Result], theirs: list[sb_sig.Result]) -> None:
    assert [r.__dict__ for r in ours] == [r.__dict__ for r in theirs]
    assert [repr(r) for r in ours] == [repr(r) for r in theirs]


@pytest.mark.parametrize("nrefs", [1, 2, 3])
@pytest.mark.parametrize("opts", [{}, {"normalized": True, "no_punct": True}], ids=str)
def test_confidence_interval(nrefs: int, opts: dict, wmt22) -> None:
    refs, systems = wmt22
    hyps = systems[0][1]
    ours_m, theirs_m = TER(**opts), SacreTER(**opts)
    ours = ours_m.corpus_score(hyps, refs[:nrefs], n_bootstrap=300)
    theirs = theirs_m.corpus_score(hyps, refs[:nrefs], n_bootstrap=300)
    assert (ours._mean, ours._ci, ours.score) == (theirs._mean, theirs._ci, theirs.score)
    assert type(ours._mean) is type(theirs._mean)
    sig_o, sig_t = ours_m.get_signature(), theirs_m.get_signature()
    assert strip_version(sig_o.format(short=True)) == sig_t.format(short=True)
    for width in (1, 4):
        assert strip_version(ours.format(width, False, str(sig_o))) == strip_version(
            theirs.format(width, False, str(sig_t))
        )


@pytest.mark.parametrize("nrefs", [1, 3])
@pytest.mark.parametrize("test_type,n", [("bs", 200), ("ar", 500)])
def test_paired(nrefs: int, test_type: str, n: int, wmt22) -> None:
    refs, systems = wmt22
    o_sig, o = significance.PairedTest(systems, {"TER": TER()}, refs[:nrefs], test_type, n)()
    t_sig, t = sb_sig.PairedTest(systems, {"TER": SacreTER()}, refs[:nrefs], test_type, n)()
    _same(o["TER"], t["TER"])
    assert strip_version(str(o_sig["TER"])) == str(t_sig["TER"])


def test_ar_with_confidence_and_cached_references(wmt22) -> None:
    refs, systems = wmt22
    _, o = significance.PairedTest(
        systems[:2], {"TER": TER(references=refs)}, None, "ar", 200, 100
    )()
    _, t = sb_sig.PairedTest(
        systems[:2], {"TER": SacreTER(references=refs)}, None, "ar", 200, 100
    )()
    _same(o["TER"], t["TER"])


def test_resampled_scores_are_sacrebleus(wmt22) -> None:
    """Each bootstrap score, not only their summary, equals sacreBLEU's float32 score."""
    refs, systems = wmt22
    ter, theirs = TER(), SacreTER()
    hyps = systems[1][1]
    stats = theirs._extract_corpus_statistics(hyps, refs)
    rng = np.random.default_rng(3)
    idxs = rng.choice(N, size=(50, N), replace=True)
    stats_np = np.array(stats, dtype="float32")
    expected = np.array([theirs._compute_score_from_stats(s.sum(0)).score for s in stats_np[idxs]])
    got = ter.resample_scores(ter.statistics(hyps, refs), idxs)
    assert got.dtype == expected.dtype == np.float32
    assert got.tolist() == expected.tolist()
