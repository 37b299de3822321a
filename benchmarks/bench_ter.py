"""Corpus TER: rapidbleu against sacreBLEU 2.6.0 on the same inputs, in one run.

Cases (select with ``--only``, comma-separated):

- ``wmt1``: one WMT22 en-de system (2,037 lines) against one reference;
- ``wmt2``: the same system against two references;
- ``para``: paragraph-level segments: consecutive lines of that system and its reference joined
  ``--join`` at a time (8 by default: 100 paragraphs of about 135 words from the first 800 lines);
- ``shuffle``: shift-heavy synthetic segments: 50 words over a 30-word vocabulary, the
  hypothesis a shuffle of the reference (sacreBLEU's worst case, ~1.5 s a segment).

Each round times sacreBLEU once, then rapidbleu ``--rapid-rounds`` times with all cores and as
many times on one thread (``num_threads=1``), interleaved; the table shows medians and the ratios
sacreBLEU / rapidbleu. Every case checks that the scores are equal with ``==`` (exit status 1 if
not). Results go to ``benchmarks/results/bench_ter.json``.

Usage::

    .venv/bin/python benchmarks/bench_ter.py                 # about 4 minutes
    .venv/bin/python benchmarks/bench_ter.py --only shuffle --rounds 1
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sacrebleu.metrics import TER as SacreTER
from text_lines import read

from rapidbleu.metrics import TER

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_ter.json"
CASES = ("wmt1", "wmt2", "para", "shuffle")
TARGET = 100.0


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def joined(lines: list[str], k: int) -> list[str]:
    return [" ".join(lines[i : i + k]) for i in range(0, len(lines), k)]


def shuffled(n: int, words: int, vocab: int, seed: int = 1) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(n):
        ws = [f"w{rng.randrange(vocab)}" for _ in range(words)]
        refs.append(" ".join(ws))
        rng.shuffle(ws)
        hyps.append(" ".join(ws))
    return hyps, refs


def inputs(case: str, data: Path, args: argparse.Namespace) -> tuple[list[str], list[list[str]]]:
    d = data / "wmt22.en-de"
    hyp, ref_a, ref_b = (read(d / n) for n in ("hyp.Online-B.de", "ref.A.de", "ref.B.de"))
    if case == "wmt1":
        return hyp, [ref_a]
    if case == "wmt2":
        return hyp, [ref_a, ref_b]
    if case == "para":
        n = args.join * args.paragraphs
        return joined(hyp[:n], args.join), [joined(ref_a[:n], args.join)]
    hyps, refs = shuffled(args.shuffle_segments, 50, 30)
    return hyps, [refs]


def timed(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def run_case(case: str, data: Path, args: argparse.Namespace) -> dict[str, Any]:
    hyps, refs = inputs(case, data, args)
    words = sum(len(h.split()) for h in hyps) / len(hyps)
    log(f"{case}: {len(hyps)} segments, {len(refs)} reference(s), {words:.0f} words a segment")
    sacre_t, all_t, one_t = [], [], []
    sacre_score = ours_all = ours_one = None
    for r in range(args.rounds):
        t, sacre_score = timed(lambda: SacreTER().corpus_score(hyps, refs))
        sacre_t.append(t)
        log(f"  round {r + 1}: sacreBLEU {t:.2f} s")
        for _ in range(args.rapid_rounds):
            t, ours_all = timed(lambda: TER().corpus_score(hyps, refs))
            all_t.append(t)
            t, ours_one = timed(lambda: TER(num_threads=1).corpus_score(hyps, refs))
            one_t.append(t)
    same = all(
        (s.score, s.num_edits, s.ref_length)
        == (sacre_score.score, sacre_score.num_edits, sacre_score.ref_length)
        for s in (ours_all, ours_one)
    )
    sacre, rapid, rapid1 = (statistics.median(x) for x in (sacre_t, all_t, one_t))
    return {
        "case": case,
        "segments": len(hyps),
        "references": len(refs),
        "words_per_segment": round(words, 1),
        "sacrebleu_s": sacre,
        "rapidbleu_s": rapid,
        "rapidbleu_1thread_s": rapid1,
        "ratio": sacre / rapid,
        "ratio_1thread": sacre / rapid1,
        "score": sacre_score.score,
        "same_score": same,
        "sacrebleu_rounds": sacre_t,
        "rapidbleu_rounds": all_t,
        "rapidbleu_1thread_rounds": one_t,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", default=",".join(CASES), help="cases, comma-separated")
    p.add_argument(
        "--data", type=Path, default=Path(os.environ.get("RAPIDBLEU_DATA", DEFAULT_DATA))
    )
    p.add_argument("--rounds", type=int, default=1, help="sacreBLEU runs per case")
    p.add_argument("--rapid-rounds", type=int, default=5, help="rapidbleu runs per round")
    p.add_argument("--join", type=int, default=8, help="lines per paragraph (para)")
    p.add_argument("--paragraphs", type=int, default=100, help="paragraphs (para)")
    p.add_argument("--shuffle-segments", type=int, default=20, help="segments (shuffle)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args()
    if not (args.data / "wmt22.en-de").is_dir():
        args.data = REPO / "tests" / "data"  # the subset in the repository has the same files
    results = [run_case(c, args.data, args) for c in args.only.split(",")]
    print(
        f"{'case':<9}{'segs':>6}{'refs':>5}{'words':>7}{'sacreBLEU':>11}{'rapidbleu':>11}"
        f"{'ratio':>8}{'1 thread':>10}{'ratio':>8}  same"
    )
    for r in results:
        print(
            f"{r['case']:<9}{r['segments']:>6}{r['references']:>5}{r['words_per_segment']:>7.0f}"
            f"{r['sacrebleu_s']:>10.2f}s{r['rapidbleu_s'] * 1e3:>9.1f}ms{r['ratio']:>7.0f}x"
            f"{r['rapidbleu_1thread_s'] * 1e3:>8.1f}ms{r['ratio_1thread']:>7.0f}x"
            f"  {r['same_score']}"
        )
    print(f"target: >= {TARGET:.0f}x on each case")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
    }
    args.out.write_text(json.dumps({"meta": meta, "results": results}, indent=1) + "\n")
    log(f"wrote {args.out}")
    return 0 if all(r["same_score"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
