"""ROUGE's dialects: the Rust core against each package on the same items, in one run.

Before the Python glue exists, the core is timed by its example program
(``crates/rapidbleu-core/examples/time_rouge_dialects.rs``: rows and every item's scores, the
best of ``--repeats`` runs, reading excluded), and each package by calling it here once per
item as its users do. Every item's scores from the core are compared with the package's with
``==`` on f64 bits (exit status 1 if any differs). Rows:

- ``rouge``: ``rouge`` 1.0.1 ``Rouge().get_scores(hyps, refs)`` (rouge-1, rouge-2, rouge-l,
  exclusive), one call for all items (its batched form), on documents of 1 to 3 consecutive
  WMT22 zh-en lines (English) of the systems against reference A;
  The row also times rapidbleu's Python ``Rouge().get_scores`` (the build installed in the
  venv; result dicts compared with ``==``);
- ``rouge-chinese``: ``rouge-chinese`` 1.0.3 the same way on WMT22 en-zh documents segmented
  with jieba (segmentation done before either side is timed);
- ``unicode``: rouge-score 0.1.2 ``RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])``
  per item with rapidbleu's Unicode tokenizer written in Python (make_golden.py's reference),
  and with rouge-score's own default tokenizer for scale, on documents (lines joined with
  ``\\n``) in English, Chinese, Japanese, Korean and German; Porter stemmer;
- ``xlsum-en`` / ``xlsum-zh``: ``multilingual-rouge`` 0.0.1 ``RougeScorer(..., lang=...)`` per
  item (``lang=None`` with its Porter stemmer on English; ``lang="chinese"``, jieba, on
  Chinese). The core scores the package's own tokens, so the table shows the package's full
  time and its scoring time alone (full minus its tokenization of the same items).

Data: ``$RAPIDBLEU_DATA``, else ``../shared/data`` beside the repository or /work/shared/data,
else tests/data. Results go to ``benchmarks/results/bench_rouge_dialects_core.json``.

Usage::

    .venv/bin/python benchmarks/bench_rouge_dialects_core.py               # ~5 minutes
    .venv/bin/python benchmarks/bench_rouge_dialects_core.py --items 1000 --dialects rouge
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import struct
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "rouge_dialects"))

DIALECTS = ["rouge", "rouge-chinese", "unicode", "xlsum-en", "xlsum-zh"]
LSUM = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def data_dir() -> Path:
    for d in (
        os.environ.get("RAPIDBLEU_DATA"),
        ROOT.parent / "shared" / "data",
        "/work/shared/data",
    ):
        if d and (Path(d) / "golden.jsonl").is_file():
            return Path(d)
    return ROOT / "tests" / "data"


def documents(pair: str, n: int, sep: str) -> tuple[list[str], list[str]]:
    """``n`` (hyp, ref) documents of 1-3 consecutive lines of every system of ``pair``."""
    d = data_dir() / pair
    refs = (d / f"ref.A.{pair[-2:]}").read_text(encoding="utf-8").split("\n")[:-1]
    systems = [p.read_text(encoding="utf-8").split("\n")[:-1] for p in sorted(d.glob("hyp.*"))]
    hyps, out_refs = [], []
    for k in range(n):
        sys_lines = systems[k % len(systems)]
        start = (k * 7 + k // len(systems)) % (len(refs) - 3)
        span = 1 + k % 3
        hyps.append(sep.join(sys_lines[start : start + span]))
        out_refs.append(sep.join(refs[start : start + span]))
    return hyps, out_refs


def bits(x: float) -> str:
    return f"{struct.unpack('<Q', struct.pack('<d', float(x)))[0]:016x}"


def build() -> Path:
    subprocess.run(
        [
            "cargo",
            "build",
            "--release",
            "-q",
            "-p",
            "rapidbleu-core",
            "--example",
            "time_rouge_dialects",
        ],
        cwd=ROOT,
        check=True,
    )
    return ROOT / "target" / "release" / "examples" / "time_rouge_dialects"


def run_core(
    exe: Path, dialect: str, lines: list[str], threads: int, repeats: int
) -> tuple[dict[str, Any], list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "items.tsv", Path(tmp) / "scores.txt"
        src.write_text(
            "".join(line.replace("\n", "\x1d") + "\n" for line in lines), encoding="utf-8"
        )
        res = subprocess.run(
            [str(exe), dialect, str(src), str(out), str(threads), str(repeats)],
            capture_output=True,
            text=True,
        )
        if res.returncode:
            raise SystemExit(f"{exe.name} {dialect} failed: {res.stderr}")
        return json.loads(res.stdout), out.read_text().split("\n")[:-1]


def pkg_rouge(module, hyps: list[str], refs: list[str]) -> tuple[float, list[str]]:
    t = time.perf_counter()
    scores = module.Rouge().get_scores(hyps, refs)
    elapsed = time.perf_counter() - t
    keys = ["rouge-1", "rouge-2", "rouge-l"]
    return elapsed, [
        "".join(f"{bits(s[m]['f'])},{bits(s[m]['p'])},{bits(s[m]['r'])} " for m in keys)
        for s in scores
    ]


def api(
    package: Any, module: str, hyps: list[str], refs: list[str], pkg_s: float
) -> dict[str, Any]:
    """rapidbleu's Python ``Rouge().get_scores`` (the installed build), timed, and its equality."""
    import importlib

    ours = importlib.import_module(f"rapidbleu.metrics.rouge.{module}").Rouge()
    ours.get_scores(hyps[:10], refs[:10])  # warm the worker pool
    t = time.perf_counter()
    got = ours.get_scores(hyps, refs)
    api_s = time.perf_counter() - t
    same = got == package.Rouge().get_scores(hyps, refs)
    return {"python_api_s": api_s, "python_api_ratio": pkg_s / api_s, "python_api_equal": same}


