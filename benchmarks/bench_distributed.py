"""Ray Data throughput of a corpus BLEU, against the in-process engine, and its overhead.

The corpus is synthetic and **generated inside the workers**: ``ray.data.range(N)`` blocks of
row numbers become blocks of text by a vectorised generator (a Zipf-like vocabulary of 50,000
letter words, references of 10-40 words, hypotheses with a fifth of the words replaced; each
block draws its rows from an eighth as many distinct pairs, so that generating costs a
fraction of scoring), seeded by each block's first row, so every run and every worker count
sees the same text.
Generation fuses with scoring in one task per block: no text crosses the object store.

Measurements (one run each unless ``--repeats``):

- **in-process**: the same blocks generated here, then ``BLEU().statistics`` + sum on the
  Python lists with 1 thread and with all cores (the engine alone), and the Arrow -> ``str``
  conversion that the distributed path adds, timed apart.
- **Ray, k workers** (a local cluster with ``num_cpus=k``, k in ``--workers``): a job that only
  generates and counts the rows (the cost of the data and of Ray Data), then
  ``rapidbleu.distributed.ray.corpus_score`` on the same dataset. Scoring time = the second
  minus the first, in wall time and in the CPU time of the cluster's worker processes
  (psutil); overhead = scoring CPU time over the in-process engine's thread CPU time. CPU time
  is what a per-core throughput is made of, and it holds on a machine shared with other work,
  where wall times do not. The score is checked ``==`` the in-process score.
- **bootstrap** (``--bootstrap``): ``corpus_score(..., n_bootstrap=B)`` on
  ``--bootstrap-segments`` rows with the most workers, minus the plain corpus score: the cost
  of a Poisson resample per segment.

Benchmarks are not tests: nothing here asserts a time. Figures are printed and written to
``benchmarks/results/bench_distributed.json``. The 100-node projection built from them is in
``docs/distributed.md``.

Usage::

    nice -n 10 .venv/bin/python benchmarks/bench_distributed.py            # 10 M segments
    nice -n 10 .venv/bin/python benchmarks/bench_distributed.py --quick    # 400 k, a minute
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pyarrow as pa

try:
    import psutil
except ImportError:  # CPU times of the Ray workers are then not measured
    psutil = None

from rapidbleu.distributed.ray import corpus_score, local_cluster
from rapidbleu.metrics import BLEU

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "bench_distributed.json"

VOCAB = 50_000
_rng = np.random.default_rng(2024)
_LENGTHS = _rng.integers(2, 11, VOCAB)
_LETTERS = np.array(list("abcdefghijklmnopqrstuvwxyz"))
_VOCAB = pa.array(["".join(_LETTERS[_rng.integers(0, 26, n)]) for n in _LENGTHS])
# Zipf (s=1) word ids by table lookup: a 2**20-entry inverse of the distribution function,
# so drawing a word costs an index, not a search (the rarest words, below 2**-20, never come).
_CDF = np.cumsum(1.0 / np.arange(1, VOCAB + 1))
_TABLE = np.searchsorted(_CDF / _CDF[-1], (np.arange(2**20) + 0.5) / 2**20).astype(np.int64)


def _render(tokens: np.ndarray, counts: np.ndarray) -> pa.Array:
    """Segments of ``counts[i]`` words each, from word ids, as an Arrow string array."""
    import pyarrow.compute as pc

    offsets = pa.array(np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))
    words = pa.ListArray.from_arrays(offsets, _VOCAB.take(pa.array(tokens)))
    return pc.binary_join(words, " ")  # in Arrow's C++: no Python object per word


#: Distinct segment pairs per block: one in this many rows (the rest are drawn from them), so
#: that generating costs a fraction of scoring; every row is still scored on its own.
DISTINCT_EVERY = 8


def generate(batch: pa.Table, seed: int = 12345) -> pa.Table:
    """Text for a block of row numbers: ``hyp`` and ``ref``, the same for the same rows."""
    ids = batch.column("id").to_numpy()
    rng = np.random.default_rng([seed, int(ids[0])])
    n = len(ids)
    distinct = max(1, n // DISTINCT_EVERY)
    counts = rng.integers(10, 41, distinct)
    ref_tokens = _TABLE[rng.integers(0, 2**20, int(counts.sum()))]
    hyp_tokens = ref_tokens.copy()
    noise = rng.random(len(hyp_tokens)) < 0.2
    hyp_tokens[noise] = _TABLE[rng.integers(0, 2**20, int(noise.sum()))]
    pairs = pa.table({"hyp": _render(hyp_tokens, counts), "ref": _render(ref_tokens, counts)})
    return pairs.take(pa.array(rng.integers(0, distinct, n)))


def _blocks(n: int, block_rows: int) -> list[pa.Table]:
    starts = range(0, n, block_rows)
    return [pa.table({"id": np.arange(a, min(n, a + block_rows))}) for a in starts]


def _workers_cpu() -> float:
    """CPU seconds used so far by this process's Ray worker processes (``ray::...``)."""
    if psutil is None:
        return float("nan")
    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.name().startswith("ray::"):
                cpu = proc.cpu_times()
                total += cpu.user + cpu.system
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


