"""Per-call latency: one ``sentence_score`` or ``RougeScorer.score`` call per item, as programs do.

An unchanged program scores item by item: ``BLEU().sentence_score(h, [r])``,
``sacrebleu.sentence_bleu`` / ``sentence_chrf`` / ``sentence_ter``,
``RougeScorer(...).score(r, h)``. Each such loop runs over the first ``--n`` WMT22 en-de
segments (``$RAPIDBLEU_DATA``, else ``../shared/data`` when present, else ``tests/data``) in
four forms:

- **oracle**: the real packages (sacreBLEU 2.6.0, rouge-score 0.1.2);
- **drop-in**: the same code on rapidbleu's drop-in namespaces (``import rapidbleu.sacrebleu as
  sacrebleu``, ``from rapidbleu.metrics.rouge import rouge_scorer``);
- **rouge-score-rs**: rouge-score-rs 0.2.1's ``rouge_score_rs.rouge_scorer.RougeScorer``, the
  fastest exact ROUGE peer (ROUGE rows only; when it is installed);
- **mode**: the oracle's code in a second process under ``python -m rapidbleu.accelerate``.

lm-evaluation-harness' ``chrfpp`` aggregation (``lm_eval.api.metrics.chrfpp``:
``sacrebleu.corpus_chrf(preds, refs, word_order=2)``) is timed on every segment, plainly and in
the mode (the issue's target: >= 40x).

The two processes stay up and run in lockstep: in each of ``--rounds`` rounds each process makes
one pass of every loop (repeated until it has taken 50 ms; the order of the forms turns each
round), so a load that comes and goes falls on every form alike; a figure is the median of its
rounds (microseconds per call). Every
result (``repr``: values, types, named-tuple classes) is compared between the forms; nothing
asserts a time, and the exit status is 1 when a result differs.

Usage::

    .venv/bin/python benchmarks/bench_per_call.py [--n 200] [--rounds 9]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CLIENTS = REPO / "tests" / "accelerate" / "clients"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_per_call.json"
#: The ROUGE scorers timed: (label, rouge types, use_stemmer).
ROUGES = [
    ("rouge1", ["rouge1"], False),
    ("rouge1+2+L", ["rouge1", "rouge2", "rougeL"], False),
    ("rouge1+2+L, stemmer", ["rouge1", "rouge2", "rougeL"], True),
    ("rouge1+2+L+Lsum, stemmer", ["rouge1", "rouge2", "rougeL", "rougeLsum"], True),
]
Loop = Callable[[], list[Any]]
#: Seconds a round spends on each loop at least (a fast loop runs several times).
MIN_PASS = 0.05


def loops(sacrebleu: Any, rouge_scorer: Any, pairs: list[tuple[str, str]]) -> dict[str, Loop]:
    """The per-item loops a program writes, on whatever ``sacrebleu`` / ``rouge_scorer`` is."""
    bleu = sacrebleu.BLEU(effective_order=True)
    chrf = sacrebleu.CHRF()
    chrfpp = sacrebleu.CHRF(word_order=2)
    ter = sacrebleu.TER()
    out: dict[str, Loop] = {
        "BLEU(effective_order=True).sentence_score": lambda: [
            bleu.sentence_score(h, [r]) for h, r in pairs
        ],
        "sentence_bleu": lambda: [sacrebleu.sentence_bleu(h, [r]) for h, r in pairs],
        "CHRF().sentence_score": lambda: [chrf.sentence_score(h, [r]) for h, r in pairs],
        "CHRF(word_order=2).sentence_score": lambda: [
            chrfpp.sentence_score(h, [r]) for h, r in pairs
        ],
        "sentence_chrf": lambda: [sacrebleu.sentence_chrf(h, [r]) for h, r in pairs],
        "TER().sentence_score": lambda: [ter.sentence_score(h, [r]) for h, r in pairs],
        "sentence_ter": lambda: [sacrebleu.sentence_ter(h, [r]) for h, r in pairs],
    }
    for label, types, stem in ROUGES:
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
        out[f"RougeScorer({label}).score"] = _rouge_loop(scorer, pairs)
    return out


def _rouge_loop(scorer: Any, pairs: list[tuple[str, str]]) -> Loop:
    return lambda: [scorer.score(r, h) for h, r in pairs]


def forms(mode: bool) -> dict[str, tuple[dict[str, Loop], Callable[[], Any] | None]]:
    """Each form's loops and its lm-eval ``chrfpp`` aggregation, on the real data."""
    sys.path.insert(0, str(CLIENTS))
    from _common import default_data, wmt22_en_de  # type: ignore[import-not-found]

    n = int(os.environ["BENCH_PER_CALL_N"])
    hyps, refs, _ = wmt22_en_de(default_data(), n)
    pairs = list(zip(hyps, refs))
    all_hyps, all_refs, _ = wmt22_en_de(default_data(), 10**9)
    items = list(zip(all_refs, all_hyps))
    import sacrebleu
    from lm_eval.api import metrics as lm  # type: ignore[import-untyped]
    from rouge_score import rouge_scorer  # type: ignore[import-untyped]

    def chrfpp() -> Any:
        return lm.chrfpp(items)

    if mode:
        return {"mode": (loops(sacrebleu, rouge_scorer, pairs), chrfpp)}
    import rapidbleu.sacrebleu as rb_sacrebleu
    from rapidbleu.metrics.rouge import rouge_scorer as rb_rouge_scorer

    out = {
        "oracle": (loops(sacrebleu, rouge_scorer, pairs), chrfpp),
        "drop-in": (loops(rb_sacrebleu, rb_rouge_scorer, pairs), None),
    }
    try:
        from rouge_score_rs import rouge_scorer as rs  # type: ignore[import-not-found]
    except ImportError:
        return out
    rs_loops = {k: v for k, v in loops(sacrebleu, rs, pairs).items() if k.startswith("Rouge")}
    out["rouge-score-rs"] = (rs_loops, None)
    return out


