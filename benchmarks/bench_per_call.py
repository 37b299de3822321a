"""Per-call latency: one ``sentence_score`` or ``RougeScorer.score`` call per item, as programs do.

An unchanged program scores item by item: ``BLEU().sentence_score(h, [r])``,
``sacrebleu.sentence_bleu`` / ``sentence_chrf`` / ``sentence_ter``,
``RougeScorer(...).score(r, h)``. Each such call is timed here over the first ``--n`` WMT22 en-de
segments (``$RAPIDBLEU_DATA``, else ``../shared/data`` when present, else ``tests/data``):

- **oracle**: the real package (sacreBLEU 2.6.0, rouge-score 0.1.2) in a plain child process;
- **mode**: the same code in a child under ``python -m rapidbleu.accelerate``;
- **rapidbleu**: rapidbleu's own classes called directly (``rapidbleu.metrics`` and
  ``rapidbleu.metrics.rouge.rouge_scorer.RougeScorer``), in the plain child;
- **rouge-score-rs**: rouge-score-rs 0.2.1's ``rouge_score_rs.rouge_scorer.RougeScorer``, the
  fastest exact ROUGE peer, in the plain child (when it is installed).

lm-evaluation-harness' ``chrfpp`` aggregation (``lm_eval.api.metrics.chrfpp``, which calls
``sacrebleu.corpus_chrf(preds, refs, word_order=2)``) is timed on every segment the same way
(oracle child and mode child); the issue's target is >= 40x.

Each figure is the best of ``--repeat`` passes over the items (microseconds per call); the
results of every pass are compared with ``==`` (values and types) between the children. Nothing
asserts a time; the exit status is 1 when a result differs.

Usage::

    .venv/bin/python benchmarks/bench_per_call.py [--n 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import datetime
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
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_per_call.json"
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``fn`` (seconds), and its result."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def calls(hyps: list[str], refs: list[str]) -> dict[str, Callable[[], Any]]:
    """The per-item loops a program writes, on whatever ``sacrebleu`` / ``rouge_score`` is."""
    import sacrebleu
    from rouge_score import rouge_scorer

    bleu = sacrebleu.BLEU(effective_order=True)
    chrf = sacrebleu.CHRF()
    chrfpp = sacrebleu.CHRF(word_order=2)
    ter = sacrebleu.TER()
    rouge = rouge_scorer.RougeScorer(ROUGE_TYPES, use_stemmer=True)
    pairs = list(zip(hyps, refs))
    return {
        "BLEU.sentence_score": lambda: [bleu.sentence_score(h, [r]).score for h, r in pairs],
        "sentence_bleu": lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs],
        "CHRF.sentence_score": lambda: [chrf.sentence_score(h, [r]).score for h, r in pairs],
        "CHRF(word_order=2).sentence_score": lambda: [
            chrfpp.sentence_score(h, [r]).score for h, r in pairs
        ],
        "sentence_chrf": lambda: [sacrebleu.sentence_chrf(h, [r]).score for h, r in pairs],
        "TER.sentence_score": lambda: [ter.sentence_score(h, [r]).score for h, r in pairs],
        "RougeScorer.score": lambda: [
            {k: tuple(v) for k, v in rouge.score(r, h).items()} for h, r in pairs
        ],
    }


def child(n: int, repeat: int, out: Path, peers: bool) -> None:
    """Times :func:`calls` (and, with ``peers``, rapidbleu direct and rouge-score-rs)."""
    sys.path.insert(0, str(CLIENTS))
    from _common import default_data, wmt22_en_de

    hyps, refs, _ = wmt22_en_de(default_data(), n)
    seconds: dict[str, float] = {}
    results: dict[str, Any] = {}
    for name, fn in calls(hyps, refs).items():
        seconds[name], results[name] = best(fn, repeat)
    from lm_eval.api import metrics as lm

    all_hyps, all_refs, _ = wmt22_en_de(default_data(), 10**9)
    items = list(zip(all_refs, all_hyps))
    seconds["lm_eval chrfpp"], results["lm_eval chrfpp"] = best(lambda: lm.chrfpp(items), repeat)
    if peers:
        import rapidbleu.metrics as rb
        from rapidbleu.metrics.rouge.rouge_scorer import RougeScorer

        pairs = list(zip(hyps, refs))
        bleu, chrf, ter = rb.BLEU(effective_order=True), rb.CHRF(), rb.TER()
        rouge = RougeScorer(ROUGE_TYPES, use_stemmer=True)
        direct = {
            "BLEU.sentence_score": lambda: [bleu.sentence_score(h, [r]).score for h, r in pairs],
            "CHRF.sentence_score": lambda: [chrf.sentence_score(h, [r]).score for h, r in pairs],
            "TER.sentence_score": lambda: [ter.sentence_score(h, [r]).score for h, r in pairs],
            "RougeScorer.score": lambda: [
                {k: tuple(v) for k, v in rouge.score(r, h).items()} for h, r in pairs
            ],
        }
        for name, fn in direct.items():
            seconds[f"rapidbleu {name}"], results[f"rapidbleu {name}"] = best(fn, repeat)
        try:
            from rouge_score_rs import rouge_scorer as rs
        except ImportError:
            pass
        else:
            rsr = rs.RougeScorer(ROUGE_TYPES, use_stemmer=True)
            seconds["rouge-score-rs RougeScorer.score"], results["rouge-score-rs"] = best(
                lambda: [{k: tuple(v) for k, v in rsr.score(r, h).items()} for h, r in pairs],
                repeat,
            )
    out.write_text(json.dumps({"results": results, "seconds": seconds}), encoding="utf-8")


def run(args: list[str], mode: bool, out: Path) -> dict[str, Any]:
    """One child run: plain (with the peers) or in accelerator mode."""
    prefix = ["-m", "rapidbleu.accelerate"] if mode else []
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    cmd = [sys.executable, *prefix, __file__, "--child", str(out), *args]
    if not mode:
        cmd.append("--peers")
    subprocess.run(cmd, check=True, env=env)
    got: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return got


def _fmt(v: float | None) -> str:
    return "" if v is None else f"{v:.1f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--n", type=int, default=2000, help="items (WMT22 en-de segments)")
    p.add_argument("--repeat", type=int, default=5, help="passes; the best is kept")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--peers", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = p.parse_args(argv)
    if a.child is not None:
        child(a.n, a.repeat, a.child, a.peers)
        return 0
    args = [f"--n={a.n}", f"--repeat={a.repeat}"]
    with tempfile.TemporaryDirectory() as tmp:
        plain = run(args, False, Path(tmp) / "plain.json")
        fast = run(args, True, Path(tmp) / "mode.json")
    rows, ok = [], True
    rs = plain["seconds"].get("rouge-score-rs RougeScorer.score")
    print(
        f"{'call':<36}{'oracle us':>11}{'mode us':>9}{'x':>7}{'direct us':>11}{'x':>7}"
        f"{'rs-rs us':>10}  =="
    )
    for name, t_oracle in plain["seconds"].items():
        if name.startswith(("rapidbleu ", "rouge-score-rs")):
            continue
        per = a.n if name != "lm_eval chrfpp" else 1
        t_mode = fast["seconds"][name]
        t_direct = plain["seconds"].get(f"rapidbleu {name}")
        equal = plain["results"][name] == fast["results"][name]
        if t_direct is not None:
            equal = equal and plain["results"][f"rapidbleu {name}"] == plain["results"][name]
        peer = rs if name == "RougeScorer.score" else None
        if peer is not None:
            equal = equal and plain["results"]["rouge-score-rs"] == plain["results"][name]
        ok = ok and equal
        row = {
            "call": name,
            "unit": "us per call" if per > 1 else "ms per aggregation",
            "oracle": t_oracle / per * (1e6 if per > 1 else 1e3),
            "mode": t_mode / per * (1e6 if per > 1 else 1e3),
            "direct": None if t_direct is None else t_direct / per * 1e6,
            "rouge_score_rs": None if peer is None else peer / per * 1e6,
            "equal": equal,
        }
        rows.append(row)

        direct_x = "" if row["direct"] is None else f"{row['oracle'] / row['direct']:.1f}x"
        print(
            f"{name:<36}{_fmt(row['oracle']):>11}{_fmt(row['mode']):>9}"
            f"{row['oracle'] / row['mode']:>6.1f}x{_fmt(row['direct']):>11}{direct_x:>7}"
            f"{_fmt(row['rouge_score_rs']):>10}  {equal}"
        )
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(
        json.dumps(
            {
                "benchmark": "bench_per_call",
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "n": a.n,
                "repeat": a.repeat,
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
