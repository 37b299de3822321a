"""Sentence-level output, confidence intervals and paired tests of CIDEr-D and ROUGE-L.

The resampling rule (docs/caption.md): CIDEr-D's document frequencies come from the full
reference set and stay fixed across resamples, so a resample's score is ``100 *`` the
``np.mean`` of the resampled images' pycocoevalcap scores (ROUGE-L's too: its corpus value is
the mean of image scores). The oracle here is that rule written out with pycocoevalcap's image
scores, sacreBLEU's draws (``np.random.default_rng(12345)``, ``rng.choice`` and
``rng.integers`` as in ``sacrebleu.significance``) and sacreBLEU's ``estimate_ci`` and
``_compute_p_value``; rapidbleu's results must be equal with ``==``.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from caption_data import generated
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge
from sacrebleu.metrics.base import Score as SacreScore
from sacrebleu.significance import _compute_p_value, estimate_ci

from rapidbleu.analysis.significance import PairedTest
from rapidbleu.cli.main import main as cli_main
from rapidbleu.metrics.caption.metric import CIDErD, COCORougeL

SEED = 12345


def _data(seed: int, n: int = 40) -> tuple[list[str], list[str], list[list[str]]]:
    """Two systems' captions (one line each) and two references per image."""
    gts, res = generated(random.Random(seed), n, (2, 2), 8)
    _, res2 = generated(random.Random(seed + 100), n, (2, 2), 8)
    one = [" ".join(res[k][0].split()) for k in gts]
    two = [" ".join(v[0].split()) for v in res2.values()]
    refs = [[" ".join(r.split()) for r in gts[k]] for k in gts]
    return one, two, refs


def _theirs(name: str, hyps: list[str], refs: list[list[str]]) -> tuple[float, Any]:
    """pycocoevalcap's corpus value and image scores (the references' set fixed)."""
    gts = dict(enumerate(refs))
    res = {i: [h] for i, h in enumerate(hyps)}
    scorer = Cider() if name == "cider" else Rouge()
    mean, imgs = scorer.compute_score(gts, res)
    return float(mean), np.asarray(imgs, dtype=np.float64)


def _metric(name: str) -> CIDErD | COCORougeL:
    return CIDErD() if name == "cider" else COCORougeL()


NAMES = {"cider": "CIDEr-D", "rouge_l": "ROUGE-L"}


def test_sentence_level_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, _, refs = _data(1)
    (tmp_path / "hyp").write_text("".join(h + "\n" for h in one), encoding="utf-8")
    for k in range(2):
        (tmp_path / f"ref{k}").write_text("".join(r[k] + "\n" for r in refs), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # Chunks of 7 lines: CIDEr-D's frequencies must still be those of every image.
    monkeypatch.setattr("rapidbleu.cli.scoring.CHUNK_LINES", 7)
    _, imgs = _theirs("cider", one, refs)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    argv = ["ref0", "ref1", "-i", "hyp", "-m", "cider", "-sl", "-b", "-w", "12"]
    assert cli_main(argv, stdin=io.BytesIO()) == 0
    assert out.getvalue().splitlines() == [f"{100 * v:.12f}" for v in imgs.tolist()]
    out.truncate(0)
    out.seek(0)
    assert cli_main([*argv[:-3], "-w", "12"], stdin=io.BytesIO()) == 0
    lines = out.getvalue().splitlines()
    assert [line.rsplit("= ", 1)[1] for line in lines] == [f"{100 * v:.12f}" for v in imgs]
    assert all(line.startswith("CIDEr-D|nrefs:2|") for line in lines)


@pytest.mark.parametrize("name", ["cider", "rouge_l"])
def test_confidence_interval(name: str) -> None:
    one, _, refs = _data(2)
    _, imgs = _theirs(name, one, refs)
    n_samples = 300
    idxs = np.random.default_rng(SEED).choice(len(one), size=(n_samples, len(one)), replace=True)
    # sacreBLEU's corpus_score(n_bootstrap=...): Score.estimate_ci of the resamples' scores.
    want = SacreScore("x", 0.0)
    want.estimate_ci([SacreScore("x", v) for v in 100 * np.mean(imgs[idxs], axis=1)])
    streams = [[r[k] for r in refs] for k in range(2)]
    score = _metric(name).corpus_score(one, streams, n_bootstrap=n_samples)
    assert (score._mean, score._ci) == (want._mean, want._ci)
    assert score.value == float(np.mean(imgs))


@pytest.mark.parametrize("name", ["cider", "rouge_l"])
def test_paired_bootstrap(name: str) -> None:
    one, two, refs = _data(3)
    streams = [[r[k] for r in refs] for k in range(2)]
    n_samples = 200
    named = [("one", one), ("two", two)]
    _, results = PairedTest(named, {name: _metric(name)}, streams, "bs", n_samples)()
    base, sys_result = results[NAMES[name]]
    bl_mean, bl_imgs = _theirs(name, one, refs)
    sy_mean, sy_imgs = _theirs(name, two, refs)
    idxs = np.random.default_rng(SEED).choice(len(one), size=(n_samples, len(one)), replace=True)
    bl = 100 * np.mean(bl_imgs[idxs], axis=1)
    sy = 100 * np.mean(sy_imgs[idxs], axis=1)
    diffs = np.abs(sy - bl)
    p = _compute_p_value(diffs - diffs.mean(), abs(100 * bl_mean - 100 * sy_mean))
    assert (base.score, sys_result.score) == (100 * bl_mean, 100 * sy_mean)
    assert (sys_result.p_value, sys_result.mean, sys_result.ci) == (p, *estimate_ci(sy))
    assert (base.mean, base.ci) == estimate_ci(bl)


@pytest.mark.parametrize("name", ["cider", "rouge_l"])
def test_paired_randomization(name: str) -> None:
    one, two, refs = _data(4)
    streams = [[r[k] for r in refs] for k in range(2)]
    n_samples = 300
    named = [("one", one), ("two", two)]
    test = PairedTest(named, {name: _metric(name)}, streams, "ar", n_samples, n_ar_confidence=-1)
    _, results = test()
    _, sys_result = results[NAMES[name]]
    bl_mean, bl_imgs = _theirs(name, one, refs)
    sy_mean, sy_imgs = _theirs(name, two, refs)
    pos = np.random.default_rng(SEED).integers(2, size=(n_samples, len(one)), dtype=bool)
    neg = ~pos
    bl, sy = 100 * bl_imgs, 100 * sy_imgs
    a = (pos @ bl + neg @ sy) / len(one)
    b = (neg @ bl + pos @ sy) / len(one)
    p = _compute_p_value(np.abs(a - b), abs(100 * bl_mean - 100 * sy_mean))
    assert sys_result.score == 100 * sy_mean
    assert sys_result.p_value == p


def test_paired_command_runs_cider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two, refs = _data(5, 30)
    for name, lines in (("a", one), ("b", two), ("r0", [r[0] for r in refs])):
        (tmp_path / name).write_text("".join(s + "\n" for s in lines), encoding="utf-8")
    (tmp_path / "r1").write_text("".join(r[1] + "\n" for r in refs), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    argv = ["r0", "r1", "-i", "a", "b", "-m", "cider", "-pbs", "-f", "json"]
    assert cli_main(argv, stdin=io.BytesIO()) == 0
    printed = json.loads(out.getvalue())
    streams = [[r[0] for r in refs], [r[1] for r in refs]]
    _, results = PairedTest([("a", one), ("b", two)], {"cider": CIDErD()}, streams, "bs")()
    assert printed[1]["CIDEr-D"]["p_value"] == results["CIDEr-D"][1].p_value
