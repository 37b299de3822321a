"""Times real clients of sacreBLEU, NLTK and evaluate plainly and in accelerator mode, in one run.

The clients are the programs of tests/accelerate/clients (each imports the client's own code
unchanged; see their notes), on the real data (``$RAPIDBLEU_DATA``, else ``../shared/data``
when present, else ``tests/data``), with sizes a harness meets:

- ``lm-eval``: lm-evaluation-harness' aggregations ``bleu``, ``chrf``, ``chrfpp``, ``ter`` on
  every WMT22 en-de segment (one and two references), and ``stderr_for_metric`` of ``bleu`` and
  ``chrf`` on 500 segments with the harness' 100 bootstrap iterations (its multiprocessing Pool);
- ``lighteval``: ``CorpusLevelTranslationMetric`` BLEU, chrF, chrF++, TER, every segment;
- ``helm``: HELM's ``bleu_1`` / ``bleu_4`` (``compute_reference_metrics``), 500 instances;
- ``evaluate``: ``evaluate.load(NAME).compute`` for its five MT metrics, 1,000 segments;
- ``mbrs``: mbrs' ``pairwise_scores``: BLEU 256 x 256, chrF 128 x 128, TER 48 x 48 (sacreBLEU's
  chrF and TER are slow per pair).

Per round, each client program runs in two subprocesses, one plain and one under
``python -m rapidbleu.accelerate`` (the order alternates between rounds). Each program times
its metric calls itself (``time.perf_counter``), so the times leave out interpreter start-up
and imports; the table shows the medians over the rounds, the ratio plain / accelerated, the
issue's target where it set one, and whether the results were ``==`` in every round. The
whole-process wall times are in the JSON. Benchmarks are not tests: nothing here asserts a
time; the exit status is 1 when a result differs or a program fails.

Usage::

    .venv/bin/python benchmarks/bench_clients.py              # full run: about 10 minutes
    .venv/bin/python benchmarks/bench_clients.py --quick      # smoke run: small sizes, 1 round
    .venv/bin/python benchmarks/bench_clients.py --only lm-eval,mbrs --rounds 5
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CLIENTS = REPO / "tests" / "accelerate" / "clients"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_clients.json"
sys.path.insert(0, str(CLIENTS))
import offline  # noqa: E402
from _common import default_data  # noqa: E402

#: Client -> (program, arguments of the full run, arguments of --quick).
CLIENTS_RUN: dict[str, tuple[str, list[str], list[str]]] = {
    "lm-eval": (
        "lm_eval_metrics.py",
        ["--n", "100000", "--boot-n", "500", "--iters", "100"],
        ["--n", "200", "--boot-n", "100", "--iters", "20"],
    ),
    "lighteval": ("lighteval_metrics.py", ["--n", "100000"], ["--n", "200"]),
    "helm": ("helm_metrics.py", ["--n", "500"], ["--n", "50"]),
    "evaluate": ("evaluate_metrics.py", ["--n", "1000"], ["--n", "100"]),
    "mbrs": (
        "mbrs_pairwise.py",
        ["--k", "256", "--chrf-k", "128", "--ter-k", "48"],
        ["--k", "32", "--chrf-k", "32", "--ter-k", "12"],
    ),
}
#: The issue's targets (plain / accelerated), by client and computation.
TARGETS: dict[tuple[str, str], float] = {
    **{
        ("lm-eval", f"{m}{r}"): 40.0
        for m in ("bleu", "chrf", "chrf++", "ter")
        for r in ("", " 2 refs")
    },
    ("lm-eval", "bleu_stderr"): 50.0,
    ("lm-eval", "chrf_stderr"): 50.0,
    ("mbrs", "bleu 256x256"): 50.0,
}
PACKAGES = (
    "rapidbleu",
    "sacrebleu",
    "nltk",
    "evaluate",
    "lm_eval",
    "lighteval",
    "crfm-helm",
    "mbrs",
)
#: Seconds one client program may run.
TIMEOUT = 1800


def log(msg: str) -> None:
    """Progress on stderr (the table goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run_program(
    program: str, args: list[str], env: dict[str, str], accelerated: bool, work: Path
) -> dict[str, Any]:
    """One run of a client program: its results and times, the wall time, or its error."""
    out = work / "out.json"
    out.unlink(missing_ok=True)
    mode = ["-m", "rapidbleu.accelerate"] if accelerated else []
    cmd = [sys.executable, *mode, program, *args, "--out", str(out)]
    t = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=CLIENTS, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {TIMEOUT} s"}
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        last = proc.stderr.strip().splitlines()[-1:] or [""]
        return {"error": f"exit {proc.returncode}: {last[0]}", "stderr": proc.stderr[-4000:]}
    got = json.loads(out.read_text(encoding="utf-8"))
    return {"results": got["results"], "seconds": got["seconds"], "wall": wall}


def bench_client(
    name: str, args: list[str], env: dict[str, str], rounds: int, work: Path
) -> list[dict[str, Any]]:
    """Interleaved rounds of one client, plain and accelerated; one row per computation."""
    program = CLIENTS_RUN[name][0]
    runs: dict[str, list[dict[str, Any]]] = {"plain": [], "accelerated": []}
    for r in range(rounds):
        order = ["plain", "accelerated"] if r % 2 == 0 else ["accelerated", "plain"]
        for mode in order:
            runs[mode].append(run_program(program, args, env, mode == "accelerated", work))
        log(
            f"{name}: round {r + 1}/{rounds}: "
            + ", ".join(
                f"{m} " + (f"{x[-1]['wall']:.1f}s wall" if "wall" in x[-1] else x[-1]["error"])
                for m, x in runs.items()
            )
        )
    errors = {m: x["error"] for m, xs in runs.items() for x in xs if "error" in x}
    if errors:
        stderr = next(x["stderr"] for xs in runs.values() for x in xs if "stderr" in x)
        log(f"{name}: failed: {errors}\n{stderr}")
        return [{"client": name, "computation": "(program)", "error": errors}]
    plain_results = runs["plain"][0]["results"]
    rows = []
    for key in runs["plain"][0]["seconds"]:
        times = {m: [x["seconds"][key] for x in xs] for m, xs in runs.items()}
        med = {m: statistics.median(v) for m, v in times.items()}
        equal = all(x["results"][key] == plain_results[key] for xs in runs.values() for x in xs)
        rows.append(
            {
                "client": name,
                "computation": key,
                "plain_s": med["plain"],
                "accelerated_s": med["accelerated"],
                "ratio": med["plain"] / med["accelerated"],
                "target": TARGETS.get((name, key)),
                "equal": equal,
                "times_s": times,
            }
        )
    walls = {m: statistics.median(x["wall"] for x in xs) for m, xs in runs.items()}
    rows.append(
        {
            "client": name,
            "computation": "(whole process, wall)",
            "plain_s": walls["plain"],
            "accelerated_s": walls["accelerated"],
            "ratio": walls["plain"] / walls["accelerated"],
            "target": None,
            "equal": None,
        }
    )
    return rows


def fmt(s: float) -> str:
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        f"{'client':<10} {'computation':<40} {'plain':>10} {'accel.':>10} {'ratio':>8} "
        f"{'target':>7} {'==':>4}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        if "error" in r:
            lines.append(f"{r['client']:<10} {r['computation']:<40} FAILED: {r['error']}")
            continue
        target = "-" if r["target"] is None else f">={r['target']:.0f}x"
        miss = " !" if r["target"] is not None and r["ratio"] < r["target"] else ""
        eq = {None: "-", True: "yes", False: "NO"}[r["equal"]]
        lines.append(
            f"{r['client']:<10} {r['computation']:<40} {fmt(r['plain_s']):>10} "
            f"{fmt(r['accelerated_s']):>10} {r['ratio']:>7.1f}x {target:>7} {eq:>4}{miss}"
        )
    return "\n".join(lines)


def version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    """Runs the clients; returns 1 if a result differs or a program fails."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", default=",".join(CLIENTS_RUN), help="comma-separated clients")
    p.add_argument("--data", type=Path, default=default_data())
    p.add_argument("--quick", action="store_true", help="small sizes, one round")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    if args.quick:
        args.rounds = 1
    only = [c for c in args.only.split(",") if c]
    unknown = set(only) - set(CLIENTS_RUN)
    if unknown:
        p.error(f"unknown clients {sorted(unknown)}; choose from {', '.join(CLIENTS_RUN)}")
    load_start = os.getloadavg()
    log(f"data {args.data}; {args.rounds} rounds; load average {load_start}")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench_clients.") as tmp:
        env = offline.prepare(Path(tmp) / "offline")
        for name in only:
            program_args = CLIENTS_RUN[name][2 if args.quick else 1]
            rows += bench_client(
                name, [*program_args, "--data", str(args.data)], env, args.rounds, Path(tmp)
            )
    print(table(rows))
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_start": load_start,
        "load_average_end": os.getloadavg(),
        "versions": {pkg: version(pkg) for pkg in PACKAGES},
        "data": str(args.data),
        "rounds": args.rounds,
        "command": " ".join(
            [Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]
        ),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    log(f"wrote {args.out}; load average {meta['load_average_end']}")
    ok = all("error" not in r and r["equal"] is not False for r in rows)
    if not ok:
        print("MISMATCH or FAILURE: see the table", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
