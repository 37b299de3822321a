"""Batched sentence BLEU on token IDs: rapidbleu against nltk, fast-bleu and sacreBLEU.

Two workloads, seeded and identical for every tool:

- ``long``: a batch of 256 hypotheses x 1024 token IDs (one 2-D int64 array), one reference each;
- ``short``: 10,000 hypotheses of 20-60 token IDs (lists of int), one reference each.

Each hypothesis is a noisy copy of its reference (IDs from a Zipf-like vocabulary of 32,000),
so every n-gram order has matches. Timing runs in rounds: in each of ``--repeats`` rounds the
peer runs once and rapidbleu ``--rapid-repeats`` times (median); a row's ratio is the median
of the per-round ratios, printed with their range (this 2-core machine drifts by tens of
percent within a minute, and interleaving keeps the drift out of the ratio). Rows:

- ``nltk method1``: a loop of ``nltk.translate.bleu_score.sentence_bleu`` with
  ``SmoothingFunction().method1`` against ONE ``rapidbleu.dialects.nltk.sentence_bleu_batch``
  call; every score is compared with ``==``.
- ``fast-bleu method1``: fast-bleu (C++; it scores against a fixed reference set, so one
  ``fast_bleu.BLEU`` per sentence, milliseconds each) on the first ``--fast-bleu-subset``
  sentences against rapidbleu's batched call on the same subset; fast-bleu's own float
  operations differ from NLTK's, so the largest absolute difference is printed, not ``==``.
  Skipped when fast-bleu is not installed (``pip install fast-bleu``).
- ``sacreBLEU``: ``BLEU(tokenize="none", effective_order=True).sentence_score`` on the IDs
  written as space-separated text against one rapidbleu
  ``BLEU(effective_order=True).sentence_scores`` call on the IDs; compared with ``==``.

Usage::

    .venv/bin/python benchmarks/bench_ids.py            # both workloads
    .venv/bin/python benchmarks/bench_ids.py --quick    # smaller, seconds
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.metrics import BLEU

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "bench_ids.json"
TARGET = 100.0

try:
    import fast_bleu
except ImportError:  # an optional peer
    fast_bleu = None


def workload(name: str, quick: bool, seed: int = 0) -> tuple[Any, Any]:
    """(hypotheses, references) as int64 IDs; references are one 2-D array / list per stream."""
    rng = np.random.default_rng(seed)
    vocab = 32000
    zipf = lambda size: np.minimum(rng.zipf(1.3, size=size), vocab - 1)  # noqa: E731
    if name == "long":
        n, width = (32 if quick else 256), 1024
        refs = zipf((n, width)).astype(np.int64)
        hyps = refs.copy()
        noise = rng.random((n, width)) < 0.25
        hyps[noise] = zipf(int(noise.sum()))
        return hyps, refs
    n = 1000 if quick else 10000
    lens = rng.integers(20, 61, size=n)
    refs_l = [zipf(int(k)).astype(np.int64) for k in lens]
    hyps_l = []
    for r in refs_l:
        h = r.copy()
        noise = rng.random(len(h)) < 0.25
        h[noise] = zipf(int(noise.sum()))
        cut = int(rng.integers(-3, 4))
        hyps_l.append(h[: len(h) + cut] if cut < 0 else np.concatenate([h, zipf(cut)]))
    return [h.tolist() for h in hyps_l], [r.tolist() for r in refs_l]


def timed(f: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def rounds(
    peer: Callable[[], Any], rapid: Callable[[], Any], n_rounds: int, rapid_repeats: int
) -> tuple[dict[str, float], Any, Any]:
    """Times `peer` once and `rapid` (median of `rapid_repeats`) in each of `n_rounds` rounds.

    This machine's speed drifts by tens of percent within a minute; interleaving the two
    tools and taking the median of the per-round ratios keeps the drift out of the ratio.
    """
    rapid()  # warm-up (thread pool, workers)
    peers, rapids, ratios = [], [], []
    got = want = None
    for _ in range(n_rounds):
        t_peer, want = timed(peer, 1)
        t_rapid, got = timed(rapid, rapid_repeats)
        peers.append(t_peer)
        rapids.append(t_rapid)
        ratios.append(t_peer / t_rapid)
    times = {
        "peer_s": statistics.median(peers),
        "rapidbleu_s": statistics.median(rapids),
        "ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }
    return times, got, want


def as_lists(x: Any) -> list[list[int]]:
    return x.tolist() if isinstance(x, np.ndarray) else list(x)


def run(
    name: str, quick: bool, repeats: int, rapid_repeats: int, fast_subset: int
) -> list[dict[str, Any]]:
    hyps, refs = workload(name, quick)
    hyp_l, ref_l = as_lists(hyps), as_lists(refs)
    per_seg = [[r] for r in ref_l]
    per_seg_arr = [[r] for r in refs] if isinstance(refs, np.ndarray) else per_seg
    n = len(hyp_l)
    rows: list[dict[str, Any]] = []
    sf_n = nltk_bleu.SmoothingFunction().method1
    sf_r = rb_nltk.SmoothingFunction().method1

    # rapidbleu, NLTK dialect: one batched call.
    def rapid_nltk() -> Any:
        return rb_nltk.sentence_bleu_batch(per_seg_arr, hyps, smoothing_function=sf_r)

    def nltk_loop() -> list[float]:
        return [
            nltk_bleu.sentence_bleu(r, h, smoothing_function=sf_n) for r, h in zip(per_seg, hyp_l)
        ]

    times, got, want = rounds(nltk_loop, rapid_nltk, repeats, rapid_repeats)
    equal = got.tolist() == [float(x) for x in want]
    rows.append(row(name, n, "nltk method1", times, "==" if equal else "DIFFERENT"))

    if fast_bleu is not None:
        # fast-bleu builds one scorer per reference set (milliseconds each), so it runs on the
        # first `fast_subset` sentences, and rapidbleu is timed again on that same subset.
        k = min(n, fast_subset)
        sub_refs, sub_hyps = per_seg_arr[:k], hyps[:k]

        def fast_loop() -> list[float]:
            w = {4: (0.25, 0.25, 0.25, 0.25)}
            return [
                fast_bleu.BLEU(r, w, smoothing_func=1).get_score([h])[4][0]
                for r, h in zip(per_seg[:k], hyp_l[:k])
            ]

        def rapid_sub() -> Any:
            return rb_nltk.sentence_bleu_batch(sub_refs, sub_hyps, smoothing_function=sf_r)

        times, got_sub, fast = rounds(fast_loop, rapid_sub, repeats, rapid_repeats)
        diff = float(np.max(np.abs(np.array(fast) - got_sub)))
        rows.append(row(name, k, "fast-bleu method1", times, f"max |diff| {diff:.1e}"))

    # sacreBLEU dialect: IDs as space-separated text for sacreBLEU (tokenize="none").
    hyp_txt = [" ".join(map(str, h)) for h in hyp_l]
    ref_txt = [" ".join(map(str, r)) for r in ref_l]
    rb = BLEU(effective_order=True)
    sb = SacreBLEU(tokenize="none", effective_order=True)

    def rapid_sacre() -> Any:
        return rb.sentence_scores(hyps, [refs])

    def sacre_loop() -> list[float]:
        return [sb.sentence_score(h, [r]).score for h, r in zip(hyp_txt, ref_txt)]

    times, got_s, want_s = rounds(sacre_loop, rapid_sacre, repeats, rapid_repeats)
    equal = got_s.tolist() == want_s
    rows.append(row(name, n, "sacreBLEU", times, "==" if equal else "DIFFERENT"))
    return rows


def row(workload: str, n: int, peer: str, times: dict[str, float], check: str) -> dict[str, Any]:
    return {"workload": workload, "sentences": n, "peer": peer, **times, "check": check}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", default="long,short", help="comma-separated: long,short")
    p.add_argument("--quick", action="store_true", help="small workloads (smoke run)")
    p.add_argument(
        "--repeats", type=int, default=5, help="rounds: one peer run, then rapidbleu's repeats"
    )
    p.add_argument(
        "--rapid-repeats", type=int, default=7, help="repetitions of rapidbleu in each round"
    )
    p.add_argument(
        "--fast-bleu-subset", type=int, default=500, help="sentences timed for fast-bleu"
    )
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")
    rows: list[dict[str, Any]] = []
    for name in args.only.split(","):
        rows += run(name, args.quick, args.repeats, args.rapid_repeats, args.fast_bleu_subset)
    print(
        f"{'workload':<8} {'n':>6} {'peer':<18} {'peer':>10} {'rapidbleu':>10} {'ratio':>8} "
        f"{'(range)':>15}  check"
    )
    for r in rows:
        flag = " (target >= 100x nltk)" if r["peer"].startswith("nltk") else ""
        spread = f"({r['ratio_min']:.0f}-{r['ratio_max']:.0f}x)"
        print(
            f"{r['workload']:<8} {r['sentences']:>6} {r['peer']:<18} {r['peer_s'] * 1e3:>8.1f}ms "
            f"{r['rapidbleu_s'] * 1e3:>8.2f}ms {r['ratio']:>7.1f}x {spread:>15}  {r['check']}{flag}"
        )
    if fast_bleu is None:
        print("fast-bleu is not installed: its rows are skipped (pip install fast-bleu)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "python": sys.version.split()[0],
        "machine": platform.processor() or platform.machine(),
        "quick": args.quick,
        "target_vs_nltk": TARGET,
    }
    args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2))
    print(f"wrote {args.out}")
    return 0 if all(r["check"] != "DIFFERENT" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
