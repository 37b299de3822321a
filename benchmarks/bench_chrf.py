"""Times rapidbleu's chrF and chrF++ against sacreBLEU 2.6.0 (and fastchrf) in one run.

Measurements (select with ``--only``, comma-separated):

- ``real``: corpus chrF and chrF++ of every system of every test set in the real data folder
  (``$RAPIDBLEU_DATA``, default ``../shared/data``) against its first reference, times summed
  over all systems (``CHRF(word_order=w).corpus_score``).
- ``synthetic``: corpus chrF and chrF++ of the seeded synthetic corpus of ``bench_bleu.py``
  (100k segments by default).
- ``batch``: 10,000 sentence chrF scores: 10,000 ``sacrebleu.sentence_chrf`` calls against one
  batched ``CHRF().sentence_scores`` call (and, for reference, 10,000 ``rapidbleu.sentence_chrf``
  calls).
- ``pairwise``: a 256 x 256 sentence-chrF matrix (MBR's utility matrix):
  ``pairwise_scores(..., metric=CHRF())`` against fastchrf's ``pairwise_chrf`` (if it is
  installed) and against 65,536 ``sacrebleu.sentence_chrf`` calls. fastchrf computes a slightly
  different number (not sacreBLEU's); the row reports how many entries differ and by how much.

Rounds are interleaved (sacreBLEU, then rapidbleu on all cores, then rapidbleu on one thread,
per round), and the table shows medians; ratios are sacreBLEU's median over rapidbleu's. Every
row checks that the scores are equal with ``==`` (exit status 1 otherwise). Results go to
``benchmarks/results/bench_chrf.json``.

Usage::

    .venv/bin/python benchmarks/bench_chrf.py              # full run (about 15 minutes)
    .venv/bin/python benchmarks/bench_chrf.py --quick      # smoke run
"""

from __future__ import annotations

import argparse
import datetime
import gc
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
import sacrebleu
from sacrebleu.metrics import CHRF as SacreCHRF

import rapidbleu
from rapidbleu.analysis.pairwise import pairwise_scores
from rapidbleu.metrics import CHRF

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bleu import make_corpus

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(os.environ.get("RAPIDBLEU_DATA", REPO.parent / "shared" / "data"))
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_chrf.json"
MEASUREMENTS = ("real", "synthetic", "batch", "pairwise")
TARGET = 100.0


def log(msg: str) -> None:
    """Progress on stderr (the table goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def clock(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Wall-clock seconds of one call, and its result."""
    gc.collect()
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def real_corpora(data: Path) -> list[tuple[list[str], list[str]]]:
    """``(hypotheses, reference)`` of every system of every test set in ``data``."""
    out = []
    for d in sorted(p for p in data.glob("wmt*") if p.is_dir()):
        refs = sorted(d.glob("ref.A.*"))
        if not refs:
            continue
        ref = _lines(refs[0])
        for hyp in sorted(d.glob("hyp.*")):
            out.append((_lines(hyp), ref))
    return out


def _lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