def child(mode: bool, results_path: Path) -> None:
    """Runs one pass of every loop per line read on stdin; prints that round's seconds."""
    table = forms(mode)
    for calls, _ in table.values():  # warm-up: lazy imports, worker pools, stem caches
        for fn in calls.values():
            fn()
    results: dict[str, dict[str, str]] = {}
    turn = 0
    for line in sys.stdin:
        if line.strip() != "go":
            break
        seconds: dict[str, dict[str, float]] = {}
        names = list(table)
        names = names[turn % len(names) :] + names[: turn % len(names)]
        turn += 1
        for form in names:
            calls, agg = table[form]
            got = seconds.setdefault(form, {})
            for name, fn in calls.items():
                # A fast loop runs again until the pass has taken MIN_PASS seconds, so that
                # a microsecond call is timed over many calls, not over a timer's noise.
                reps, spent = 0, 0.0
                while spent < MIN_PASS:
                    t = time.perf_counter()
                    out = fn()
                    spent += time.perf_counter() - t
                    reps += 1
                got[name] = spent / reps
                results.setdefault(form, {})[name] = repr(out)
            if agg is not None:
                t = time.perf_counter()
                out = agg()
                got["lm_eval chrfpp"] = time.perf_counter() - t
                results.setdefault(form, {})["lm_eval chrfpp"] = repr(out)
        print(json.dumps(seconds), flush=True)
    results_path.write_text(json.dumps(results), encoding="utf-8")


def median_rows(
    rounds: list[dict[str, dict[str, float]]], results: dict[str, dict[str, str]], n: int
) -> tuple[list[dict[str, Any]], bool]:
    """One row per call: each form's median (us per call; ms per aggregation) and ``==``."""
    rows, ok = [], True
    for name in rounds[0]["oracle"]:
        per = 1 if name == "lm_eval chrfpp" else n
        scale = 1e3 if per == 1 else 1e6 / per
        row: dict[str, Any] = {
            "call": name,
            "unit": "ms per aggregation" if per == 1 else "us per call",
        }
        for form in ("oracle", "drop-in", "mode", "rouge-score-rs"):
            times = [r[form][name] for r in rounds if name in r.get(form, {})]
            row[form] = statistics.median(times) * scale if times else None
        same = [results[f][name] == results["oracle"][name] for f in results if name in results[f]]
        row["equal"] = all(same)
        ok = ok and row["equal"]
        rows.append(row)
    return rows, ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--n", type=int, default=200, help="items (WMT22 en-de segments)")
    p.add_argument("--rounds", type=int, default=9, help="rounds; each figure is a median")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--mode", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = p.parse_args(argv)
    if a.child is not None:
        child(a.mode, a.child)
        return 0
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    env["BENCH_PER_CALL_N"] = str(a.n)
    tmp = a.out.parent / ".bench_per_call"
    tmp.mkdir(parents=True, exist_ok=True)
    procs = {}
    for mode in (False, True):
        prefix = ["-m", "rapidbleu.accelerate"] if mode else []
        cmd = [sys.executable, *prefix, __file__, "--child", str(tmp / f"{mode}.json")]
        procs[mode] = subprocess.Popen(
            [*cmd, *(["--mode"] if mode else [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
    rounds: list[dict[str, dict[str, float]]] = []
    for k in range(a.rounds):
        merged: dict[str, dict[str, float]] = {}
        for mode in (k % 2 == 1, k % 2 == 0):  # which process goes first turns too
            proc = procs[mode]
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
            merged.update(json.loads(proc.stdout.readline()))
        rounds.append(merged)
        print(f"round {k + 1}/{a.rounds}", file=sys.stderr)
    results: dict[str, dict[str, str]] = {}
    for mode, proc in procs.items():
        proc.communicate("quit\n")
        results.update(json.loads((tmp / f"{mode}.json").read_text(encoding="utf-8")))
        (tmp / f"{mode}.json").unlink()
    tmp.rmdir()
    rows, ok = median_rows(rounds, results, a.n)

    def fmt(v: float | None) -> str:
        return "" if v is None else f"{v:.1f}"

    print(f"{'call':<48}{'oracle':>9}{'drop-in':>9}{'x':>7}{'mode':>9}{'x':>7}{'rs-rs':>8}  ==")
    for r in rows:
        dx = "" if r["drop-in"] is None else f"{r['oracle'] / r['drop-in']:.0f}x"
        print(
            f"{r['call']:<48}{fmt(r['oracle']):>9}{fmt(r['drop-in']):>9}{dx:>7}"
            f"{fmt(r['mode']):>9}{r['oracle'] / r['mode']:>6.0f}x{fmt(r['rouge-score-rs']):>8}"
            f"  {r['equal']}"
        )
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(
        json.dumps(
            {
                "benchmark": "bench_per_call",
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "load_average": os.getloadavg(),
                "n": a.n,
                "rounds": a.rounds,
                "statistic": "median of rounds",
                "rows": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {a.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
