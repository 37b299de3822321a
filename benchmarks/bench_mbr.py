"""Times mbrs' own MBR utilities plainly (sacreBLEU per pair) and in accelerator mode, in one run.

mbrs 0.1.8's ``MetricBLEU``, ``MetricChrF`` and ``MetricTER`` (their default configurations,
``num_workers=8``) compute ``pairwise_scores(C, C)`` for C candidates of one source segment
(tests/accelerate/clients/mbrs_pairwise.py's ``candidates``: real WMT22 en-de outputs, then
perturbed copies), and ``DecoderMBR.decode`` picks the best (``expected_scores``, i.e. the matrix
again). Sizes: BLEU 256 x 256, chrF 128 x 128 (the issue's targets: >= 50x each), TER 48 x 48.

The same child program (this file with ``--child``) runs in two subprocesses: plainly (mbrs'
process pool calling sacreBLEU's ``sentence_score`` per pair) and under
``python -m rapidbleu.accelerate`` (the pool replaced by one rapidbleu matrix call). Each child
times its calls itself (``time.perf_counter``, imports left out) and returns the tensors; the
table shows the seconds, the ratio plain / accelerated and whether every tensor is ``==``
(values, dtype and shape). mbrs is imported as tests/accelerate/clients/mbrs_light.py does.
Benchmarks are not tests: nothing asserts a time; the exit status is 1 when a result differs.

Usage::

    .venv/bin/python benchmarks/bench_mbr.py                  # BLEU 256, chrF 128, TER 48
    .venv/bin/python benchmarks/bench_mbr.py --bleu 64 --chrf 32 --ter 16   # a smoke run
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CLIENTS = REPO / "tests" / "accelerate" / "clients"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_mbr.json"
TARGETS = {"bleu": 50.0, "chrf": 50.0}


def child(sizes: dict[str, int], out: Path) -> None:
    """Runs mbrs' calls at ``sizes`` and writes their tensors and seconds to ``out``."""
    sys.path.insert(0, str(CLIENTS))
    from _common import default_data
    from mbrs_light import load
    from mbrs_pairwise import candidates

    m = load()
    from mbrs.decoders import DecoderMBR

    classes = {"bleu": m.MetricBLEU, "chrf": m.MetricChrF, "ter": m.MetricTER}
    results: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    for name, k in sizes.items():
        hyps = candidates(default_data(), k)
        metric = classes[name](classes[name].Config())
        decoder = DecoderMBR(DecoderMBR.Config(), metric)
        calls: tuple[tuple[str, Callable[[], Any]], ...] = (
            ("pairwise_scores", functools.partial(metric.pairwise_scores, hyps, hyps)),
            ("DecoderMBR", functools.partial(decoder.decode, hyps, hyps, nbest=1)),
        )
        for call, fn in calls:
            t = time.perf_counter()
            value = fn()
            seconds[f"{name} {call} {k}x{k}"] = time.perf_counter() - t
            if call == "pairwise_scores":
                value = [str(value.dtype), list(value.shape), value.tolist()]
            else:
                value = [value.idx, value.sentence, value.score]
            results[f"{name} {call} {k}x{k}"] = value
    out.write_text(json.dumps({"results": results, "seconds": seconds}), encoding="utf-8")


def run(sizes: dict[str, int], mode: bool, folder: Path) -> dict[str, Any]:
    """One child run (plain, or in accelerator mode): its results and seconds."""
    out = folder / ("accelerated.json" if mode else "plain.json")
    args = [f"--{k}={v}" for k, v in sizes.items()]
    prefix = ["-m", "rapidbleu.accelerate"] if mode else []
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    cmd = [sys.executable, *prefix, __file__, "--child", str(out), *args]
    subprocess.run(cmd, check=True, env=env, stderr=subprocess.DEVNULL)
    got: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return got


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--bleu", type=int, default=256)
    p.add_argument("--chrf", type=int, default=128)
    p.add_argument("--ter", type=int, default=48)
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = p.parse_args(argv)
    sizes = {"bleu": a.bleu, "chrf": a.chrf, "ter": a.ter}
    if a.child is not None:
        child(sizes, a.child)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        plain = run(sizes, False, Path(tmp))
        fast = run(sizes, True, Path(tmp))
    rows = []
    print(f"{'call':<36}{'mbrs (s)':>10}{'mode (s)':>10}{'ratio':>9}  target  ==")
    for key, t_plain in plain["seconds"].items():
        t_fast = fast["seconds"][key]
        equal = plain["results"][key] == fast["results"][key]
        target = TARGETS.get(key.split()[0]) if "pairwise" in key else None
        rows.append(
            {
                "call": key,
                "mbrs_seconds": t_plain,
                "accelerated_seconds": t_fast,
                "ratio": t_plain / t_fast,
                "target": target,
                "equal": equal,
            }
        )
        print(
            f"{key:<36}{t_plain:>10.3f}{t_fast:>10.4f}{t_plain / t_fast:>8.1f}x"
            f"  {'' if target is None else f'>={target:g}x':>6}  {equal}"
        )
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(
        json.dumps(
            {
                "benchmark": "bench_mbr",
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "sizes": sizes,
                "rows": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {a.out}")
    return 0 if all(r["equal"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
