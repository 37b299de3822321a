"""Checks rapidbleu.torch on a GPU: every score ``==`` the CPU engine's, timings, peak memory.

For each batch size B x L (default: the sizes of the issue, RL-like: one reference, IDs of a
32k vocabulary skewed towards frequent ones, lengths between L/2 and L) it:

1. scores the batch on the device with ``rapidbleu.torch.sentence_bleu`` (sacreBLEU's and
   NLTK's dialects) and ``statistics``, and checks every row and score ``==`` the CPU engine
   (``rapidbleu.metrics.bleu.tokens.token_statistics``, ``BLEU.sentence_scores``,
   ``rapidbleu.dialects.nltk.sentence_bleu_batch``) on the same tensors moved to the CPU;
2. times ``sentence_bleu`` end to end (device tensors in, device scores out: the counts, the
   copy of the B x 10 rows, their exact scoring on the CPU, the copy back) and the device
   counts alone (``statistics``), median of ``--repeats`` after ``--warmup`` calls, with the
   ``--counter`` given (``auto``: the fused Triton kernel on CUDA) and, beside it, the sorts'
   counter (``sort counts ms``), whose rows must be equal too;
3. reads the peak memory the call allocates on the device beyond its inputs;
4. with ``--graph`` (CUDA only): captures the counts in a CUDA graph (the fused kernel, or
   ``count_rows`` with the vocabulary's ID range, so nothing is read from the device
   mid-count), checks its rows ``==`` the eager ones, and times replay + scoring.

Targets (H100 or H200, issue 40): 256 x 1,024 in <= 1 ms; 1,024 x 1,024 in <= 2 ms; every size
runs; <= 1 GiB peak at 1,024 x 1,024; every score ``==`` the CPU engine's.

    python scripts/check_gpu.py                     # CUDA, every size, both dialects
    python scripts/check_gpu.py --graph --json out.json
    python scripts/check_gpu.py --counter sort      # the sorts' counter alone, as before
    python scripts/check_gpu.py --device cpu --sizes 64x256,256x128   # the same checks on CPU

Exit status 0 when every score is equal, every size ran and the memory target holds (with
``--strict``, the timing targets too); 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import statistics as stats
import sys
import time
from collections.abc import Callable
from typing import Any

import torch

from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.metrics import BLEU
from rapidbleu.metrics.bleu.tokens import token_statistics
from rapidbleu.torch import corpus_bleu, sentence_bleu, statistics
from rapidbleu.torch.bleu import COUNTERS
from rapidbleu.torch.ngrams import count_rows
from rapidbleu.torch.options import resolve

SIZES = "64x256,256x1024,1024x1024,4096x256,8192x128,512x4096"
VOCAB = 32_000
#: (B, L): end-to-end milliseconds at most.
TIME_TARGETS = {(256, 1024): 1.0, (1024, 1024): 2.0}
MEMORY_TARGET = {(1024, 1024): 1024.0}  # MiB


def make_batch(b: int, length: int, refs: int, seed: int) -> dict[str, torch.Tensor]:
    """A reproducible RL-like batch on the CPU: references are hypotheses with edits."""
    gen = torch.Generator().manual_seed(seed)
    # Skewed IDs (frequent ones repeat, as in text); every ID is in 0..VOCAB-1.
    hyp = (torch.rand(b, length, generator=gen) ** 3 * VOCAB).long()
    ref = hyp[:, None, :].repeat(1, refs, 1)
    edit = torch.rand(ref.shape, generator=gen) < 0.3
    ref[edit] = (torch.rand(int(edit.sum()), generator=gen) ** 3 * VOCAB).long()
    # Shift each reference by 0..2 positions (insertions at the start), as one gather.
    shift = torch.randint(0, 3, (b, refs, 1), generator=gen)
    ref = ref.gather(2, (torch.arange(length) - shift) % length)
    lengths = torch.randint(length // 2, length + 1, (b,), generator=gen)
    ref_lengths = torch.randint(length // 2, length + 1, (b, refs), generator=gen)
    return {
        "hyp": hyp,
        "ref": ref.view(b, refs, length),
        "lengths": lengths,
        "ref_lengths": ref_lengths,
    }


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def timed(f: Callable[[], Any], device: torch.device, warmup: int, repeats: int) -> list[float]:
    """Milliseconds of each of ``repeats`` calls (after ``warmup``), the device drained."""
    for _ in range(warmup):
        f()
    sync(device)
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        sync(device)
        out.append((time.perf_counter() - t) * 1e3)
    return out


def peak_mib(f: Callable[[], Any], device: torch.device) -> float | None:
    """MiB the call allocates on the device at its peak, beyond what was allocated before."""
    if device.type != "cuda":
        return None
    sync(device)
    torch.cuda.reset_peak_memory_stats(device)
    before = torch.cuda.memory_allocated(device)
    f()
    sync(device)
    return (torch.cuda.max_memory_allocated(device) - before) / 2**20


def cpu_oracles(cpu: dict[str, torch.Tensor]) -> dict[str, Any]:
    """Rows and scores of the CPU engine on the same tensors."""
    layout = {"lengths": cpu["lengths"].tolist(), "ref_lengths": cpu["ref_lengths"].tolist()}
    refs = list(cpu["ref"])
    rows, _ = token_statistics(cpu["hyp"], refs, per_segment=True, **layout)
    sacre = BLEU(tokenize="none", effective_order=True).sentence_scores(
        cpu["hyp"], refs, per_segment=True, **layout
    )
    nltk = rb_nltk.sentence_bleu_batch(
        refs, cpu["hyp"], smoothing_function=rb_nltk.SmoothingFunction().method1, **layout
    )
    streams = range(cpu["ref"].shape[1])  # corpus_score takes reference streams
    corpus = BLEU(tokenize="none").corpus_score(
        cpu["hyp"],
        [cpu["ref"][:, k] for k in streams],
        lengths=layout["lengths"],
        ref_lengths=[cpu["ref_lengths"][:, k].tolist() for k in streams],
    )
    return {"rows": rows, "sacrebleu": sacre, "nltk": nltk, "corpus": corpus.score}


def graph_check(
    dev: dict[str, torch.Tensor], rows_eager: torch.Tensor, warmup: int, repeats: int, fused: bool
) -> dict[str, Any]:
    """Counts captured in a CUDA graph: rows ``==`` eager, and replay + scoring timings."""
    device = dev["hyp"].device
    args = (dev["hyp"], dev["lengths"], dev["ref"], dev["ref_lengths"], 4)
    if fused:
        from rapidbleu.torch.fused import fused_rows

        def count() -> torch.Tensor:
            return fused_rows(*args)
    else:

        def count() -> torch.Tensor:
            return count_rows(*args, id_range=(0, VOCAB - 1))

    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):
        for _ in range(3):
            count()
    torch.cuda.current_stream(device).wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_rows = count()
    graph.replay()
    sync(device)
    equal = bool(torch.equal(static_rows, rows_eager))
    scoring = resolve("sacrebleu", sentence=True)

    def run() -> torch.Tensor:
        graph.replay()
        rows = static_rows.cpu().numpy()
        return torch.from_numpy(scoring.sentences(rows)).to(device)

    ms = timed(run, device, warmup, repeats)
    return {"graph_rows_equal": equal, "graph_ms": stats.median(ms)}


def check_size(b: int, length: int, args: argparse.Namespace) -> dict[str, Any]:
    device = torch.device(args.device)
    if device.type == "cuda" and device.index is None:
        # Results live on "cuda:0", which is not equal to torch.device("cuda").
        device = torch.device("cuda", torch.cuda.current_device())
    cpu = make_batch(b, length, args.refs, seed=b * 100_003 + length)
    dev = {k: v.to(device) for k, v in cpu.items()}
    layout = {"lengths": dev["lengths"], "ref_lengths": dev["ref_lengths"]}
    result: dict[str, Any] = {"B": b, "L": length, "R": args.refs, "device": str(device)}
    want = cpu_oracles(cpu)
    rows = statistics(dev["hyp"], dev["ref"], counter=args.counter, **layout)
    result["rows_equal"] = rows.cpu().numpy().tolist() == want["rows"].tolist()
    sort_rows = statistics(dev["hyp"], dev["ref"], counter="sort", **layout)
    result["sort_rows_equal"] = sort_rows.cpu().numpy().tolist() == want["rows"].tolist()
    layout["counter"] = args.counter
    calls = {
        "sacrebleu": lambda: sentence_bleu(dev["hyp"], dev["ref"], **layout),
        "nltk": lambda: sentence_bleu(
            dev["hyp"], dev["ref"], dialect="nltk", smoothing="method1", **layout
        ),
    }
    for dialect in args.dialects:
        got = calls[dialect]()
        result[f"{dialect}_equal"] = (
            got.device == device and got.cpu().numpy().tolist() == want[dialect].tolist()
        )
    corpus = corpus_bleu(dev["hyp"], dev["ref"], **layout)
    result["corpus_equal"] = corpus.device == device and float(corpus) == want["corpus"]
    main = calls[args.dialects[0]]
    ms = timed(main, device, args.warmup, args.repeats)
    result["ms"] = stats.median(ms)
    result["ms_min"] = min(ms)
    for key, counter in (("counts_ms", args.counter), ("sort_counts_ms", "sort")):
        counts = timed(
            lambda c=counter: statistics(dev["hyp"], dev["ref"], **{**layout, "counter": c}),
            device,
            args.warmup,
            args.repeats,
        )
        result[key] = stats.median(counts)
    result["peak_mib"] = peak_mib(main, device)
    if args.graph and device.type == "cuda":
        fused = args.counter != "sort"
        try:
            result.update(graph_check(dev, rows, args.warmup, args.repeats, fused))
        except Exception as e:  # report, do not hide the other results
            result["graph_error"] = f"{type(e).__name__}: {e}"
    return result


def verdicts(results: list[dict[str, Any]], args: argparse.Namespace) -> tuple[list[str], bool]:
    """Lines saying which target each result meets, and whether the required ones hold."""
    lines, ok = [], True
    for r in results:
        key = (r["B"], r["L"])
        if "error" in r:
            lines.append(f"{r['B']}x{r['L']}: did not run: {r['error']}")
            ok = False
            continue
        equal = [k for k in r if k.endswith("_equal")]
        if not all(r[k] for k in equal):
            lines.append(
                f"{r['B']}x{r['L']}: NOT EQUAL: " + ", ".join(k for k in equal if not r[k])
            )
            ok = False
        if key in TIME_TARGETS:
            best = min(x for x in (r["ms"], r.get("graph_ms")) if x is not None)
            met = best <= TIME_TARGETS[key]
            lines.append(
                f"{r['B']}x{r['L']}: {best:.3f} ms, target <= {TIME_TARGETS[key]} ms: "
                + ("met" if met else "missed")
            )
            ok = ok and (met or not args.strict)
        if key in MEMORY_TARGET and r["peak_mib"] is not None:
            met = r["peak_mib"] <= MEMORY_TARGET[key]
            lines.append(
                f"{r['B']}x{r['L']}: peak {r['peak_mib']:.0f} MiB, target <= "
                f"{MEMORY_TARGET[key]:.0f} MiB: " + ("met" if met else "missed")
            )
            ok = ok and met
    return lines, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda", help="cuda (default), cuda:1, cpu, ...")
    parser.add_argument("--sizes", default=SIZES, help=f"B x L list (default {SIZES})")
    parser.add_argument("--refs", type=int, default=1, help="references per segment (default 1)")
    parser.add_argument("--dialects", default="sacrebleu,nltk", help="timed: the first")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--counter", default="auto", choices=COUNTERS, help="default: auto")
    parser.add_argument("--graph", action="store_true", help="also time a CUDA-graph replay")
    parser.add_argument("--strict", action="store_true", help="timing targets decide too")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    args.dialects = args.dialects.split(",")
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("no CUDA device here; run with --device cpu for the same checks on the CPU")
        return 1
    name = torch.cuda.get_device_name(args.device) if args.device.startswith("cuda") else "CPU"
    print(
        f"rapidbleu.torch on {name}, torch {torch.__version__}, R = {args.refs}, "
        f"counter {args.counter}"
    )
    header = (
        f"{'B x L':>11} {'equal':>6} {'ms':>9} {'min ms':>9} {'counts ms':>10} "
        f"{'sort counts ms':>15} {'peak MiB':>9}"
    )
    print(header + (f" {'graph ms':>9}" if args.graph else ""))
    results = []
    for size in args.sizes.split(","):
        b, length = (int(x) for x in size.lower().split("x"))
        try:
            r = check_size(b, length, args)
        except Exception as e:  # a size that does not run is a result, not a crash
            r = {"B": b, "L": length, "error": f"{type(e).__name__}: {e}"}
            print(f"{size:>11} ERROR {r['error']}")
            results.append(r)
            continue
        equal = all(r[k] for k in r if k.endswith("_equal"))
        peak = "-" if r["peak_mib"] is None else f"{r['peak_mib']:.0f}"
        line = (
            f"{size:>11} {'yes' if equal else 'NO':>6} {r['ms']:>9.3f} {r['ms_min']:>9.3f} "
            f"{r['counts_ms']:>10.3f} {r['sort_counts_ms']:>15.3f} {peak:>9}"
        )
        if args.graph:
            line += (
                f" {r['graph_ms']:>9.3f}" if "graph_ms" in r else f" {r.get('graph_error', '-')}"
            )
        print(line, flush=True)
        results.append(r)
    lines, ok = verdicts(results, args)
    print("\n".join(lines))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"device": name, "torch": torch.__version__, "results": results}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