def score_lines(results) -> list[str]:
    return [
        "".join(f"{bits(r[t].precision)},{bits(r[t].recall)},{bits(r[t].fmeasure)} " for t in LSUM)
        for r in results
    ]


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=5, help="core runs (best is shown)")
    ap.add_argument("--dialects", default=",".join(DIALECTS))
    args = ap.parse_args()
    exe = build()
    n = args.items
    rows: list[dict[str, Any]] = []
    ok = True

    def record(
        name: str,
        core_lines_in: list[str],
        core_dialect: str,
        pkg_s: float,
        pkg_lines: list[str],
        extra: dict[str, Any] | None = None,
    ) -> None:
        nonlocal ok
        row: dict[str, Any] = {"dialect": name, "items": n, "package_s": pkg_s, **(extra or {})}
        for threads in (1, 0):
            timing, core_lines = run_core(exe, core_dialect, core_lines_in, threads, args.repeats)
            equal = core_lines == pkg_lines
            ok &= equal
            key = "1" if threads == 1 else "all"
            row[f"core_{key}_s"] = timing["best_s"]
            row[f"ratio_{key}"] = pkg_s / timing["best_s"]
            row["equal"] = row.get("equal", True) and equal and row.get("python_api_equal", True)
            if "package_scoring_s" in row:
                row[f"scoring_ratio_{key}"] = row["package_scoring_s"] / timing["best_s"]
        rows.append(row)
        print(json.dumps(row), flush=True)

    wanted = args.dialects.split(",")
    if "rouge" in wanted:
        import rouge

        hyps, refs = documents("wmt22.zh-en", n, " ")
        pkg_s, pkg_lines = pkg_rouge(rouge, hyps, refs)
        record(
            "rouge",
            [f"{h}\t{r}" for h, r in zip(hyps, refs)],
            "pltrdy",
            pkg_s,
            pkg_lines,
            api(rouge, "pltrdy", hyps, refs, pkg_s),
        )
    if "rouge-chinese" in wanted:
        import jieba
        import rouge_chinese

        jieba.setLogLevel(60)
        hyps, refs = documents("wmt22.en-zh", n, "")
        hyps = [" ".join(jieba.cut(h)) for h in hyps]
        refs = [" ".join(jieba.cut(r)) for r in refs]
        pkg_s, pkg_lines = pkg_rouge(rouge_chinese, hyps, refs)
        record(
            "rouge-chinese",
            [f"{h}\t{r}" for h, r in zip(hyps, refs)],
            "chinese",
            pkg_s,
            pkg_lines,
            api(rouge_chinese, "chinese", hyps, refs, pkg_s),
        )
    if "unicode" in wanted:
        from make_golden import UnicodeTokenizer
        from rouge_score import rouge_scorer

        hyps, refs = [], []
        for pair in ("wmt22.zh-en", "wmt22.en-zh", "wmt22.en-ja", "wmt24chat.en-ko", "wmt22.en-de"):
            h, r = documents(pair, n // 5, "\n")
            hyps += h
            refs += r
        scorer = rouge_scorer.RougeScorer(LSUM, tokenizer=UnicodeTokenizer(True))
        t = time.perf_counter()
        results = [scorer.score(r, h) for h, r in zip(hyps, refs)]
        pkg_s = time.perf_counter() - t
        default = rouge_scorer.RougeScorer(LSUM, use_stemmer=True)
        t = time.perf_counter()
        for h, r in zip(hyps, refs):
            default.score(r, h)
        default_s = time.perf_counter() - t
        record(
            "unicode",
            [f"{h}\t{r}" for h, r in zip(hyps, refs)],
            "unicode",
            pkg_s,
            score_lines(results),
            {"rouge_score_default_tokenizer_s": default_s},
        )
    for name, pair, lang, stem in (
        ("xlsum-en", "wmt22.zh-en", None, True),
        ("xlsum-zh", "wmt22.en-zh", "chinese", False),
    ):
        if name not in wanted:
            continue
        from multilingual_rouge import rouge_scorer as mrs
        from multilingual_rouge import tokenization_wrapper as mtok

        hyps, refs = documents(pair, n, "\n")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scorer = mrs.RougeScorer(LSUM, use_stemmer=stem, lang=lang)
            t = time.perf_counter()
            results = [scorer.score(r, h) for h, r in zip(hyps, refs)]
            pkg_s = time.perf_counter() - t

            def sents(text: str, stemmer: Any = scorer._stemmer) -> str:
                ss = [s for s in text.split("\n") if len(s)]
                return "\x1e".join("\x1f".join(mtok.tokenize(s, stemmer)) for s in ss)

            t = time.perf_counter()
            lines = []
            for h, r in zip(hyps, refs):
                tt = "\x1f".join(mtok.tokenize(r, scorer._stemmer, scorer._tokenizer))
                pt = "\x1f".join(mtok.tokenize(h, scorer._stemmer, scorer._tokenizer))
                lines.append(f"{tt}\t{pt}\t{sents(r)}\t{sents(h)}")
            tok_s = time.perf_counter() - t
        record(
            name,
            lines,
            "xlsum",
            pkg_s,
            score_lines(results),
            {"package_tokenize_s": tok_s, "package_scoring_s": max(pkg_s - tok_s, 0.0)},
        )

    out = ROOT / "benchmarks" / "results" / "bench_rouge_dialects_core.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                "machine": {
                    "cpus": os.cpu_count(),
                    "platform": platform.platform(),
                    "python": platform.python_version(),
                },
                "data": str(data_dir()),
                "rows": rows,
                "all_equal": ok,
            },
            indent=1,
        )
    )
    print(
        f"{'dialect':15} {'package s':>10} {'core 1t s':>10} {'ratio 1t':>9} "
        f"{'core all s':>11} {'ratio all':>10} equal"
    )
    for r in rows:
        print(
            f"{r['dialect']:15} {r['package_s']:10.3f} {r['core_1_s']:10.4f} {r['ratio_1']:9.1f} "
            f"{r['core_all_s']:11.4f} {r['ratio_all']:10.1f} {r['equal']}"
        )
        if "python_api_s" in r:
            print(
                f"{'':15} Python API (Rouge().get_scores, this build): {r['python_api_s']:.4f} s, "
                f"ratio {r['python_api_ratio']:.1f}, equal {r['python_api_equal']}"
            )
        if "scoring_ratio_1" in r:
            print(
                f"{'':15} scoring only: package {r['package_scoring_s']:.3f} s, "
                f"ratio {r['scoring_ratio_1']:.1f} (1t), {r['scoring_ratio_all']:.1f} (all)"
            )
    print(f"results: {out.relative_to(ROOT)}; all equal: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
