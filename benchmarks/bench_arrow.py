"""Arrow input: corpus scores from pyarrow arrays against the same text as lists of ``str``.

The corpus is ``--segments`` lines (1,000,000 by default) of a real WMT22 en-de system and its
reference, the test set repeated. Each metric (BLEU, chrF, TER) scores it from Python lists,
from pyarrow arrays (``string``, and ``large_string`` and ``string_view`` when asked), built
before the timing (a user holding a Parquet file or a datasets column has the arrays already),
and from those arrays as users without Arrow input score them (``to_pylist()``, then the
lists: ``via-pylist``); the scores must be equal (exit status 1 if not). Rounds are
interleaved, the table shows medians and the ratio list / case. Results go to
``benchmarks/results/bench_arrow.json``.

Usage::

    .venv/bin/python benchmarks/bench_arrow.py                    # a few minutes
    .venv/bin/python benchmarks/bench_arrow.py --segments 100000 --rounds 3 --metrics bleu
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
from results_json import write_results
from text_lines import fresh, read

from rapidbleu.metrics import BLEU, CHRF, TER

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "wmt22.en-de"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_arrow.json"
METRICS = {"bleu": BLEU, "chrf": CHRF, "ter": TER}


def corpus(n: int) -> tuple[list[str], list[str]]:
    """``n`` hypothesis and reference lines: the first system of DATA and its reference."""
    refs = read(next(p for p in sorted(DATA.iterdir()) if p.name.startswith("ref.")))
    hyps = read(next(p for p in sorted(DATA.iterdir()) if p.name.startswith("hyp.")))
    reps = -(-n // len(hyps))
    # Each repetition is a new str object, as lines read from a file are.
    return [fresh(h) for _ in range(reps) for h in hyps][:n], [
        fresh(r) for _ in range(reps) for r in refs
    ][:n]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--segments", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--metrics", nargs="+", default=["bleu", "chrf"], choices=sorted(METRICS))
    p.add_argument(
        "--types", nargs="+", default=["string"], choices=["string", "large_string", "string_view"]
    )
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)

    hyps, refs = corpus(args.segments)
    arrays = {
        t: (pa.array(hyps, getattr(pa, t)()), pa.array(refs, getattr(pa, t)())) for t in args.types
    }
    results: dict[str, Any] = {}
    ok = True
    print(f"{'metric':8} {'input':14} {'median s':>10} {'list/case':>11}")
    for name in args.metrics:
        metric = METRICS[name]()
        want = metric.corpus_score(hyps, [refs]).score
        times: dict[str, list[float]] = {"list": [], "via-pylist": [], **{t: [] for t in arrays}}
        first = next(iter(arrays.values()))
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            metric.corpus_score(hyps, [refs])
            times["list"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ok &= metric.corpus_score(first[0].to_pylist(), [first[1].to_pylist()]).score == want
            times["via-pylist"].append(time.perf_counter() - t0)
            for t, (h, r) in arrays.items():
                t0 = time.perf_counter()
                got = metric.corpus_score(h, [r]).score
                times[t].append(time.perf_counter() - t0)
                ok &= got == want
        base = statistics.median(times["list"])
        for kind, ts in times.items():
            med = statistics.median(ts)
            ratio = base / med
            print(f"{name:8} {kind:14} {med:10.3f} {ratio:10.2f}x")
            results[f"{name}/{kind}"] = {"median_s": med, "times_s": ts, "list_over_case": ratio}
    results["equal"] = ok
    write_results(args.out, {"segments": args.segments, "results": results})
    if not ok:
        print("scores from Arrow differ from scores from lists", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
