"""Times significance tests, self-BLEU and sentence-BLEU matrices against their peers, in one run.

Measurements (select with ``--only``, comma-separated):

- ``paired-bs``: sacreBLEU's ``PairedTest`` (paired bootstrap, 1,000 resamples) on the WMT17
  en-de systems in ``../shared/data`` (16 systems, 3,004 segments), as ``sacrebleu -pbs`` runs
  it (references cached in the metric, statistics extraction included) against
  ``rapidbleu.analysis.significance.PairedTest``; every p-value, mean and CI must be equal.
- ``paired-ar``: the same with approximate randomisation (10,000 trials).
- ``self-bleu``: self-BLEU of 1,000 and 10,000 samples (lines of the WMT17 systems):
  ``fast_bleu.SelfBLEU`` (complete runs) against ``self_bleu_scores(..., "fast-bleu-fixed")``;
  NLTK's ``sentence_bleu`` and the sacreBLEU recipe (``corpus_bleu`` of each sample against the
  others) are far too slow for complete runs, so a subset of samples is timed and the time scaled to
  all samples (marked ``~`` in the table); rapidbleu is always timed on all samples.
- ``matrix``: a 256 x 256 sentence-BLEU matrix for each of 100 sources (hypotheses: the 16
  systems' outputs of a segment and 15 perturbed copies of each, scored against each other, as
  in MBR decoding): ``pairwise_bleu_batch`` against ``sacrebleu.sentence_bleu`` calls on a
  subset of pairs, scaled to all pairs (``~``). ``mbr_select`` and ``aggregate_mbr_scores`` are
  timed too (no peer).

Every measurement checks that the values are equal (``==``) and exits with status 1 if not.
Benchmarks are not tests: nothing here asserts a time.

Usage::

    .venv/bin/python benchmarks/bench_significance.py            # full run: a few minutes
    .venv/bin/python benchmarks/bench_significance.py --quick    # smoke run: seconds
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import os
import platform
import random
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_significance.json"
MEASUREMENTS = ("paired-bs", "paired-ar", "self-bleu", "matrix")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median wall time of ``repeats`` runs, and the last result."""
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


class Table:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(
        self,
        name: str,
        n: str,
        peer: str,
        t_peer: float | None,
        t_rapid: float,
        match: bool | None,
        scaled: bool = False,
        note: str = "",
    ) -> None:
        ratio = t_peer / t_rapid if t_peer else None
        self.rows.append(
            {
                "measurement": name,
                "n": n,
                "peer": peer,
                "peer_s": t_peer,
                "rapidbleu_s": t_rapid,
                "ratio": ratio,
                "equal": match,
                "peer_scaled_from_subset": scaled,
                "note": note,
            }
        )
        peer_txt = "-" if t_peer is None else ("~" if scaled else "") + fmt(t_peer)
        ratio_txt = "-" if ratio is None else f"{ratio:,.0f}x"
        eq = {None: "-", True: "yes", False: "NO"}[match]
        log(
            f"{name:<34} {n:>16} {peer:<16} {peer_txt:>10} {fmt(t_rapid):>10} {ratio_txt:>9} "
            f"{eq:>5}  {note}"
        )


def fmt(s: float) -> str:
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def read(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line.rstrip() for line in f]


def wmt17(data: Path, n_systems: int) -> tuple[list[str], list[tuple[str, list[str]]]]:
    d = data / "wmt17.en-de"
    files = sorted(p.name for p in d.glob("hyp.*"))[:n_systems]
    return read(d / "ref.A.de"), [(f, read(d / f)) for f in files]


def paired(table: Table, cfg: argparse.Namespace, test_type: str) -> None:
    from sacrebleu import significance as sb
    from sacrebleu.metrics import BLEU as SacreBLEU

    from rapidbleu.analysis import significance as rb
    from rapidbleu.metrics import BLEU

    ref, systems = wmt17(cfg.data, cfg.systems)
    n = cfg.bs_n if test_type == "bs" else cfg.ar_n

    def sacre() -> Any:
        return sb.PairedTest(systems, {"BLEU": SacreBLEU(references=[ref])}, None, test_type, n)()

    def rapid() -> Any:
        return rb.PairedTest(systems, {"BLEU": BLEU(references=[ref])}, None, test_type, n)()

    log(f"  {test_type}: sacreBLEU ({len(systems)} systems, n = {n}) ...")
    t_s, (_, res_s) = timed(sacre, cfg.repeats)
    t_r, (_, res_r) = timed(rapid, cfg.rapid_repeats)
    match = [r.__dict__ for r in res_s["BLEU"]] == [r.__dict__ for r in res_r["BLEU"]]
    name = "paired bootstrap" if test_type == "bs" else "paired approximate randomisation"
    table.add(
        f"{name} (WMT17 en-de)",
        f"{len(systems)} sys x {n}",
        "sacreBLEU 2.6.0",
        t_s,
        t_r,
        match,
        note="statistics extraction included",
    )


