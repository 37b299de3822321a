"""Thread scaling of corpus BLEU, chrF, TER and ja-mecab BLEU on 100k-segment workloads.

For each workload and thread count ``n`` this times rapidbleu's corpus score (median of
interleaved rounds: every thread count once per round) and prints the speed-up ``S = T1 / Tn``,
the parallel efficiency ``S / n`` and the Karp-Flatt serial fraction
``e = (1/S - 1/n) / (1 - 1/n)`` (the share of the one-thread time that behaved as if it could
not run in parallel; constant ``e`` across ``n`` means a fixed serial part, a growing ``e``
means overhead that grows with threads).

Workloads (deterministic):

- ``bleu``, ``chrf``, ``ter``: ``bench_bleu.make_corpus`` (Zipf vocabulary, noisy copies), one
  reference per segment; TER on its first ``--ter-segments`` (TER costs ~50x BLEU per segment);
- ``ja-mecab``: distinct Japanese segments made by joining halves of real WMT22 en-ja lines
  (needs the data folder and the ``ja`` extra); every round starts with empty line caches, so
  each round parses every line, as a fresh process does.

Usage::

    python benchmarks/bench_scaling.py [--threads 1,2,4,8,16] [--segments 100000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bleu import clear_rapidbleu_caches, make_corpus
from mecab_cold import DEFAULT_DATA

from rapidbleu.metrics import BLEU, CHRF, TER

REPO = Path(__file__).resolve().parents[1]


def japanese_corpus(data: Path, n: int, seed: int) -> tuple[list[str], list[str]] | None:
    """``n`` distinct Japanese (hypothesis, reference) pairs from halves of real lines."""
    folder = data / "wmt22.en-ja"
    if not folder.is_dir():
        return None
    real = [
        line
        for path in sorted(folder.glob("*.ja"))
        for line in path.read_text(encoding="utf-8").split("\n")
        if len(line) > 8
    ]
    rng = random.Random(seed)

    def half(line: str, first: bool) -> str:
        mid = len(line) // 2
        return line[:mid] if first else line[mid:]

    refs: list[str] = []
    hyps: list[str] = []
    seen: set[str] = set()
    while len(refs) < n:
        a, b, c = rng.choice(real), rng.choice(real), rng.choice(real)
        ref = half(a, True) + half(b, False)
        if ref in seen:
            continue
        seen.add(ref)
        refs.append(ref)
        hyps.append(
            half(a, True) + half(c, False) if rng.random() < 0.5 else half(c, True) + half(b, False)
        )
    return hyps, refs


def workloads(args: argparse.Namespace) -> dict[str, Callable[[int], Any]]:
    """Name -> a function of the thread count that scores the workload once.

    Only the workloads named in ``args.only`` (comma-separated; empty: all) are built.
    """
    wanted = set(args.only.split(",")) if args.only else {"bleu", "chrf", "ter", "ja-mecab"}
    hyps, refs = make_corpus(args.segments, args.seed) if wanted - {"ja-mecab"} else ([], [])
    ter_n = args.ter_segments
    out: dict[str, Callable[[int], Any]] = {
        "bleu": lambda t: BLEU(num_threads=t).corpus_score(hyps, [refs]).score,
        "chrf": lambda t: CHRF(num_threads=t).corpus_score(hyps, [refs]).score,
        "ter": lambda t: TER(num_threads=t).corpus_score(hyps[:ter_n], [refs[:ter_n]]).score,
    }
    ja = japanese_corpus(args.data, args.segments, args.seed) if "ja-mecab" in wanted else None
    if ja is not None:
        ja_hyps, ja_refs = ja

        def ja_mecab(t: int) -> float:
            clear_rapidbleu_caches()
            return BLEU(tokenize="ja-mecab", num_threads=t).corpus_score(ja_hyps, [ja_refs]).score

        out["ja-mecab"] = ja_mecab
    return {k: v for k, v in out.items() if k in wanted}


def measure(
    fns: dict[str, Callable[[int], Any]], threads: Sequence[int], rounds: int
) -> list[dict[str, Any]]:
    """Medians of interleaved rounds; scores must not depend on the thread count."""
    rows = []
    for name, fn in fns.items():
        fn(threads[-1])  # warm-up: pools, pages, the MeCab model
        times: dict[int, list[float]] = {t: [] for t in threads}
        scores = set()
        for _ in range(rounds):
            for t in threads:
                start = time.perf_counter()
                scores.add(fn(t))
                times[t].append(time.perf_counter() - start)
        if len(scores) != 1:
            raise SystemExit(f"{name}: scores differ between thread counts: {scores}")
        base = statistics.median(times[threads[0]]) * threads[0]
        for t in threads:
            med = statistics.median(times[t])
            speedup = base / med
            serial = (1 / speedup - 1 / t) / (1 - 1 / t) if t > 1 else None
            rows.append(
                {
                    "workload": name,
                    "threads": t,
                    "ms": round(1e3 * med, 1),
                    "speedup": round(speedup, 2),
                    "efficiency": round(speedup / t, 3),
                    "serial_fraction": None if serial is None else round(serial, 4),
                }
            )
            print(
                f"{name:<9} {t:>3} threads {1e3 * med:9.1f} ms  speed-up {speedup:6.2f}  "
                f"efficiency {speedup / t:6.1%}"
                + ("" if serial is None else f"  serial fraction {serial:.4f}"),
                flush=True,
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Measures, prints and writes ``benchmarks/results/scaling.json``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--threads", default="1,2", help="comma-separated, ascending (1,2)")
    p.add_argument("--segments", type=int, default=100_000)
    p.add_argument("--ter-segments", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--only", default="", help="comma-separated workloads (all)")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "scaling.json")
    args = p.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    fns = workloads(args)
    rows = measure(fns, threads, args.rounds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    info = {"cpus": os.cpu_count(), "segments": args.segments, "ter_segments": args.ter_segments}
    args.out.write_text(json.dumps({**info, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
