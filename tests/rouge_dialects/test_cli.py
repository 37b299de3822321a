"""``-m rouge --rouge-tokenizer unicode``: the command scores with rapidbleu's Unicode tokenizer.

Per item and corpus, from files and ``--jsonl``, equal (``==``) to
``ROUGE(types, tokenizer="unicode")`` on the same lines (Chinese, which rouge-score's tokenizer
mostly drops).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import ours
from conftest import DATA, read_lines

from rapidbleu.metrics import ROUGE

N = 80
REF, HYP = "wmt22.en-zh/ref.A.zh", "wmt22.en-zh/hyp.HuaweiTSC.zh"


def lines() -> tuple[list[str], list[str]]:
    return (
        [x.rstrip() for x in read_lines(DATA / REF)[:N]],
        [x.rstrip() for x in read_lines(DATA / HYP)[:N]],
    )


def test_files_and_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refs, hyps = lines()
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", "utf-8")
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", "utf-8")
    metric = ROUGE(["rouge1", "rougeL"], tokenizer="unicode")
    want = [metric.score(r, h) for r, h in zip(refs, hyps)]
    assert all(w["rouge1"].fmeasure > 0 for w in want[:5])
    args = ["r.txt", "-i", "h.txt", "-m", "rouge", "--rouge-types", "rouge1,rougeL", "-w", "4"]
    rc, out, err = ours([*args, "--rouge-tokenizer", "unicode"], tmp_path, capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert "tok:unicode" in got["signature"]
    mean = sum(w["rouge1"].fmeasure for w in want) / N  # items added in order, as the core does
    assert got["score"] == float(f"{100 * mean:.4f}")
    rc, out, _ = ours([*args, "--rouge-tokenizer", "default"], tmp_path, capsys)
    default = ROUGE(["rouge1"]).score
    plain = sum(default(r, h)["rouge1"].fmeasure for r, h in zip(refs, hyps)) / N
    assert json.loads(out)["score"] == float(f"{100 * plain:.4f}") < got["score"]
    rows = [
        json.dumps({"id": i, "candidate": h, "references": [r]})
        for i, (r, h) in enumerate(zip(refs, hyps))
    ]
    (tmp_path / "x.jsonl").write_text("\n".join(rows) + "\n", "utf-8")
    jl = ["--jsonl", "x.jsonl", "-m", "rouge", "--per-item", "--rouge-tokenizer", "unicode"]
    rc, out, err = ours(jl, tmp_path, capsys)
    assert rc == 0, err
    items = [json.loads(line) for line in out.splitlines()]
    # The 0..1 values are the scorer's own F-measures (never 100 * F / 100).
    assert [r["rouge"] for r in items] == [
        w["rouge1"].fmeasure
        for w in (ROUGE(tokenizer="unicode").score(r, h) for r, h in zip(refs, hyps))
    ]


def test_an_unknown_tokenizer_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r.txt").write_text("a\n", "utf-8")
    rc, _, err = ours(
        ["r.txt", "-i", "r.txt", "-m", "rouge", "--rouge-tokenizer", "zh"], tmp_path, capsys
    )
    assert rc != 0
    assert "allowed: default, unicode" in err


@pytest.mark.parametrize(
    ("dialect", "package"), [("pltrdy", "rouge"), ("chinese", "rouge_chinese")]
)
def test_rouge_dialect_equals_the_package_average(
    dialect: str, package: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    import jieba

    jieba.setLogLevel(60)
    refs, hyps = lines()
    if dialect == "chinese":
        refs = [" ".join(jieba.cut(r)) for r in refs]
        hyps = [" ".join(jieba.cut(h)) for h in hyps]
    else:
        en = "wmt22.zh-en/ref.A.en", "wmt22.zh-en/hyp.NiuTrans.en"
        refs, hyps = ([x.rstrip() for x in read_lines(DATA / f)[:N]] for f in en)
    rouge = importlib.import_module(package).Rouge()
    want = rouge.get_scores(hyps, refs, avg=True)
    items = rouge.get_scores(hyps, refs)
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", "utf-8")
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", "utf-8")
    args = ["r.txt", "-i", "h.txt", "-m", "rouge", "--rouge-dialect", dialect, "-w", "4"]
    rc, out, err = ours(args, tmp_path, capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert got["score"] == float(f"{100 * want['rouge-1']['f']:.4f}")
    assert f"dialect:{dialect}" in got["signature"]
    rows = [
        json.dumps({"id": i, "candidate": h, "references": [r]})
        for i, (r, h) in enumerate(zip(refs, hyps))
    ]
    (tmp_path / "x.jsonl").write_text("\n".join(rows) + "\n", "utf-8")
    jl = ["--jsonl", "x.jsonl", "-m", "rouge", "--rouge-dialect", dialect]
    rc, out, err = ours(jl, tmp_path, capsys)
    assert rc == 0, err
    corpus = json.loads(out)
    for m in ("rouge-1", "rouge-2", "rouge-l"):
        assert [corpus[f"{m}_{s}"] for s in "fpr"] == [want[m][s] for s in "fpr"]
    rc, out, err = ours([*jl, "--per-item"], tmp_path, capsys)
    assert rc == 0, err
    per_item = [json.loads(line) for line in out.splitlines()]
    assert [r["rouge"] for r in per_item] == [100 * it["rouge-1"]["f"] / 100 for it in items]
