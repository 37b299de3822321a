"""rapidbleu.torch against NLTK and the CPU engine: NLTK's sentence BLEU of token-ID batches.

The same seeded batches for every tool (``scripts/check_gpu.py``'s: IDs of a 32k vocabulary
skewed towards frequent ones, one reference each made from the hypothesis by edits, lengths
between L/2 and L). Each tool computes NLTK's ``sentence_bleu`` with ``method1`` of every row:

- ``nltk``: a loop of ``nltk.translate.bleu_score.sentence_bleu`` over the rows as lists
  (on the first ``--nltk-rows`` rows; its time is scaled to the batch);
- ``cpu engine``: one ``rapidbleu.dialects.nltk.sentence_bleu_batch`` call on the 2-D tensors
  (read through their buffers, counted in Rust on every core);
- ``torch <device>``: one ``rapidbleu.torch.sentence_bleu(..., dialect="nltk")`` call on the
  tensors where they are (CPU here; add ``--device cuda`` on a GPU machine).

Every score is compared with ``==`` (the script exits with 1 when one differs). Times are the
median of ``--repeats`` calls after one warm-up. Benchmarks are not tests: nothing here asserts
a time.

    python benchmarks/bench_torch.py                       # 256x1024 and 1024x128, CPU
    python benchmarks/bench_torch.py --device cpu,cuda     # also on the GPU
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from nltk.translate import bleu_score as nb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from check_gpu import make_batch

from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.torch import sentence_bleu


def median_ms(f: Callable[[], Any], repeats: int, device: str = "cpu") -> tuple[float, Any]:
    out = f()  # warm-up (and the result)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times), out


def run(b: int, length: int, args: argparse.Namespace) -> bool:
    batch = make_batch(b, length, 1, seed=b * 7 + length)
    lengths, ref_lengths = batch["lengths"], batch["ref_lengths"]
    hyps = [row[:n].tolist() for row, n in zip(batch["hyp"], lengths.tolist())]
    refs = [[row[:n].tolist()] for row, n in zip(batch["ref"][:, 0], ref_lengths[:, 0].tolist())]
    smooth = nb.SmoothingFunction().method1
    k = min(args.nltk_rows, b)
    t0 = time.perf_counter()
    want = [nb.sentence_bleu(r, h, smoothing_function=smooth) for h, r in zip(hyps[:k], refs)]
    nltk_ms = (time.perf_counter() - t0) * 1e3 * b / k
    engine_ms, engine = median_ms(
        lambda: rb_nltk.sentence_bleu_batch(
            list(batch["ref"]),
            batch["hyp"],
            smoothing_function=smooth,
            lengths=lengths.tolist(),
            ref_lengths=ref_lengths.tolist(),
        ),
        args.repeats,
    )
    ok = engine[:k].tolist() == want
    print(f"{b}x{length}: nltk {nltk_ms:10.1f} ms (from {k} rows)")
    print(
        f"{'':>{len(str(b)) + len(str(length)) + 2}} cpu engine {engine_ms:8.1f} ms "
        f"({nltk_ms / engine_ms:5.0f}x nltk)"
    )
    for device in args.device.split(","):
        dev = {key: v.to(device) for key, v in batch.items()}
        ms, got = median_ms(
            lambda dev=dev: sentence_bleu(
                dev["hyp"],
                dev["ref"],
                lengths=dev["lengths"],
                ref_lengths=dev["ref_lengths"],
                dialect="nltk",
                smoothing="method1",
            ),
            args.repeats,
            device,
        )
        same = got.cpu().tolist() == engine.tolist()
        ok = ok and same
        print(
            f"{'':>{len(str(b)) + len(str(length)) + 2}} torch {device:<5}{ms:9.1f} ms "
            f"({nltk_ms / ms:5.0f}x nltk, {engine_ms / ms:5.2f}x the cpu engine)"
            + ("" if same else "  SCORES DIFFER")
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="256x1024,1024x128")
    parser.add_argument("--device", default="cpu", help="comma-separated: cpu, cuda")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--nltk-rows", type=int, default=256)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads")
    ok = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for size in args.sizes.split(","):
            b, length = (int(x) for x in size.split("x"))
            ok = run(b, length, args) and ok
    print("every score == nltk's and the cpu engine's" if ok else "SCORES DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