class Bench:
    """Runs interleaved rounds of named contenders and keeps every time."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.rows: list[dict[str, Any]] = []
        self.ok = True

    def run(
        self,
        key: str,
        label: str,
        n: int,
        contenders: dict[str, Callable[[], Any]],
        check: Callable[[dict[str, Any]], tuple[bool, str]],
        baseline: str = "sacreBLEU",
    ) -> None:
        """Times each contender once per round, in order; checks the last results."""
        for name, fn in contenders.items():
            if name != baseline:
                fn()  # warm-up: thread pools, extension caches
        times: dict[str, list[float]] = {name: [] for name in contenders}
        results: dict[str, Any] = {}
        for r in range(self.rounds):
            for name, fn in contenders.items():
                t, results[name] = clock(fn)
                times[name].append(t)
            log(
                f"{label}: round {r + 1}/{self.rounds}: "
                + ", ".join(f"{k} {v[-1]:.3f}s" for k, v in times.items())
            )
        same, note = check(results)
        self.ok &= same
        med = {k: statistics.median(v) for k, v in times.items()}
        row = {
            "measurement": key,
            "label": label,
            "n": n,
            "median_s": med,
            "times_s": times,
            "ratios": {k: med[baseline] / v for k, v in med.items() if k != baseline and v > 0},
            "round_ratios": {
                k: [b / x for b, x in zip(times[baseline], v)]
                for k, v in times.items()
                if k != baseline
            },
            "equal": same,
            "note": note,
        }
        self.rows.append(row)
        self.print_row(row, baseline)

    @staticmethod
    def print_row(row: dict[str, Any], baseline: str) -> None:
        med = row["median_s"]
        parts = [f"{baseline} {med[baseline]:.3f}s"]
        for k, ratio in row["ratios"].items():
            rr = row["round_ratios"][k]
            parts.append(
                f"{k} {med[k] * 1e3:.1f} ms = {ratio:.0f}x (rounds {min(rr):.0f}-{max(rr):.0f}x)"
            )
        status = "==" if row["equal"] else "MISMATCH"
        print(f"{row['label']:<44} {'; '.join(parts)}  [{status}] {row['note']}", flush=True)


def corpus_rows(bench: Bench, name: str, corpora: list[tuple[list[str], list[str]]]) -> None:
    """Corpus chrF and chrF++ of every corpus, summed over the corpora."""
    n = sum(len(h) for h, _ in corpora)
    for w, metric_name in ((0, "chrF"), (2, "chrF++")):
        rapid_all, rapid_one = CHRF(word_order=w), CHRF(word_order=w, num_threads=1)

        def sacre(w: int = w) -> list[float]:
            return [SacreCHRF(word_order=w).corpus_score(h, [r]).score for h, r in corpora]

        def rapid(m: CHRF = rapid_all) -> list[float]:
            return [m.corpus_score(h, [r]).score for h, r in corpora]

        def rapid1(m: CHRF = rapid_one) -> list[float]:
            return [m.corpus_score(h, [r]).score for h, r in corpora]

        def check(res: dict[str, Any]) -> tuple[bool, str]:
            return res["sacreBLEU"] == res["rapidbleu"] == res["rapidbleu 1 thread"], ""

        bench.run(
            name,
            f"corpus {metric_name}, {name} ({len(corpora)} corpora)",
            n,
            {"sacreBLEU": sacre, "rapidbleu": rapid, "rapidbleu 1 thread": rapid1},
            check,
        )


def batch_row(bench: Bench, hyps: list[str], refs: list[str]) -> None:
    """10,000 sentence scores: sacreBLEU calls against one batched call."""
    metric, one = CHRF(), CHRF(num_threads=1)

    def check(res: dict[str, Any]) -> tuple[bool, str]:
        a = res["sacreBLEU"]
        return (
            a
            == res["rapidbleu"].tolist()
            == res["rapidbleu 1 thread"].tolist()
            == res["rapidbleu sentence_chrf loop"],
            "",
        )

    bench.run(
        "batch",
        f"{len(hyps):,} sentence chrF (batched)",
        len(hyps),
        {
            "sacreBLEU": lambda: [
                sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, refs)
            ],
            "rapidbleu": lambda: metric.sentence_scores(hyps, [refs]),
            "rapidbleu 1 thread": lambda: one.sentence_scores(hyps, [refs]),
            "rapidbleu sentence_chrf loop": lambda: [
                rapidbleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, refs)
            ],
        },
        check,
    )


def pairwise_row(bench: Bench, hyps: list[str], refs: list[str]) -> None:
    """A square sentence-chrF matrix: rapidbleu against fastchrf and sacreBLEU."""
    metric = CHRF()
    contenders: dict[str, Callable[[], Any]] = {
        "sacreBLEU": lambda: np.array(
            [[sacrebleu.sentence_chrf(h, [r]).score for r in refs] for h in hyps]
        ),
        "rapidbleu": lambda: pairwise_scores([hyps], [refs], metric=metric)[0],
    }
    try:
        import fastchrf

        contenders["fastchrf"] = lambda: np.array(fastchrf.pairwise_chrf([hyps], [refs])[0])
    except ImportError:
        log("fastchrf is not installed: pip install fastchrf for its row")

    def check(res: dict[str, Any]) -> tuple[bool, str]:
        same = bool((res["sacreBLEU"] == res["rapidbleu"]).all())
        note = ""
        if "fastchrf" in res:
            diff = np.abs(res["fastchrf"] - res["sacreBLEU"])
            note = (
                f"fastchrf != sacreBLEU in {int((diff > 0).sum()):,} of {diff.size:,} entries "
                f"(max |diff| {diff.max():.2e})"
            )
        return same, note

    bench.run(
        "pairwise",
        f"{len(hyps)} x {len(refs)} chrF matrix",
        len(hyps) * len(refs),
        contenders,
        check,
    )


def main(argv: list[str] | None = None) -> int:
    """Runs the measurements; returns 1 if any score differs from sacreBLEU's."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--segments", type=int, default=100_000, help="synthetic corpus size")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p.add_argument("--only", default=",".join(MEASUREMENTS))
    p.add_argument("--quick", action="store_true", help="small sizes, one round")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    only = set(args.only.split(","))
    if args.quick:
        args.rounds, args.segments = 1, 2_000
    bench = Bench(args.rounds)
    log(f"synthetic corpus of {args.segments:,} segments")
    hyps, refs = make_corpus(args.segments, seed=12345)
    if "real" in only:
        corpora = real_corpora(args.data)
        if args.quick:
            corpora = [(h[:200], r[:200]) for h, r in corpora[:3]]
        if corpora:
            corpus_rows(bench, "real", corpora)
        else:
            log(f"no real data in {args.data}: real rows skipped")
    if "synthetic" in only:
        corpus_rows(bench, "synthetic", [(hyps, refs)])
    n_batch = 10_000 if not args.quick else 500
    if "batch" in only:
        batch_row(bench, hyps[:n_batch], refs[:n_batch])
    if "pairwise" in only:
        k = 256 if not args.quick else 32
        pairwise_row(bench, hyps[:k], refs[:k])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "rapidbleu": rapidbleu.__version__,
        "sacrebleu": sacrebleu.__version__,
        "rounds": args.rounds,
        "command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])]),
    }
    args.out.write_text(json.dumps({"meta": meta, "rows": bench.rows}, indent=1) + "\n")
    log(f"wrote {args.out}; load average {meta['load_average']}")
    if not bench.ok:
        print("MISMATCH: some scores differ from sacreBLEU's", file=sys.stderr)
    return 0 if bench.ok else 1


if __name__ == "__main__":
    sys.exit(main())
