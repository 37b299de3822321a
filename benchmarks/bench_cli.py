"""The ``rapidbleu`` command end to end, against ``sacrebleu`` and against the in-process API.

The input is real text: a WMT17 en-de reference and system output from the data folder
(``$RAPIDBLEU_DATA``, default ``../shared/data``), repeated to the requested number of lines
and written to a temporary folder. Every measurement runs in a fresh process, wrapped so that
its peak resident memory (``ru_maxrss`` of that one child) and wall time are recorded:

- ``sacrebleu REF -i HYP -b`` and ``rapidbleu REF -i HYP -b`` on the same ``--compare-lines``
  (default 100,000) lines: times, ratio, peak memory; the two scores must be equal.
- For each of ``--lines`` (default 2M and 10M): the command ``rapidbleu REF -i HYP -b``, and in
  a separate process the in-process API on the same lines already in memory: the lines are
  read as sacreBLEU's command reads them (``open(newline="\\n")``, ``rstrip()``), then
  ``rapidbleu.corpus_bleu(hyps, [refs])`` is timed (the first call, as a user makes it; the
  JSON also keeps a second, warm call). The target: the command takes at most 1.3x the API.

Tools are timed in interleaved rounds (``--repeats``; ``--big-repeats`` for 5M lines or more):
in each round every tool runs once, and a ratio is the median of the per-round ratios. This
2-core machine is shared and its speed drifts within a minute, so timing one tool in a block
and then the other would let the drift decide the ratio.

Benchmarks are not tests: nothing here asserts a time (exit status 1 only when scores differ).

Usage::

    .venv/bin/python benchmarks/bench_cli.py                # 100k vs sacreBLEU; 2M and 10M lines
    .venv/bin/python benchmarks/bench_cli.py --quick        # 20k vs sacreBLEU, 200k lines
    .venv/bin/python benchmarks/bench_cli.py --lines 1000000 --repeats 3 --tmp /big/disk
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
#: The command may take at most this many times the in-process API.
TARGET_API_RATIO = 1.3

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

# The in-process API on lines already in memory: read as sacreBLEU's command reads files,
# then time corpus_bleu (first call, then a warm one). Prints JSON.
_API = """
import json, resource, sys, time
import rapidbleu

def lines(path):
    with open(path, encoding="utf-8", newline="\\n") as f:
        return [line.rstrip() for line in f]

refs, hyps = lines(sys.argv[1]), lines(sys.argv[2])
times = []
for _ in range(2):
    t = time.perf_counter()
    score = rapidbleu.corpus_bleu(hyps, [refs])
    times.append(time.perf_counter() - t)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"wall": times[0], "warm": times[1], "rss_kib": rss,
                  "out": f"{score.score:.10f}"}))
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


def run_command(cmd: list[str]) -> dict[str, Any]:
    """One run of ``cmd`` in a fresh process: wall time, peak RSS, its output."""
    proc = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, check=True
    )
    r = json.loads(proc.stdout)
    if r["rc"] != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r['rc']}): {r['err']}")
    return {"wall": r["wall"], "rss_kib": r["rss_kib"], "out": r["out"].strip()}