def _time(fn: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    """Median wall time, median CPU time of the Ray workers, and the last result."""
    times, cpus, out = [], [], None
    for _ in range(repeats):
        cpu = _workers_cpu()
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
        cpus.append(_workers_cpu() - cpu)
    return statistics.median(times), statistics.median(cpus), out


def in_process(n: int, block_rows: int) -> dict[str, Any]:
    """Generation, conversion and the engine (1 thread, all cores), timed apart, per block."""
    gen = convert = convert_cpu = score1 = cpu1 = score_all = 0.0
    totals = None
    for ids in _blocks(n, block_rows):
        t = time.perf_counter()
        table = generate(ids)
        gen += time.perf_counter() - t
        t, c = time.perf_counter(), time.thread_time()
        hyps, refs = table.column("hyp").to_pylist(), [table.column("ref").to_pylist()]
        convert += time.perf_counter() - t
        convert_cpu += time.thread_time() - c
        t, c = time.perf_counter(), time.thread_time()
        rows = BLEU(num_threads=1).statistics(hyps, refs)  # on this thread: its CPU time
        score1 += time.perf_counter() - t
        cpu1 += time.thread_time() - c
        t = time.perf_counter()
        rows_all = BLEU(num_threads=0).statistics(hyps, refs)
        part = rows_all.sum(0)
        score_all += time.perf_counter() - t
        assert (rows == rows_all).all()
        totals = part if totals is None else totals + part
    score = BLEU().score_totals(totals).score
    return {
        "segments": n,
        "generate_s": gen,
        "arrow_to_str_s": convert,
        "arrow_to_str_cpu_s": convert_cpu,
        "engine_1_thread_s": score1,
        "engine_1_thread_cpu_s": cpu1,
        "engine_all_cores_s": score_all,
        "cores": os.cpu_count(),
        "score": score,
    }


def ray_runs(
    n: int, block_rows: int, workers: int, repeats: int, expected: float
) -> dict[str, Any]:
    """Generate-only and scoring jobs on a local cluster of ``workers`` CPUs."""
    import ray
    import ray.data

    blocks = max(1, -(-n // block_rows))
    with local_cluster(num_cpus=workers):
        ray.data.DataContext.get_current().enable_progress_bars = False

        def dataset() -> Any:
            ds = ray.data.range(n, override_num_blocks=blocks)
            return ds.map_batches(generate, batch_size=None, batch_format="pyarrow")

        # Warm-up: start the workers and import rapidbleu in them.
        corpus_score(dataset().limit(1000), BLEU(), "hyp", "ref")

        def generate_only() -> int:
            counted = dataset().map_batches(
                lambda t: pa.table({"n": [t.num_rows]}), batch_size=None, batch_format="pyarrow"
            )
            return int(sum(r["n"] for r in counted.take_all()))

        gen_s, gen_cpu, counted = _time(generate_only, repeats)
        score_s, score_cpu, result = _time(
            lambda: corpus_score(dataset(), BLEU(), "hyp", "ref"), repeats
        )
    assert counted == n and result.num_rows == n
    if result.score.score != expected:
        raise SystemExit(f"score differs: Ray {result.score.score!r} != {expected!r}")
    return {
        "workers": workers,
        "blocks": result.num_blocks,
        "generate_only_s": gen_s,
        "corpus_score_s": score_s,
        "scoring_s": score_s - gen_s,
        "generate_only_cpu_s": gen_cpu,
        "corpus_score_cpu_s": score_cpu,
        "scoring_cpu_s": score_cpu - gen_cpu,
        "score": result.score.score,
    }


def bootstrap_run(n: int, block_rows: int, workers: int, samples: int) -> dict[str, Any]:
    """The extra time of a Poisson bootstrap over the plain corpus score."""
    import ray
    import ray.data

    blocks = max(1, -(-n // block_rows))
    with local_cluster(num_cpus=workers):
        ray.data.DataContext.get_current().enable_progress_bars = False

        def dataset() -> Any:
            ds = ray.data.range(n, override_num_blocks=blocks)
            return ds.map_batches(generate, batch_size=None, batch_format="pyarrow")

        corpus_score(dataset().limit(1000), BLEU(), "hyp", "ref", n_bootstrap=10)
        plain, plain_cpu, _ = _time(lambda: corpus_score(dataset(), BLEU(), "hyp", "ref"), 1)
        boot, boot_cpu, result = _time(
            lambda: corpus_score(dataset(), BLEU(), "hyp", "ref", n_bootstrap=samples), 1
        )
    return {
        "segments": n,
        "workers": workers,
        "resamples": samples,
        "corpus_score_s": plain,
        "with_bootstrap_s": boot,
        "corpus_score_cpu_s": plain_cpu,
        "with_bootstrap_cpu_s": boot_cpu,
        "bootstrap_cpu_ns_per_segment_resample": (boot_cpu - plain_cpu) / (n * samples) * 1e9,
        "ci": [float(result.score._mean), float(result.score._ci)],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--segments", type=int, default=10_000_000)
    p.add_argument("--block-rows", type=int, default=100_000)
    p.add_argument("--workers", default="1,2", help="comma-separated local cluster sizes")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--bootstrap", type=int, default=1000, help="resamples (0: skip)")
    p.add_argument("--bootstrap-segments", type=int, default=1_000_000)
    p.add_argument("--quick", action="store_true", help="400k segments, 100k for the bootstrap")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    if args.quick:
        args.segments, args.bootstrap_segments = 400_000, 100_000
    workers = [int(w) for w in args.workers.split(",")]
    n = args.segments
    load_at_start = os.getloadavg()
    print(f"load average {load_at_start[0]:.1f} on {os.cpu_count()} cores", flush=True)

    print(f"in-process: generating and scoring {n:,} segments ...", flush=True)
    base = in_process(n, args.block_rows)
    per_core_engine = n / base["engine_1_thread_cpu_s"]
    print(
        f"  generate {base['generate_s']:.1f} s | Arrow->str {base['arrow_to_str_s']:.1f} s "
        f"({base['arrow_to_str_cpu_s']:.1f} s CPU) | "
        f"engine 1 thread {base['engine_1_thread_s']:.1f} s wall, "
        f"{base['engine_1_thread_cpu_s']:.1f} s CPU ({per_core_engine / 1e6:.3f} M seg/s per "
        f"CPU second) | all {base['cores']} cores {base['engine_all_cores_s']:.1f} s wall",
        flush=True,
    )
    runs = []
    for k in workers:
        print(f"Ray Data, {k} worker(s) ...", flush=True)
        run = ray_runs(n, args.block_rows, k, args.repeats, base["score"])
        run["cpu_overhead_vs_engine"] = run["scoring_cpu_s"] / base["engine_1_thread_cpu_s"]
        run["segments_per_s"] = n / run["corpus_score_s"]
        run["scoring_segments_per_cpu_s"] = n / run["scoring_cpu_s"]
        runs.append(run)
        print(
            f"  generate-only {run['generate_only_s']:.1f} s | corpus_score "
            f"{run['corpus_score_s']:.1f} s wall ({run['segments_per_s'] / 1e6:.2f} M seg/s) | "
            f"scoring {run['scoring_s']:.1f} s wall, {run['scoring_cpu_s']:.1f} s CPU = "
            f"{run['cpu_overhead_vs_engine']:.2f}x the engine's CPU "
            f"({run['scoring_segments_per_cpu_s'] / 1e6:.3f} M seg/s per CPU second)",
            flush=True,
        )
    if len(runs) > 1:
        speedup = runs[0]["corpus_score_s"] / runs[-1]["corpus_score_s"]
        print(f"  {workers[-1]} vs {workers[0]} worker(s): {speedup:.2f}x", flush=True)
    boot = None
    if args.bootstrap:
        print(
            f"Poisson bootstrap, {args.bootstrap} resamples, {args.bootstrap_segments:,} "
            f"segments, {workers[-1]} worker(s) ...",
            flush=True,
        )
        boot = bootstrap_run(args.bootstrap_segments, args.block_rows, workers[-1], args.bootstrap)
        print(
            f"  corpus_score {boot['corpus_score_s']:.1f} s | with bootstrap "
            f"{boot['with_bootstrap_s']:.1f} s | "
            f"{boot['bootstrap_cpu_ns_per_segment_resample']:.1f} ns of CPU per segment and "
            "resample",
            flush=True,
        )
    report = {
        "benchmark": "bench_distributed",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "cores": os.cpu_count(),
            "load_average_at_start": load_at_start,
            "load_average_at_end": os.getloadavg(),
        },
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "statistics_bytes": {
            "bleu_row": BLEU().layout.width * 8,
            "bleu_block_result": "one int64 row per block (plus ~0.5 KB of pickling)",
        },
        "in_process": base,
        "ray": runs,
        "bootstrap": boot,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
