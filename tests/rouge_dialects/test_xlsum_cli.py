"""``-m rouge --rouge-dialect xlsum`` / ``--rouge-lang LANG`` against multilingual-rouge (``==``).

From files and ``--jsonl``, corpus (the mean of the package's per-item scores, added in item
order) and per item, on real WMT lines (Chinese with ``--rouge-lang chinese``, English with the
default language and its Porter stemmer, Thai-script generated items with ``thai``).
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from clitools import ours
from conftest import DATA, read_lines
from multilingual_rouge import rouge_scorer as mrs

from rapidbleu.metrics.rouge.xlsum_metric import XLSumROUGE

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_golden

N = 60


def real(lang: str | None) -> tuple[list[str], list[str]]:
    pair, side = ("wmt22.en-zh", "zh") if lang == "chinese" else ("wmt22.zh-en", "en")
    name = "HuaweiTSC" if side == "zh" else "NiuTrans"
    refs = [x.rstrip() for x in read_lines(DATA / pair / f"ref.A.{side}")[:N]]
    hyps = [x.rstrip() for x in read_lines(DATA / pair / f"hyp.{name}.{side}")[:N]]
    return refs, hyps


def generated() -> tuple[list[str], list[str]]:
    items = make_golden.items(random.Random(5))
    picked = [it for it in items if "\n" not in it[2] + it[3] and it[2].strip() and it[3].strip()]
    picked = random.Random(6).sample(picked, N)
    return [r for _, _, _, r in picked], [h for _, _, h, _ in picked]


def package_scores(refs: list[str], hyps: list[str], types: list[str], **kw: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = mrs.RougeScorer(types, **kw)
        return [scorer.score(r, h) for r, h in zip(refs, hyps)]


CASES = [
    (["--rouge-lang", "chinese"], "chinese", False, real),
    (["--rouge-dialect", "xlsum", "--rouge-stemmer"], None, True, real),
    (["--rouge-dialect", "xlsum", "--rouge-lang", "thai"], "thai", False, lambda _: generated()),
]


@pytest.mark.parametrize(("flags", "lang", "stem", "data"), CASES)
def test_files_and_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], lang: Any, stem: bool,
    data: Any,
) -> None:  # fmt: skip
    refs, hyps = data(lang)
    types = ["rouge1", "rougeL", "rougeLsum"]
    want = package_scores(refs, hyps, types, lang=lang, use_stemmer=stem)
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", "utf-8")
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", "utf-8")
    args = ["r.txt", "-i", "h.txt", "-m", "rouge", "--rouge-types", ",".join(types), *flags]
    rc, out, err = ours([*args, "-w", "4"], tmp_path, capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert f"tok:xlsum-{lang or 'default'}" in got["signature"]
    mean = 0.0
    for w in want:  # items added in order, as the core does
        mean += w["rouge1"].fmeasure
    assert got["score"] == float(f"{100 * (mean / N):.4f}")
    rows = [
        json.dumps({"id": i, "candidate": h, "references": [r]})
        for i, (r, h) in enumerate(zip(refs, hyps))
    ]
    (tmp_path / "x.jsonl").write_text("\n".join(rows) + "\n", "utf-8")
    jl = ["--jsonl", "x.jsonl", "-m", "rouge", "--rouge-types", ",".join(types), *flags]
    rc, out, err = ours(jl, tmp_path, capsys)
    assert rc == 0, err
    corpus = json.loads(out)
    for t in types:
        for k, field in enumerate(("precision", "recall", "fmeasure")):
            total = 0.0
            for w in want:
                total += float(w[t][k])
            assert corpus[f"{t}_{field}"] == total / N
    rc, out, err = ours([*jl, "--per-item"], tmp_path, capsys)
    assert rc == 0, err
    items = [json.loads(line) for line in out.splitlines()]
    assert [r["rouge"] for r in items] == [w["rouge1"].fmeasure for w in want]


def test_metric_equals_the_package_per_item() -> None:
    refs, hyps = generated()
    types = ["rouge2", "rougeL", "rougeLsum"]
    want = package_scores(refs, hyps, types, lang="hindi", use_stemmer=True)
    metric = XLSumROUGE(types, lang="hindi", use_stemmer=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lists = metric.fmeasure_lists(hyps, [[r] for r in refs], per_segment=True)
    assert lists == {t: [w[t].fmeasure for w in want] for t in types}


@pytest.mark.parametrize(
    "flags",
    [
        ["--rouge-dialect", "pltrdy", "--rouge-lang", "thai"],
        ["--rouge-lang", "thai", "--rouge-tokenizer", "unicode"],
        ["--rouge-dialect", "xlsum", "--rouge-split-summaries"],
    ],
)
def test_bad_combinations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    (tmp_path / "r.txt").write_text("a\n", "utf-8")
    rc, _, err = ours(["r.txt", "-i", "r.txt", "-m", "rouge", *flags], tmp_path, capsys)
    assert rc != 0
    assert "--rouge-" in err