def samples_pool(cfg: argparse.Namespace) -> list[str]:
    _, systems = wmt17(cfg.data, 16)
    pool = sorted({line for _, lines in systems for line in lines if line})
    random.Random(7).shuffle(pool)
    return pool


def self_bleu(table: Table, cfg: argparse.Namespace) -> None:
    import sacrebleu
    from fast_bleu import SelfBLEU
    from nltk.translate.bleu_score import sentence_bleu

    from rapidbleu.analysis.selfbleu import self_bleu_scores

    pool = samples_pool(cfg)
    for n, subset in ((1000, cfg.subset_1k), (10000, cfg.subset_10k)):
        if cfg.quick:
            n = n // 10
        samples = pool[:n]
        toks = [s.split() for s in samples]
        log(f"  self-BLEU of {n}: fast-bleu ...")
        t_f, fb = timed(lambda toks=toks: SelfBLEU(toks).get_score()[4], cfg.repeats)
        t_r, ours = timed(
            lambda toks=toks: self_bleu_scores(toks, "fast-bleu-fixed").tolist(), cfg.rapid_repeats
        )
        table.add(
            "self-BLEU, fast-bleu convention",
            f"{n:,} samples",
            "fast-bleu 0.0.90",
            t_f,
            t_r,
            ours == fb,
        )
        idx = list(range(subset))
        log(f"  self-BLEU of {n}: nltk on {subset} samples ...")
        t0 = time.perf_counter()
        want = [sentence_bleu(toks[:i] + toks[i + 1 :], toks[i]) for i in idx]
        t_n = (time.perf_counter() - t0) * n / subset
        t_r, ours = timed(
            lambda toks=toks: self_bleu_scores(toks, "nltk").tolist(), cfg.rapid_repeats
        )
        table.add(
            "self-BLEU, NLTK convention",
            f"{n:,} samples",
            "nltk 3.10.4",
            t_n,
            t_r,
            [ours[i] for i in idx] == want,
            scaled=True,
            note=f"nltk timed on {subset} samples",
        )
        log(f"  self-BLEU of {n}: sacreBLEU recipe on {subset} samples ...")
        t0 = time.perf_counter()
        want = [
            sacrebleu.corpus_bleu([samples[i]], [[o] for o in samples[:i] + samples[i + 1 :]]).score
            for i in idx
        ]
        t_s = (time.perf_counter() - t0) * n / subset
        t_r, ours = timed(
            lambda samples=samples: self_bleu_scores(samples).tolist(), cfg.rapid_repeats
        )
        table.add(
            "self-BLEU, sacreBLEU recipe",
            f"{n:,} samples",
            "sacreBLEU 2.6.0",
            t_s,
            t_r,
            [ours[i] for i in idx] == want,
            scaled=True,
            note=f"sacreBLEU timed on {subset} samples",
        )


def perturb(line: str, rng: random.Random) -> str:
    words = line.split()
    for _ in range(rng.randint(1, 3)):
        if len(words) < 2:
            break
        i = rng.randrange(len(words))
        op = rng.random()
        if op < 0.4:
            del words[i]
        elif op < 0.8:
            j = rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        else:
            words.insert(i, words[rng.randrange(len(words))])
    return " ".join(words)


