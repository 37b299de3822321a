"""ROUGE: rapidbleu against Google's rouge-score 0.1.2 on the same inputs, in one run.

Items are documents of 3 to 5 consecutive lines (sentences, joined with ``\\n``) of a WMT22
zh-en system (the prediction) and reference A (the target), ``--items`` of them (10,000 by
default) taken at staggered offsets. The rouge types are rouge1, rouge2, rougeL and rougeLsum,
with the Porter stemmer. Cases:

- ``score``: every item's scores: rouge-score's ``RougeScorer.score`` per item against
  rapidbleu's batched ``ROUGE.score_arrays`` (all cores);
- ``score_calls``: the same through rapidbleu's per-item ``ROUGE.score`` (one call per item);
- ``aggregate``: ``BootstrapAggregator`` (1,000 resamples) of those scores: rouge-score's
  ``add_scores`` per item + ``aggregate()`` against rapidbleu's ``add_arrays`` +
  ``aggregate()``, both after ``np.random.seed(0)`` (the same draws);
- ``total``: ``score`` + ``aggregate``.

Then (unless ``--no-dialects``) a row per ROUGE dialect against its package, and the
one-call-per-item path against rouge-score-rs 0.2.1 (``rouge_dialect_cases.py``), on the same
number of items.

Each round times rouge-score once, then rapidbleu ``--rapid-rounds`` times, interleaved; the
table shows medians and the ratios rouge-score / rapidbleu. Every case checks that the results
are equal with ``==`` (exit status 1 if not). Results go to ``benchmarks/results/bench_rouge.json``.

Usage::

    .venv/bin/python benchmarks/bench_rouge.py                  # about 10 minutes
    .venv/bin/python benchmarks/bench_rouge.py --items 1000 --rounds 1
    .venv/bin/python benchmarks/bench_rouge.py --no-rouge-score --dialect-cases xlsum_en
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rouge_score import rouge_scorer, scoring
from text_lines import read

from rapidbleu.metrics import ROUGE
from rapidbleu.metrics.rouge.scoring import BootstrapAggregator

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_rouge.json"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TARGET = 100.0


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def documents(data: Path, items: int) -> tuple[list[str], list[str]]:
    """``items`` (prediction, target) documents of 3 to 5 consecutive lines each."""
    d = data / "wmt22.zh-en"
    hyp, ref = read(d / "hyp.NiuTrans.en"), read(d / "ref.A.en")
    n = len(hyp) - 5
    preds, targets = [], []
    for i in range(items):
        start, k = (i * 37) % n, 3 + i % 3
        preds.append("\n".join(hyp[start : start + k]))
        targets.append("\n".join(ref[start : start + k]))
    return preds, targets


def timed(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def theirs_score(preds: list[str], targets: list[str]) -> list[dict[str, Any]]:
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    return [scorer.score(t, p) for t, p in zip(targets, preds)]


def theirs_aggregate(scores: list[dict[str, Any]]) -> dict[str, Any]:
    agg = scoring.BootstrapAggregator()
    for s in scores:
        agg.add_scores(s)
    np.random.seed(0)
    return agg.aggregate()


def ours_score(preds: list[str], targets: list[str]) -> dict[str, Any]:
    return ROUGE(TYPES, use_stemmer=True).score_arrays(preds, [targets])


def ours_calls(preds: list[str], targets: list[str]) -> list[dict[str, Any]]:
    rouge = ROUGE(TYPES, use_stemmer=True)
    return [rouge.score(t, p) for t, p in zip(targets, preds)]


def ours_aggregate(arrays: dict[str, Any]) -> dict[str, Any]:
    agg = BootstrapAggregator()
    agg.add_arrays(arrays)
    np.random.seed(0)
    return agg.aggregate()


def as_dicts(arrays: dict[str, Any]) -> list[dict[str, tuple[float, ...]]]:
    n = len(next(iter(arrays.values())))
    return [{t: tuple(a[i]) for t, a in arrays.items()} for i in range(n)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--data", type=Path, default=Path(os.environ.get("RAPIDBLEU_DATA", DEFAULT_DATA))
    )
    p.add_argument("--items", type=int, default=10_000)
    p.add_argument("--rounds", type=int, default=3, help="rouge-score runs per case")
    p.add_argument("--rapid-rounds", type=int, default=3, help="rapidbleu runs per round")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--no-dialects", action="store_true", help="skip the dialects' rows")
    p.add_argument("--no-rouge-score", action="store_true", help="only the dialects' rows")
    p.add_argument(
        "--dialect-cases", default="", help="comma-separated dialect rows to run (default: all)"
    )
    args = p.parse_args()
    if not (args.data / "wmt22.zh-en").is_dir():
        args.data = REPO / "tests" / "data"  # the subset in the repository has the same files
    preds, targets = documents(args.data, args.items)
    words = sum(len(x.split()) for x in preds) / len(preds)
    log(f"{len(preds)} items, {words:.0f} words a prediction, types {TYPES}, stemmer on")
    times: dict[str, dict[str, list[float]]] = {
        c: {"rouge_score": [], "rapidbleu": []}
        for c in ("score", "score_calls", "aggregate", "total")
    }
    same = True
    for r in range(0 if args.no_rouge_score else args.rounds):
        t_score, want = timed(lambda: theirs_score(preds, targets))
        t_agg, want_agg = timed(lambda w=want: theirs_aggregate(w))  # type: ignore[misc]
        log(f"round {r + 1}: rouge-score score {t_score:.1f} s, aggregate {t_agg:.2f} s")
        for name, t in (("score", t_score), ("score_calls", t_score), ("aggregate", t_agg)):
            times[name]["rouge_score"].append(t)
        times["total"]["rouge_score"].append(t_score + t_agg)
        for _ in range(args.rapid_rounds):
            s, arrays = timed(lambda: ours_score(preds, targets))
            c, calls = timed(lambda: ours_calls(preds, targets))
            a, got_agg = timed(lambda x=arrays: ours_aggregate(x))  # type: ignore[misc]
            times["score"]["rapidbleu"].append(s)
            times["score_calls"]["rapidbleu"].append(c)
            times["aggregate"]["rapidbleu"].append(a)
            times["total"]["rapidbleu"].append(s + a)
            same = same and as_dicts(arrays) == want and calls == want and got_agg == want_agg
    results = []
    print(f"{'case':<13}{'rouge-score':>13}{'rapidbleu':>12}{'ratio':>9}")
    for case, t in times.items():
        if not t["rouge_score"]:
            continue
        theirs, ours = statistics.median(t["rouge_score"]), statistics.median(t["rapidbleu"])
        ratio = theirs / ours
        flag = "" if ratio >= TARGET else "  (below 100x)"
        print(f"{case:<13}{theirs:>12.3f}s{ours:>11.4f}s{ratio:>8.0f}x{flag}")
        results.append(
            {
                "case": case,
                "rouge_score_s": theirs,
                "rapidbleu_s": ours,
                "ratio": ratio,
                "rouge_score_rounds": t["rouge_score"],
                "rapidbleu_rounds": t["rapidbleu"],
            }
        )
    dialects = []
    if not args.no_dialects:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from rouge_dialect_cases import cases

        only = set(filter(None, args.dialect_cases.split(",")))
        dialects = cases(preds, targets, args.data, args.rapid_rounds, only)
        print(f"{'dialect':<17}{'peer':<26}{'peer s':>9}{'rapidbleu':>11}{'ratio':>9}")
        for d in dialects:
            # The per-call path's target is to be ahead of rouge-score-rs; the dialects', 100x.
            goal = 1.0 if d["case"] == "calls_vs_rs" else TARGET
            flag = "" if d["ratio"] >= goal else f"  (below {goal:.0f}x)"
            eq = "" if d["same"] else "  NOT EQUAL"
            print(
                f"{d['case']:<17}{d['peer']:<26}{d['peer_s']:>8.2f}s{d['rapidbleu_s']:>10.3f}s"
                f"{d['ratio']:>8.0f}x{flag}{eq}"
            )
            same = same and d["same"]
    print(f"equal with ==: {same}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "benchmark": "bench_rouge",
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
                "items": len(preds),
                "words_per_prediction": round(words, 1),
                "types": TYPES,
                "stemmer": True,
                "same": same,
                "results": results,
                "dialects": dialects,
            },
            indent=1,
        )
        + "\n"
    )
    log(f"wrote {args.out}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
