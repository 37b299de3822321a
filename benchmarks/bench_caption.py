"""COCO caption metrics: rapidbleu's Python API against pycocoevalcap 1.2, in one run.

The input is bench_caption_core.py's: ``--images`` images (5,000 by default) of 5 references,
real WMT sentences from tests/data (about three times as long as COCO captions). Cases, each
checked with ``==`` on the corpus value and every image's score:

- ``bleu``: ``Bleu(4).compute_score(gts, res, verbose=0)``;
- ``rouge_l``: ``Rouge().compute_score(gts, res)``;
- ``cider_d``: ``Cider().compute_score(gts, res)``;
- ``reward``: CIDEr-D of a 256-sample batch against the document frequencies of every image,
  computed beforehand (rapidbleu's ``CiderDReward.scores`` against pycocoevalcap's
  ``CiderScorer`` with ``document_frequency`` assigned and the corpus's ``ref_len``).

Rounds are interleaved: ``--oracle-rounds`` times (1 by default; tens of seconds each), each
case runs pycocoevalcap once and then rapidbleu ``--rounds`` times (the reward 20 times as
many); the medians over the rounds count, so both sides see the same load. Results go to
``benchmarks/results/bench_caption.json``; exit
status 1 if a score differs.

Usage (the branch's venv, with pycocoevalcap installed)::

    .venv/bin/python benchmarks/bench_caption.py              # about a minute
    .venv/bin/python benchmarks/bench_caption.py --images 500
    .venv/bin/python benchmarks/bench_caption.py --oracle-rounds 3   # the docs' table
    RAPIDBLEU_NUM_THREADS=1 .venv/bin/python benchmarks/bench_caption.py --clock process \
        --out benchmarks/results/bench_caption_cpu.json             # CPU time, one core
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_caption_core import BATCH, images, log, theirs_reward
from pycocoevalcap.bleu.bleu import Bleu as TheirBleu
from pycocoevalcap.cider.cider import Cider as TheirCider
from pycocoevalcap.rouge.rouge import Rouge as TheirRouge

from rapidbleu.metrics.caption import Bleu, Cider, Rouge
from rapidbleu.metrics.caption.reward import CiderDReward

OUT = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "bench_caption.json"


#: The clock: wall time, or with ``--clock process`` the process's CPU time (steady on a
#: loaded machine; with ``RAPIDBLEU_NUM_THREADS=1`` both sides then count one core's work).
CLOCK = {"wall": time.perf_counter, "process": time.process_time}
clock = time.perf_counter


def median_time(f: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(rounds):
        t0 = clock()
        out = f()
        times.append(clock() - t0)
    return statistics.median(times), out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--images", type=int, default=5000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--oracle-rounds", type=int, default=1)
    p.add_argument("--clock", choices=sorted(CLOCK), default="wall")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    global clock
    clock = CLOCK[args.clock]
    gts, res = images(args.images)
    n = len(gts)
    log(f"{n} images, 5 references each; rapidbleu {args.rounds} rounds")

    keys = list(gts)[:BATCH]
    t0 = time.perf_counter()
    reward = CiderDReward(list(gts.values()))
    df_s = time.perf_counter() - t0
    hyps, refs = [res[k][0] for k in keys], [gts[k] for k in keys]
    cases_ours: dict[str, Callable[[], Any]] = {
        "bleu": lambda: Bleu(4).compute_score(gts, res, verbose=0),
        "rouge_l": lambda: Rouge().compute_score(gts, res),
        "cider_d": lambda: Cider().compute_score(gts, res),
        "reward": lambda: reward.scores(hyps, refs),
    }
    cases_theirs: dict[str, Callable[[], Any]] = {
        "bleu": lambda: TheirBleu(4).compute_score(gts, res, verbose=0),
        "rouge_l": lambda: TheirRouge().compute_score(gts, res),
        "cider_d": lambda: TheirCider().compute_score(gts, res),
    }
    # Interleaved: each oracle round is followed by rapidbleu's rounds of the same case, so
    # both see the same load; medians over the rounds.
    times_ours: dict[str, list[float]] = {name: [] for name in cases_ours}
    times_theirs: dict[str, list[float]] = {name: [] for name in cases_ours}
    out_ours: dict[str, Any] = {}
    out_theirs: dict[str, Any] = {}
    for r in range(args.oracle_rounds):
        for name, ours_f in cases_ours.items():
            log(f"round {r + 1}/{args.oracle_rounds}: {name}")
            if name == "reward":
                t, out_theirs[name] = theirs_reward(gts, res, clock)
            else:
                t, out_theirs[name] = median_time(cases_theirs[name], 1)
            times_theirs[name].append(t)
            rounds = args.rounds * (20 if name == "reward" else 1)
            t, out_ours[name] = median_time(ours_f, rounds)
            times_ours[name].append(t)
    ours = {k: (statistics.median(v), out_ours[k]) for k, v in times_ours.items()}
    theirs = {k: (statistics.median(v), out_theirs[k]) for k, v in times_theirs.items()}

    def same(name: str) -> bool:
        a, b = ours[name][1], theirs[name][1]
        if name == "bleu":
            return bool(a == b)
        if name == "reward":
            return bool(a == [float(x) for x in b])
        return bool(a[0] == b[0] and a[1].tolist() == b[1].tolist())

    equal = {name: same(name) for name in ours}
    print(f"{'case':<10}{'pycocoevalcap s':>17}{'rapidbleu s':>14}{'ratio':>10}  equal")
    for name in ours:
        a, b = theirs[name][0], ours[name][0]
        print(f"{name:<10}{a:>17.4f}{b:>14.6f}{a / b:>9.1f}x  {equal[name]}")
    print(f"(rapidbleu: document frequencies of {n} images built once in {df_s:.4f} s)")
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "images": n,
        "references": 5,
        "batch": BATCH,
        "rounds": args.rounds,
        "oracle_rounds": args.oracle_rounds,
        "clock": args.clock,
        "load_average": os.getloadavg(),
        "threads": os.environ.get("RAPIDBLEU_NUM_THREADS", "all"),
        "cases": {
            name: {
                "pycocoevalcap_s": theirs[name][0],
                "rapidbleu_s": ours[name][0],
                "ratio": theirs[name][0] / ours[name][0],
                "equal": equal[name],
            }
            for name in ours
        },
        "reward_df_s": df_s,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    log(f"wrote {args.out}")
    return 0 if all(equal.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