def run_api(ref: str, hyp: str) -> dict[str, Any]:
    """One run of the in-process API in a fresh process."""
    proc = subprocess.run(
        [sys.executable, "-c", _API, ref, hyp], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        sys.exit(f"the in-process API failed: {proc.stderr[-2000:]}")
    r: dict[str, Any] = json.loads(proc.stdout)
    return r


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Median wall time, every wall time, the largest peak RSS, the first output."""
    out = {
        "wall_s": statistics.median(r["wall"] for r in runs),
        "walls_s": [r["wall"] for r in runs],
        "peak_rss_mib": max(r["rss_kib"] for r in runs) / 1024,
        "output": runs[0]["out"],
    }
    if "warm" in runs[0]:
        out["warm_walls_s"] = [r["warm"] for r in runs]
    return out


def machine() -> dict[str, Any]:
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "loadavg_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "argv": sys.argv[1:],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--lines", type=int, nargs="+", default=[2_000_000, 10_000_000])
    ap.add_argument("--compare-lines", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3, help="interleaved rounds (median)")
    ap.add_argument("--big-repeats", type=int, default=1, help="rounds for files >= 5M lines")
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
    meta = machine()
    status = 0
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        d = Path(tmp)

        def files(n: int) -> tuple[str, str]:
            ref, hyp = d / f"ref.{n}", d / f"hyp.{n}"
            log(f"writing {n:,}-line files")
            make_file(src / "ref.A.de", ref, n)
            make_file(src / "hyp.uedin-nmt.4722.de", hyp, n)
            return str(ref), str(hyp)

        # 1. sacrebleu vs rapidbleu, the same command line, interleaved rounds.
        n = args.compare_lines
        ref, hyp = files(n)
        cli_args = [ref, "-i", hyp, "-b", "-w", "10", "-q"]
        theirs, ours = [], []
        for r in range(args.repeats):
            log(f"round {r + 1}/{args.repeats}: sacrebleu and rapidbleu, {n:,} lines")
            theirs.append(run_command([*sacre, *cli_args]))
            ours.append(run_command([*rapid, *cli_args]))
        compare = {
            "lines": n,
            "sacrebleu": summary(theirs),
            "rapidbleu": summary(ours),
            "ratio": statistics.median(t["wall"] / o["wall"] for t, o in zip(theirs, ours)),
            "equal_scores": all(t["out"] == o["out"] for t, o in zip(theirs, ours)),
        }
        if not compare["equal_scores"]:
            status = 1
            log(f"SCORES DIFFER: sacrebleu {theirs[0]['out']} rapidbleu {ours[0]['out']}")

        # 2. The command against the in-process API on the same lines.
        big = []
        for n in args.lines:
            ref, hyp = files(n)
            reps = args.big_repeats if n >= 5_000_000 else args.repeats
            cmd, api = [], []
            for r in range(reps):
                log(f"round {r + 1}/{reps}: rapidbleu command and corpus_bleu, {n:,} lines")
                cmd.append(run_command([*rapid, ref, "-i", hyp, "-b", "-w", "10", "-q"]))
                api.append(run_api(ref, hyp))
            row = {
                "lines": n,
                "command": summary(cmd),
                "api": summary(api),
                "ratio": statistics.median(c["wall"] / a["wall"] for c, a in zip(cmd, api)),
                "equal_scores": all(c["out"] == a["out"] for c, a in zip(cmd, api)),
            }
            if not row["equal_scores"]:
                status = 1
                log(f"SCORES DIFFER: command {cmd[0]['out']} corpus_bleu {api[0]['out']}")
            big.append(row)
            for p in (ref, hyp):
                Path(p).unlink()
    meta["loadavg_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    print_table(compare, big)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    result = {"meta": meta, "compare": compare, "rows": big, "target_api_ratio": TARGET_API_RATIO}
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {args.out}")
    return status


def print_table(compare: dict[str, Any], big: list[dict[str, Any]]) -> None:
    t, o = compare["sacrebleu"], compare["rapidbleu"]
    n = compare["lines"]
    print(f"\nsacrebleu vs rapidbleu command, {n:,} lines (REF -i HYP -b), median of rounds:")
    print(f"  sacrebleu {t['wall_s']:8.2f} s  {t['peak_rss_mib']:6.0f} MiB")
    print(f"  rapidbleu {o['wall_s']:8.2f} s  {o['peak_rss_mib']:6.0f} MiB")
    print(f"  ratio {compare['ratio']:.1f}x; equal scores: {compare['equal_scores']}")
    print(
        f"\n{'lines':>11} {'command':>9} {'corpus_bleu':>12} {'ratio':>6} {'target':>11} "
        f"{'peak RSS':>9} {'lines/s':>10}  score"
    )
    for r in big:
        c, a = r["command"], r["api"]
        ok = "ok" if r["ratio"] <= TARGET_API_RATIO else "MISS"
        print(
            f"{r['lines']:>11,} {c['wall_s']:>8.2f}s {a['wall_s']:>11.2f}s {r['ratio']:>5.2f}x "
            f"{'<=' + str(TARGET_API_RATIO) + 'x ' + ok:>11} {c['peak_rss_mib']:>5.0f} MiB "
            f"{r['lines'] / c['wall_s']:>10,.0f}  {c['output']}"
            + ("" if r["equal_scores"] else " DIFFER")
        )


if __name__ == "__main__":
    sys.exit(main())
