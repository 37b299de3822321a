"""Arrow items: the per-item API on a pyarrow table against the same items as Python dicts.

``--items`` items (200,000 by default) of a real WMT22 en-de system, each with two references
(the test set's ``ref.A`` and ``ref.B``, repeated). ``rapidbleu.bleu_per_item`` and
``rapidbleu.bleu`` score them from a list of dicts (what a program holds after ``json.loads``),
from a pyarrow table (``candidate``: string, ``references``: list of string) read in place by
the core, and from that table as users without Arrow items score it (``to_pylist()``, then the
dicts: ``via-pylist``). The table is built before the timing (a user holding a Parquet file or
a datasets table has it already). Scores must be equal (exit status 1 if not). Rounds are
interleaved; the table shows medians and the ratio dicts / case. Results go to
``benchmarks/results/bench_arrow_items.json``.

Usage::

    .venv/bin/python benchmarks/bench_arrow_items.py
    .venv/bin/python benchmarks/bench_arrow_items.py --items 50000 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
from results_json import write_results
from text_lines import fresh, read

import rapidbleu

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "wmt22.en-de"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_arrow_items.json"


def items(n: int) -> list[dict[str, Any]]:
    """``n`` items: a hypothesis of DATA's first system and both references, each a new str."""
    hyps = read(next(p for p in sorted(DATA.iterdir()) if p.name.startswith("hyp.")))
    ref_a, ref_b = read(DATA / "ref.A.de"), read(DATA / "ref.B.de")
    m = len(hyps)
    return [
        {"candidate": fresh(hyps[i % m]), "references": [fresh(ref_a[i % m]), fresh(ref_b[i % m])]}
        for i in range(n)
    ]


def same(a: Any, b: Any) -> bool:
    return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else bool(a == b)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--items", type=int, default=200_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)

    dicts = items(args.items)
    table = pa.Table.from_pylist(dicts)
    functions: dict[str, Callable[[Any], Any]] = {
        "bleu_per_item": rapidbleu.bleu_per_item,
        "bleu": rapidbleu.bleu,
    }
    inputs: dict[str, Callable[[], Any]] = {
        "dicts": lambda: dicts,
        "arrow": lambda: table,
        "via-pylist": table.to_pylist,
    }
    results: dict[str, Any] = {}
    ok = True
    print(f"{'function':14} {'input':11} {'median s':>10} {'dicts/case':>11}")
    for fname, function in functions.items():
        want = function(dicts)
        times: dict[str, list[float]] = {kind: [] for kind in inputs}
        for _ in range(args.rounds):
            for kind, given in inputs.items():
                t0 = time.perf_counter()
                got = function(given())
                times[kind].append(time.perf_counter() - t0)
                ok &= same(got, want)
        base = statistics.median(times["dicts"])
        for kind, ts in times.items():
            med = statistics.median(ts)
            print(f"{fname:14} {kind:11} {med:10.3f} {base / med:10.2f}x")
            results[f"{fname}/{kind}"] = {
                "median_s": med,
                "times_s": ts,
                "dicts_over_case": base / med,
            }
    results["equal"] = ok
    write_results(args.out, {"items": args.items, "results": results})
    if not ok:
        print("scores of the Arrow items differ from the dicts'", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
