"""Throughput and peak memory of the ``rapidbleu`` command's streaming path, against ``sacrebleu``.

The input is real text: a WMT17 en-de reference and system output from the data folder
(``$RAPIDBLEU_DATA``, default ``../shared/data``), repeated to the requested number of lines
and written to a temporary folder. Each measurement runs the installed command in a fresh
process, wrapped so that its peak resident memory (``ru_maxrss`` of that one child) and wall
time are recorded:

- ``sacrebleu REF -i HYP -b`` and ``rapidbleu REF -i HYP -b`` on the same ``--compare-lines``
  (default 100,000) lines: times, ratio, peak memory; the two scores must be equal.
- ``rapidbleu`` on growing files (``--lines``, default 1M and 10M): throughput and peak memory,
  which stays flat because the files are read in chunks.

Benchmarks are not tests: nothing here asserts a time (exit status 1 only when scores differ).

Usage::

    .venv/bin/python benchmarks/bench_cli.py                    # 100k vs sacreBLEU, 1M, 10M lines
    .venv/bin/python benchmarks/bench_cli.py --quick            # 20k vs sacreBLEU, 200k lines
    .venv/bin/python benchmarks/bench_cli.py --lines 1000000 --repeats 3
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(os.environ.get("RAPIDBLEU_DATA") or REPO.parent / "shared" / "data")
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_cli.json"
BIN = Path(sys.executable).parent

# Runs argv[1:] as a child, then prints its wall time and peak RSS (KiB on Linux) as JSON.
_WRAPPER = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True)
wall = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "rss_kib": rss, "rc": p.returncode,
                  "out": p.stdout.decode(), "err": p.stderr.decode()[-2000:]}))
"""


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def command(name: str) -> list[str]:
    exe = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if exe is None:
        sys.exit(f"{name} is not installed in {BIN} or on PATH")
    return [exe]


def make_file(src: Path, dst: Path, lines: int) -> None:
    """``src``'s lines repeated until ``dst`` has ``lines`` lines."""
    block = src.read_bytes()
    if not block.endswith(b"\n"):
        block += b"\n"
    per_block = block.count(b"\n")
    rows = block.split(b"\n")[:-1]
    with dst.open("wb") as f:
        full, rest = divmod(lines, per_block)
        for _ in range(full):
            f.write(block)
        f.write(b"".join(r + b"\n" for r in rows[:rest]))


def measure(cmd: list[str], repeats: int) -> dict[str, Any]:
    """Median wall time and the largest peak RSS over ``repeats`` fresh runs."""
    runs = []
    for _ in range(repeats):
        proc = subprocess.run(
            [sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, check=True
        )
        r = json.loads(proc.stdout)
        if r["rc"] != 0:
            sys.exit(f"{' '.join(cmd)} failed ({r['rc']}): {r['err']}")
        runs.append(r)
    return {
        "wall_s": statistics.median(r["wall"] for r in runs),
        "walls_s": [r["wall"] for r in runs],
        "peak_rss_mib": max(r["rss_kib"] for r in runs) / 1024,
        "output": runs[0]["out"].strip(),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--lines", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--compare-lines", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3, help="runs per measurement (median)")
    ap.add_argument("--big-repeats", type=int, default=1, help="runs for files >= 5M lines")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--tmp", type=Path, default=None, help="folder for the generated files")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    if args.quick:
        args.lines, args.compare_lines, args.repeats = [200_000], 20_000, 1
    src = args.data / "wmt17.en-de"
    if not (src / "ref.A.de").is_file():
        sys.exit(f"real data not found at {args.data} (set RAPIDBLEU_DATA)")
    rapid, sacre = command("rapidbleu"), command("sacrebleu")
    rows: list[dict[str, Any]] = []
    status = 0
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        d = Path(tmp)

        def files(n: int) -> tuple[str, str]:
            ref, hyp = d / f"ref.{n}", d / f"hyp.{n}"
            if not ref.exists():
                log(f"writing {n:,}-line files")
                make_file(src / "ref.A.de", ref, n)
                make_file(src / "hyp.uedin-nmt.4722.de", hyp, n)
            return str(ref), str(hyp)

        n = args.compare_lines
        ref, hyp = files(n)
        cli_args = [ref, "-i", hyp, "-b", "-w", "10", "-q"]
        log(f"sacrebleu, {n:,} lines")
        theirs = measure([*sacre, *cli_args], args.repeats)
        log(f"rapidbleu, {n:,} lines")
        ours = measure([*rapid, *cli_args], args.repeats)
        same = theirs["output"] == ours["output"]
        if not same:
            status = 1
            log(f"SCORES DIFFER: sacrebleu {theirs['output']} rapidbleu {ours['output']}")
        rows.append({"tool": "sacrebleu", "lines": n, **theirs})
        rows.append({"tool": "rapidbleu", "lines": n, **ours, "equal_score": same})
        for n in args.lines:
            ref, hyp = files(n)
            log(f"rapidbleu, {n:,} lines")
            reps = args.big_repeats if n >= 5_000_000 else args.repeats
            r = measure([*rapid, ref, "-i", hyp, "-b", "-w", "10", "-q"], reps)
            rows.append({"tool": "rapidbleu", "lines": n, **r})
            for p in (ref, hyp):
                Path(p).unlink()

    print(f"{'tool':<10} {'lines':>11} {'wall':>9} {'lines/s':>11} {'peak RSS':>10}  score")
    for r in rows:
        rate = r["lines"] / r["wall_s"]
        print(
            f"{r['tool']:<10} {r['lines']:>11,} {r['wall_s']:>8.2f}s {rate:>11,.0f} "
            f"{r['peak_rss_mib']:>7.0f} MiB  {r['output']}"
        )
    ratio = rows[0]["wall_s"] / rows[1]["wall_s"]
    print(
        f"ratio (sacrebleu / rapidbleu, {args.compare_lines:,} lines): {ratio:.1f}x; "
        f"equal scores: {rows[1]['equal_score']}"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "argv": sys.argv[1:],
    }
    args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    log(f"wrote {args.out}")
    return status


if __name__ == "__main__":
    sys.exit(main())
