"""The caption metrics on the template (``coco_bleu``, ``rouge_l``, ``cider``) against
pycocoevalcap with ``==``: corpus values, every image's score (x 100 on the template's scale),
streams with varying references, the command (text, JSON, -ci), resampling under fixed
document frequencies."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from caption_data import generated
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

from rapidbleu.cli.main import main as cli_main
from rapidbleu.errors import UsageError
from rapidbleu.metrics.caption.metric import COCOBLEU, CIDErD, COCORougeL

Gts = dict[int, list[str]]


def data(seed: int, refs: tuple[int, int]) -> tuple[Gts, Gts, list[str], list[list[str]]]:
    gts, res = generated(random.Random(seed), 50, refs, 8)
    # Keys as ints in order: the command's and the template's images are positions.
    gts = {i: v for i, v in enumerate(gts.values())}
    res = {i: v for i, v in enumerate(res.values())}
    return gts, res, [res[i][0] for i in res], [gts[i] for i in gts]


@pytest.mark.parametrize("seed", range(3))
def test_template_equals_pycocoevalcap(seed: int) -> None:
    gts, res, hyps, refs = data(seed, (1, 5))
    for n in range(1, 5):
        m = COCOBLEU(n)
        rows = m.statistics(hyps, refs, per_segment=True)
        s = m.score_totals(m.total(rows))
        theirs, their_imgs = Bleu(n).compute_score(gts, res, verbose=0)
        assert s.values == theirs and s.value == theirs[-1] and s.score == 100 * theirs[-1]
        assert m.score_rows(rows).tolist() == [100 * v for v in their_imgs[-1]]
    rouge, rouge_imgs = Rouge().compute_score(gts, res)
    r = COCORougeL()
    rows = r.statistics(hyps, refs, per_segment=True)
    assert r.score_totals(r.total(rows)).value == rouge
    assert r.score_rows(rows).tolist() == (100 * rouge_imgs).tolist()
    cider, cider_imgs = Cider().compute_score(gts, res)
    c = CIDErD()
    rows = c.statistics(hyps, refs, per_segment=True)
    assert c.score_totals(c.total(rows)).value == cider
    assert c.sentence_scores(hyps, refs, per_segment=True).tolist() == (100 * cider_imgs).tolist()
    # Resampling keeps the full set's frequencies: a resample's score is the mean of its
    # images' scores.
    idxs = np.random.default_rng(seed).integers(0, len(hyps), (5, len(hyps)))
    assert c.resample_scores(rows, idxs).tolist() == [100 * np.mean(cider_imgs[i]) for i in idxs]


def test_streams_with_missing_references() -> None:
    gts, res, hyps, refs = data(4, (3, 3))
    for i in range(0, len(refs), 4):
        gts[i] = refs[i] = refs[i][:2]  # a stream without image i's third reference
    streams = [[g[k] if k < len(g) else None for g in refs] for k in range(3)]
    for m, theirs in [
        (COCOBLEU(), Bleu(4).compute_score(gts, res, verbose=0)[0][3]),
        (COCORougeL(), Rouge().compute_score(gts, res)[0]),
        (CIDErD(), Cider().compute_score(gts, res)[0]),
    ]:
        assert m.corpus_score(hyps, streams).value == theirs
        assert m.get_signature().info["nrefs"] == "var"


def test_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gts, res, hyps, refs = data(5, (2, 2))
    hyps = [" ".join(h.split()) for h in hyps]  # one line each
    refs = [[" ".join(r.split()) for r in g] for g in refs]
    gts = {i: g for i, g in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    (tmp_path / "hyp").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    for k in range(2):
        (tmp_path / f"ref{k}").write_text("".join(g[k] + "\n" for g in refs), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    argv = ["ref0", "ref1", "-i", "hyp", "-m", "cider", "coco_bleu", "rouge_l", "-f", "json"]
    assert cli_main(argv, stdin=io.BytesIO()) == 0
    scores = {d["name"]: d["score"] for d in json.loads(out.getvalue())}
    theirs = {
        "CIDEr-D": 100 * Cider().compute_score(gts, res)[0],
        "COCO-BLEU-4": 100 * Bleu(4).compute_score(gts, res, verbose=0)[0][3],
        "ROUGE-L": 100 * Rouge().compute_score(gts, res)[0],
    }
    assert scores == {k: round(float(v), 1) for k, v in theirs.items()}
    out.truncate(0)
    out.seek(0)
    assert cli_main([*argv[:-2], "-f", "text", "-w", "12"], stdin=io.BytesIO()) == 0
    printed = {
        line.split("|")[0].strip(): line.rsplit("= ", 1)[1] for line in out.getvalue().splitlines()
    }
    assert printed == {k: f"{float(v):.12f}" for k, v in theirs.items()}
    with pytest.raises(UsageError):
        CIDErD().chunk_statistics(None)  # type: ignore[arg-type]
