"""Distributed blocks: one Arrow block scored with its text read in place, against ``to_pylist``.

What a Ray Data, Spark or Dask task does with a block
(:func:`rapidbleu.distributed.blocks.score_block`): a table of ``--rows`` rows (200,000 by
default) of a real WMT22 en-de system and two reference columns. Its text columns reach the
metric as lines read in the block's buffers (today's path) or, as before, as ``to_pylist()``
lists (the same function with that one step put back). Block sums must be equal (exit status 1
if not). Rounds are interleaved; medians and the ratio ``to_pylist`` / in place. Results go to
``benchmarks/results/bench_arrow_blocks.json``.

Usage::

    .venv/bin/python benchmarks/bench_arrow_blocks.py
    .venv/bin/python benchmarks/bench_arrow_blocks.py --rows 50000 --rounds 3 --threads 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
from bench_arrow_items import items
from results_json import write_results

import rapidbleu.distributed.columns as columns
from rapidbleu.distributed.blocks import score_block
from rapidbleu.distributed.columns import Columns
from rapidbleu.metrics import BLEU, CHRF, TER

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_arrow_blocks.json"
METRICS = {"bleu": BLEU, "chrf": CHRF, "ter": TER}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=200_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--metrics", nargs="+", default=["bleu", "chrf"], choices=sorted(METRICS))
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)

    rows = items(args.rows)
    table = pa.table(
        {
            "hyp": [r["candidate"] for r in rows],
            "r1": [r["references"][0] for r in rows],
            "r2": [r["references"][1] for r in rows],
        }
    )
    cols = Columns.of("hyp", ["r1", "r2"])
    in_place = columns._values

    def pylist(column: Any) -> Any:
        return column.to_pylist() if columns._is_text(column.type) else in_place(column)

    paths = {"to_pylist": pylist, "in place": in_place}
    results: dict[str, Any] = {}
    ok = True
    print(f"{'metric':8} {'text':10} {'median s':>10} {'pylist/case':>12}")
    try:
        for name in args.metrics:
            metric = METRICS[name]()
            want = None
            times: dict[str, list[float]] = {kind: [] for kind in paths}
            for _ in range(args.rounds):
                for kind, values in paths.items():
                    columns._values = values
                    t0 = time.perf_counter()
                    block = score_block(metric, cols, table, num_threads=args.threads)
                    times[kind].append(time.perf_counter() - t0)
                    sums = block.totals[0].tolist() if block.totals else block.rows
                    want = sums if want is None else want
                    ok &= block.problem is None and str(sums) == str(want)
            base = statistics.median(times["to_pylist"])
            for kind, ts in times.items():
                med = statistics.median(ts)
                print(f"{name:8} {kind:10} {med:10.3f} {base / med:11.2f}x")
                results[f"{name}/{kind}"] = {"median_s": med, "times_s": ts, "ratio": base / med}
    finally:
        columns._values = in_place
    results["equal"] = ok
    write_results(args.out, {"rows": args.rows, "threads": args.threads, "results": results})
    if not ok:
        print("block sums with text in place differ from to_pylist's", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
