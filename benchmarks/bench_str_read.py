"""Wall-clock corpus BLEU, chrF and TER of a large list read in parallel or the serial way.

A list of exact ``str`` is read by rapidbleu's threads from CPython's own representation
(crates/rapidbleu-py/src/pystr.rs); the same list with its last item a ``str`` subclass is read
the serial way, string by string on the calling thread (the only way before). Both are timed in
one run, on the same text, interleaved, medians of ``--rounds``; the scores must be equal. Run
with a build without the parallel reader and both columns read the serial way.

Usage::

    python benchmarks/bench_str_read.py [--segments 200000] [--threads 2] [--kind ascii]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bleu import make_corpus

from rapidbleu import _core
from rapidbleu.metrics import BLEU, CHRF, TER

REPO = Path(__file__).resolve().parents[1]


class Sub(str):
    """A ``str`` subclass: a list holding one is read the serial way."""


def widened(lines: list[str], seed: int) -> list[str]:
    """``lines`` with one in three given a 2-byte and one in five a 4-byte character."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        r = rng.random()
        out.append(line + (" café€" if r < 1 / 3 else " 😀" if r < 8 / 15 else ""))
    return out


def timed(fn: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    """The median seconds of ``rounds`` calls of ``fn``, and its (equal) result."""
    times, results = [], set()
    for _ in range(rounds):
        start = time.perf_counter()
        results.add(fn())
        times.append(time.perf_counter() - start)
    if len(results) != 1:
        raise SystemExit(f"results differ between rounds: {results}")
    return statistics.median(times), results.pop()


def main(argv: Sequence[str] | None = None) -> int:
    """Measures, prints and writes ``benchmarks/results/str_read.json``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--segments", type=int, default=200_000)
    p.add_argument("--ter-segments", type=int, default=50_000)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--kind", choices=["ascii", "mixed"], default="ascii")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "str_read.json")
    args = p.parse_args(argv)
    hyps, refs = make_corpus(args.segments, args.seed)
    if args.kind == "mixed":
        hyps, refs = widened(hyps, args.seed), widened(refs, args.seed + 1)
    fast = getattr(_core, "fast_strings", lambda: False)()
    t, n_ter = args.threads, args.ter_segments
    work: dict[str, Callable[[list[str], list[str]], float]] = {
        "bleu": lambda h, r: BLEU(num_threads=t).corpus_score(h, [r]).score,
        "chrf": lambda h, r: CHRF(num_threads=t).corpus_score(h, [r]).score,
        "ter": lambda h, r: TER(num_threads=t).corpus_score(h[:n_ter], [r[:n_ter]]).score,
    }
    serial_h, serial_r = [*hyps[:-1], Sub(hyps[-1])], [*refs[:-1], Sub(refs[-1])]
    rows = []
    for name, fn in work.items():
        fn(hyps, refs)  # warm-up: the pool, pages
        par, score = timed(lambda f=fn: f(hyps, refs), args.rounds)  # type: ignore[misc]
        ser, score2 = timed(lambda f=fn: f(serial_h, serial_r), args.rounds)  # type: ignore[misc]
        if score != score2:
            raise SystemExit(f"{name}: {score} (list) != {score2} (serial)")
        row = {
            "workload": name,
            "segments": n_ter if name == "ter" else args.segments,
            "threads": t,
            "kind": args.kind,
            "parallel_read_available": fast,
            "list_ms": round(1e3 * par, 1),
            "serial_read_ms": round(1e3 * ser, 1),
            "speedup": round(ser / par, 3),
        }
        rows.append(row)
        print(
            f"{name:<5} {row['segments']:>7} segments {t} threads  list {1e3 * par:8.1f} ms  "
            f"serial read {1e3 * ser:8.1f} ms  x{ser / par:5.2f}",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