def matrix(table: Table, cfg: argparse.Namespace) -> None:
    import sacrebleu

    from rapidbleu.analysis.pairwise import aggregate_mbr_scores, mbr_select, pairwise_bleu_batch

    _, systems = wmt17(cfg.data, 16)
    rng = random.Random(11)
    n_src, size = (10, 64) if cfg.quick else (cfg.sources, 256)
    segs = rng.sample(range(len(systems[0][1])), n_src)
    groups = []
    for s in segs:
        outs = [lines[s] for _, lines in systems]
        hyps = [
            perturb(outs[k % len(outs)], rng) if k >= len(outs) else outs[k] for k in range(size)
        ]
        groups.append(hyps)
    pairs = n_src * size * size
    log(f"  matrix: rapidbleu {n_src} x {size} x {size} ...")
    t_r, mats = timed(lambda: pairwise_bleu_batch(groups), cfg.rapid_repeats)
    sub = [
        (rng.randrange(n_src), rng.randrange(size), rng.randrange(size))
        for _ in range(cfg.pairs_subset)
    ]
    log(f"  matrix: sacreBLEU sentence_bleu on {len(sub)} pairs ...")
    t0 = time.perf_counter()
    want = [sacrebleu.sentence_bleu(groups[g][i], [groups[g][j]]).score for g, i, j in sub]
    t_s = (time.perf_counter() - t0) * pairs / len(sub)
    match = [float(mats[g][i, j]) for g, i, j in sub] == want
    table.add(
        "sentence-BLEU matrices",
        f"{n_src} x {size}x{size}",
        "sacreBLEU 2.6.0",
        t_s,
        t_r,
        match,
        scaled=True,
        note=f"sacreBLEU timed on {len(sub)} pairs",
    )
    t_m, _ = timed(lambda: mbr_select(groups), cfg.rapid_repeats)
    table.add("MBR selection (matrices + means)", f"{n_src} x {size}x{size}", "-", None, t_m, None)
    t_a, _ = timed(lambda: aggregate_mbr_scores(groups), cfg.rapid_repeats)
    table.add("linear-time MBR (aggregated refs)", f"{n_src} x {size}", "-", None, t_a, None)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", default=",".join(MEASUREMENTS))
    p.add_argument(
        "--data", type=Path, default=Path(os.environ.get("RAPIDBLEU_DATA") or DEFAULT_DATA)
    )
    p.add_argument("--systems", type=int, default=16, help="WMT17 systems in the paired tests")
    p.add_argument("--bs-n", type=int, default=1000)
    p.add_argument("--ar-n", type=int, default=10000)
    p.add_argument("--subset-1k", type=int, default=20, help="samples nltk/sacreBLEU score at 1k")
    p.add_argument("--subset-10k", type=int, default=3, help="... and at 10k")
    p.add_argument("--sources", type=int, default=100)
    p.add_argument("--pairs-subset", type=int, default=3000)
    p.add_argument("--repeats", type=int, default=1, help="repetitions of the peers")
    p.add_argument("--rapid-repeats", type=int, default=3)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    cfg = p.parse_args(argv)
    if cfg.quick:
        cfg.systems, cfg.bs_n, cfg.ar_n = 3, 100, 500
        cfg.subset_1k, cfg.subset_10k, cfg.pairs_subset = 5, 2, 300
    return cfg


def main(argv: list[str] | None = None) -> int:
    cfg = parse_args(argv)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    warnings.simplefilter("ignore")
    if not (cfg.data / "wmt17.en-de").is_dir():
        log(f"WMT17 data not found under {cfg.data}; set RAPIDBLEU_DATA")
        return 2
    table = Table()
    log(
        f"{'measurement':<34} {'n':>16} {'peer':<16} {'peer':>10} {'rapidbleu':>10} "
        f"{'ratio':>9} {'equal':>5}"
    )
    only = cfg.only.split(",")
    if "paired-bs" in only:
        paired(table, cfg, "bs")
    if "paired-ar" in only:
        paired(table, cfg, "ar")
    if "self-bleu" in only:
        self_bleu(table, cfg)
    if "matrix" in only:
        matrix(table, cfg)
    import numpy as np

    import rapidbleu

    cfg.out.parent.mkdir(parents=True, exist_ok=True)
    info = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "rapidbleu": rapidbleu.__version__,
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "args": {k: str(v) for k, v in vars(cfg).items()},
    }
    cfg.out.write_text(json.dumps({"info": info, "rows": table.rows}, indent=1))
    log(f"results: {cfg.out}")
    return 1 if any(r["equal"] is False for r in table.rows) else 0


if __name__ == "__main__":
    sys.exit(main())
