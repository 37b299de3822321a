"""The serial fraction of corpus BLEU, chrF, TER and ja-mecab BLEU, counted by callgrind.

Karp-Flatt fractions from wall-clock times on a small, shared machine move by more than any
change would (0.05 to 0.39 between rounds of one build on 2 cores). This script counts instead:
it runs each workload of ``bench_scaling.py`` with ``num_threads=2`` under
``valgrind --tool=callgrind --separate-threads=yes``. With more than one thread rapidbleu runs
all of its parallel work on its thread pool, never on the calling thread (which waits on a
latch), so the instructions split cleanly:

- the **calling thread**: Python, reading each ``str`` under the GIL, building results; this is
  the part that stays serial at any thread count;
- the **pool thread**: tokenizing, counting, MeCab's parse; this is the part that spreads.

Each workload runs twice, one warm-up call and then zero or one measured call, and the
difference of the two runs is one warm call (``bench_scaling.py`` times warm calls too). The
script prints the serial share ``s`` of instructions and, with ``--cache-sim``, of callgrind's
cycle estimate (``Ir + 10 * L1 misses + 100 * last-level misses``, which weighs the cache
misses of reading scattered Python objects), and Amdahl's bound on the efficiency at ``n``
threads, ``1 / (1 + s * (n - 1))``; 75% at 16 threads needs ``s <= 1/45 = 2.2%``. The bound
leaves out what instructions cannot see: memory bandwidth, cores sharing caches, the pool's
wake-up latency, so a machine's measured efficiency can only be lower.

Usage::

    python benchmarks/serial_fraction.py [--only bleu,chrf] [--segments 100000] [--cache-sim]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mecab_cold import DEFAULT_DATA

REPO = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

# One workload of bench_scaling.py: set up, one warm-up call, then `calls` measured calls.
PROGRAM = """
import argparse, sys
from pathlib import Path
sys.path.insert(0, {here!r})
from bench_scaling import workloads
name, segments, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ns = argparse.Namespace(
    segments=segments, seed=12345, ter_segments=segments, data=Path({data!r}), only=name
)
fn = workloads(ns)[name]
for _ in range(1 + calls):
    fn(2)
"""


def thread_events(prefix: Path, cache_sim: bool) -> tuple[float, float]:
    """The cost (instructions, or the cycle estimate) of the calling thread and of the pool.

    Thread 1 is the caller; the pool's threads are those that ran rayon. Any other thread
    (none is expected: the child runs with OpenBLAS's own threads turned off) is an error.
    """
    costs: list[tuple[str, float]] = []
    for path in sorted(prefix.parent.glob(prefix.name + "-*")):
        text = path.read_text()
        events = re.search(r"^events: (.+)$", text, re.M)
        totals = re.search(r"^(?:totals|summary): (.+)$", text, re.M)
        if events is None or totals is None:
            continue
        values = dict(zip(events.group(1).split(), map(int, totals.group(1).split())))
        cost = values["Ir"]
        if cache_sim:
            l1 = values["I1mr"] + values["D1mr"] + values["D1mw"]
            ll = values["ILmr"] + values["DLmr"] + values["DLmw"]
            cost += 10 * l1 + 100 * ll
        thread = "caller" if path.name.endswith("-01") else "pool" if "rayon_core" in text else ""
        if not thread:
            raise SystemExit(
                f"{path.name}: a thread that is neither the caller nor rapidbleu's pool"
            )
        costs.append((thread, float(cost)))
    return (
        sum(c for t, c in costs if t == "caller"),
        sum(c for t, c in costs if t == "pool"),
    )


def run(name: str, segments: int, calls: int, cache_sim: bool, tmp: Path) -> tuple[float, float]:
    """The cost of the calling thread and of the pool in one run of ``PROGRAM``."""
    prefix = tmp / f"{name}.{calls}.out"
    program = PROGRAM.format(here=str(HERE), data=str(DEFAULT_DATA))
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        f"--cache-sim={'yes' if cache_sim else 'no'}",
        f"--callgrind-out-file={prefix}",
        sys.executable,
        "-c",
        program,
        name,
        str(segments),
        str(calls),
    ]
    # The two runs must do the same work before the measured call: the same string hashes
    # (set and dict order), and no NumPy BLAS thread (its idle thread spins).
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return thread_events(prefix, cache_sim)


def serial_share(name: str, segments: int, cache_sim: bool) -> dict[str, float]:
    """The calling thread's share of one warm call, from the two runs (run side by side)."""
    with tempfile.TemporaryDirectory() as d, ThreadPoolExecutor(2) as ex:
        base, more = ex.map(lambda c: run(name, segments, c, cache_sim, Path(d)), (0, 1))
    caller, pool = more[0] - base[0], more[1] - base[1]
    return {"caller": caller, "pool": pool, "serial": caller / (caller + pool)}


def amdahl(serial: float, threads: int) -> float:
    """Amdahl's bound on parallel efficiency at ``threads`` threads.

    Example:
        >>> round(amdahl(1 / 45, 16), 3)
        0.75
    """
    return 1 / (1 + serial * (threads - 1))


def main(argv: Sequence[str] | None = None) -> int:
    """Counts, prints and writes ``benchmarks/results/serial_fraction.json``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", default="bleu,chrf,ter,ja-mecab")
    p.add_argument("--segments", type=int, default=100_000, help="for bleu and chrf")
    p.add_argument("--small-segments", type=int, default=20_000, help="for ter and ja-mecab")
    p.add_argument("--cache-sim", action="store_true", help="weigh cache misses (slower)")
    p.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "results" / "serial_fraction.json"
    )
    args = p.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("serial_fraction.py needs valgrind (apt install valgrind)")
    unit = "cycle estimate" if args.cache_sim else "instructions"
    rows = []
    for name in args.only.split(","):
        segments = args.segments if name in ("bleu", "chrf") else args.small_segments
        share = serial_share(name, segments, args.cache_sim)
        row = {
            "workload": name,
            "segments": segments,
            "unit": unit,
            **{k: round(v, 6) if k == "serial" else int(v) for k, v in share.items()},
            "amdahl_efficiency_16": round(amdahl(share["serial"], 16), 3),
        }
        rows.append(row)
        print(
            f"{name:<9} {segments:>7} segments  caller {share['caller']:14,.0f}  "
            f"pool {share['pool']:15,.0f} {unit}  serial {share['serial']:6.2%}  "
            f"Amdahl at 16 threads {row['amdahl_efficiency_16']:6.1%}",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
