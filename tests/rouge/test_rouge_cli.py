"""``rapidbleu -m rouge``: the command, JSON, ``--jsonl``, streaming, ``-ci`` and the report.

Every number is checked against rouge-score 0.1.2 run on the same lines (``score_multi`` of
each item's references), with ``==``: the corpus score is the mean of the items' scores added
in item order, times 100; on ``--scale unit`` (0..1) the values are rouge-score's floats.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clitools import ours
from conftest import DATA, read_lines
from rouge_score import rouge_scorer

from rapidbleu.cli import scoring
from rapidbleu.metrics import Score
from rapidbleu.metrics.resampling import bootstrap_indices

N = 120
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
FILES = ["wmt22.zh-en/ref.A.en", "wmt22.zh-en/ref.B.en", "wmt22.zh-en/hyp.NiuTrans.en"]


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    """The first N lines of two references and a system, as files (the command rstrips)."""
    names = []
    for k, f in enumerate(FILES):
        (tmp_path / f"f{k}.txt").write_text("\n".join(read_lines(DATA / f)[:N]) + "\n", "utf-8")
        names.append(f"f{k}.txt")
    return names


def oracle(types: list[str], stem: bool = False) -> list[dict[str, Any]]:
    """rouge-score's scores of every item against its two references."""
    ref_a, ref_b, hyp = ([x.rstrip() for x in read_lines(DATA / f)[:N]] for f in FILES)
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    return [scorer.score_multi([a, b], h) for a, b, h in zip(ref_a, ref_b, hyp)]


def means(items: list[dict[str, Any]], rouge_type: str) -> list[float]:
    """Mean precision, recall and F-measure, each added item after item (the corpus score)."""
    sums = [0.0, 0.0, 0.0]
    for s in items:
        sums = [t + v for t, v in zip(sums, s[rouge_type])]
    return [t / len(items) for t in sums]


def test_corpus_json_and_text(
    files: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [files[0], files[1], "-i", files[2], "-m", "rouge", "--rouge-stemmer", "-w", "4"]
    rc, out, err = ours([*args, "--rouge-types", "rouge2,rougeL"], tmp_path, capsys)
    assert rc == 0, err
    items = oracle(["rouge2", "rougeL"], stem=True)
    got = json.loads(out)
    assert got["name"] == "ROUGE"
    assert got["score"] == float(f"{100 * means(items, 'rouge2')[2]:.4f}")
    assert got["signature"].startswith("nrefs:2|types:rouge2+rougeL|stem:yes|split:no|tok:default")
    verbose = " ".join(
        f"{t} " + " ".join(f"{k} {100 * v:.2f}" for k, v in zip("PRF", means(items, t)))
        for t in ["rouge2", "rougeL"]
    )
    assert got["verbose_score"] == verbose
    rc, out, _ = ours([*args, "-f", "text", "-b"], tmp_path, capsys)
    assert out.strip() == f"{100 * means(oracle(TYPES, stem=True), 'rouge1')[2]:.4f}"


def test_jsonl_corpus_and_items(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref_a, ref_b, hyp = ([x.rstrip() for x in read_lines(DATA / f)[:N]] for f in FILES)
    lines = [
        json.dumps({"id": i, "candidate": h, "references": [a, b]})
        for i, (a, b, h) in enumerate(zip(ref_a, ref_b, hyp))
    ]
    (tmp_path / "x.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    items = oracle(TYPES)
    rc, out, err = ours(["--jsonl", "x.jsonl", "-m", "rouge"], tmp_path, capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert got["rouge"] == means(items, "rouge1")[2]  # the oracle's float, not 100 * F / 100
    for t in TYPES:
        p, r, f = means(items, t)
        assert [got[f"{t}_precision"], got[f"{t}_recall"], got[f"{t}_fmeasure"]] == [p, r, f]
    rc, out, _ = ours(["--jsonl", "x.jsonl", "-m", "rouge", "bleu", "--per-item"], tmp_path, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == list(range(N))
    assert [r["rouge"] for r in rows] == [s["rouge1"].fmeasure for s in items]
    args = ["--jsonl", "x.jsonl", "-m", "rouge", "--per-item", "--scale", "percent"]
    rc, out, _ = ours([*args, "--rouge-types", "rougeLsum"], tmp_path, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["rouge"] for r in rows] == [100 * s["rougeLsum"].fmeasure for s in items]


@pytest.mark.parametrize("chunk", [1, 7])
def test_streaming_changes_nothing(
    chunk: int,
    files: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = [files[0], files[1], "-i", files[2], files[0], "-m", "rouge", "-f", "text"]
    _, expected, _ = ours(args, tmp_path, capsys)
    monkeypatch.setattr(scoring, "CHUNK_LINES", chunk)
    rc, out, err = ours(args, tmp_path, capsys)
    assert rc == 0, err
    assert out == expected
    sl = [files[0], "-i", files[2], "-m", "rouge", "-sl", "-b", "--rouge-types", "rougeL"]
    rc, out, _ = ours(sl, tmp_path, capsys)
    ref_a, _, hyp = ([x.rstrip() for x in read_lines(DATA / f)[:N]] for f in FILES)
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    want = [f"{100 * scorer.score(r, h)['rougeL'].fmeasure:.1f}" for r, h in zip(ref_a, hyp)]
    assert out.split() == want


def test_confidence_interval(
    files: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [files[0], files[1], "-i", files[2], "-m", "rouge", "-ci", "--confidence-n", "200"]
    rc, out, err = ours([*args, "-w", "6"], tmp_path, capsys)
    assert rc == 0, err
    got = json.loads(out)
    # Each resample's score is the corpus score of its items (sacreBLEU's draws, seed 12345).
    f = [s["rouge1"].fmeasure for s in oracle(TYPES)]
    resampled = []
    for idx in bootstrap_indices(12345, 200, N):
        total = 0.0
        for i in idx:
            total += f[i]
        resampled.append(100 * (total / N))
    want = Score("ROUGE", 0.0)
    want.estimate_ci(resampled)
    assert "bs:200|seed:12345|types:rouge1+rouge2+rougeL+rougeLsum" in got["signature"]
    assert got["confidence_mean"] == float(f"{want._mean:.6f}")
    assert got["confidence_var"] == float(f"{want._ci:.6f}")


def test_report(files: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["report", files[0], "-i", files[2], files[1], "-m", "rouge", "-o", "r.html"]
    rc, _, err = ours([*args, "--rouge-types", "rougeL"], tmp_path, capsys)
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text("utf-8")
    assert "ROUGE" in page and "types:rougeL" in page
