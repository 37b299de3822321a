"""``--jsonl`` with the caption metrics over many chunks: CIDEr-D's document frequencies come
from every item, not from each chunk the reader yields, so the corpus value and every item's
score equal pycocoevalcap's (``==``) at any size.

The reader's chunk (20,000 lines) is made small here, so a few dozen items span many chunks;
one test keeps the real chunk size with 20,050 short items (fast: no oracle there, the scores
are compared with ``rapidbleu.metrics.caption.Cider``'s, which test_caption_parity.py compares
with pycocoevalcap's).
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from caption_data import generated
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

from rapidbleu.cli.main import main as cli_main
from rapidbleu.metrics.caption import Cider as RapidCider


def _write(path: Path, hyps: list[str], refs: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for i, (h, r) in enumerate(zip(hyps, refs)):
            f.write(json.dumps({"id": i, "prediction": h, "references": r}) + "\n")


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli_main(argv, stdin=io.BytesIO()) == 0
    return out.getvalue()


def test_many_chunks_equal_pycocoevalcap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gts, res = generated(random.Random(11), 45, (1, 4), 8)
    hyps = [" ".join(res[k][0].split()) for k in gts]
    refs = [[" ".join(r.split()) for r in gts[k]] for k in gts]
    gts = {i: r for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    _write(tmp_path / "items.jsonl", hyps, refs)
    monkeypatch.setattr("rapidbleu.cli.jsonl.CHUNK_LINES", 7)
    argv = ["--jsonl", str(tmp_path / "items.jsonl"), "-m", "cider", "coco_bleu", "rouge_l"]
    cider, cider_imgs = Cider().compute_score(gts, res)
    bleu, bleu_imgs = Bleu(4).compute_score(gts, res, verbose=0)
    rouge, rouge_imgs = Rouge().compute_score(gts, res)
    corpus = json.loads(_run(argv, monkeypatch))
    assert corpus["cider"] == float(cider)
    assert [corpus[f"Bleu_{k}"] for k in range(1, 5)] == bleu
    assert corpus["rouge_l"] == float(rouge)
    items = [json.loads(line) for line in _run([*argv, "--per-item"], monkeypatch).splitlines()]
    assert [d["id"] for d in items] == list(range(len(hyps)))
    assert [d["cider"] for d in items] == cider_imgs.tolist()
    assert [d["coco_bleu"] for d in items] == bleu_imgs[3]
    assert [d["rouge_l"] for d in items] == rouge_imgs.tolist()


def test_more_items_than_a_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    words = ["a", "b", "c", "d", "e", "f"]
    n = 20_050
    hyps = [rng.choice(words) for _ in range(n)]
    refs = [[rng.choice(words), " ".join(rng.choices(words, k=2))] for _ in range(n)]
    _write(tmp_path / "items.jsonl", hyps, refs)
    argv = ["--jsonl", str(tmp_path / "items.jsonl"), "-m", "cider"]
    theirs = (
        RapidCider()
        .compute_score(dict(enumerate(refs)), {i: [h] for i, h in enumerate(hyps)})[1]
        .tolist()
    )
    out = _run([*argv, "--per-item"], monkeypatch)
    assert [json.loads(line)["cider"] for line in out.splitlines()] == theirs
    # The first chunk's own document frequencies give other scores: the test can tell.
    first = (
        RapidCider()
        .compute_score(
            dict(enumerate(refs[:20_000])), {i: [h] for i, h in enumerate(hyps[:20_000])}
        )[1]
        .tolist()
    )
    assert first != theirs[:20_000]
