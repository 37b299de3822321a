"""METEOR's Rust core against NLTK 3.10.4's ``meteor_score`` on the same real pairs, in one run.

Pairs: every line of the WMT22 zh-en English system outputs (``../shared/data`` when present,
else tests/data) as hypotheses, and as the "system" of reference B against reference A, so
10,000+ pairs with the full data. Tokens: ``str.split()`` (done before timing, for both).
Cases: one reference (ref.A) and four (ref.A, ref.B and two other systems' lines).

NLTK is timed calling ``meteor_score`` per pair with its defaults (``wordnet`` loaded before
timing; its load is timed apart); the core through the ``meteor bench`` example
(``crates/rapidbleu-core/examples/meteor.rs``: WordNet's load timed apart, then the rows and
scores of all pairs ``--repeats`` times), on ``--threads`` threads (1 by default, the fair
comparison with NLTK's one core). Two core figures: ``first`` (the first call of the process:
no word, stem or synonym set cached) and ``median`` (the median call, whose workers kept their
caches from the calls before, as repeated calls in one process do). Then the same through
Python (``--python``, when rapidbleu is built): ``METEOR(num_threads=...).token_scores`` on
the token lists, first call and median. Every score must equal NLTK's (``==``, f64 bits;
exit status 1 if not). Prints the ratios and writes
``benchmarks/results/bench_meteor_core.json``.

    .venv/bin/python scripts/wordnet_data.py
    .venv/bin/python benchmarks/bench_meteor_core.py [--threads 1] [--repeats 5] [--lto]

``--lto`` builds the example with the release profile's fat LTO (slower to build; the
figures users get); otherwise without LTO.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import nltk  # noqa: E402
import wordnet_data  # noqa: E402

CORPUS = wordnet_data.build()
nltk.data.path.insert(0, str(CORPUS.parent.parent))

from nltk.corpus import wordnet  # noqa: E402
from nltk.translate.meteor_score import meteor_score  # noqa: E402


def data_dir() -> Path:
    shared = ROOT.parent.parent / "shared" / "data" / "wmt22.zh-en"
    for d in (
        Path(os.environ.get("RAPIDBLEU_DATA", "/nonexistent")) / "wmt22.zh-en",
        shared,
        Path("/work/shared/data/wmt22.zh-en"),
    ):
        if (d / "ref.A.en").is_file():
            return d
    return ROOT / "tests" / "data" / "wmt22.zh-en"


def lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--lto", action="store_true")
    ap.add_argument("--python", action="store_true", help="also time rapidbleu's METEOR")
    args = ap.parse_args()

    d = data_dir()
    systems = sorted(p for p in d.glob("hyp.*.en"))
    ref_a, ref_b = lines(d / "ref.A.en"), lines(d / "ref.B.en")
    outputs = [lines(p) for p in systems] + [ref_b]
    hyps, refs4 = [], []
    for k, out in enumerate(outputs):
        others = [outputs[(k + 1) % len(outputs)], outputs[(k + 2) % len(outputs)]]
        for i, h in enumerate(out):
            hyps.append(h)
            refs4.append(
                [
                    ref_a[i],
                    ref_b[i] if out is not ref_b else outputs[0][i],
                    others[0][i],
                    others[1][i],
                ]
            )
    n = len(hyps)

    t = time.perf_counter()
    wordnet.ensure_loaded()
    nltk_load = time.perf_counter() - t

    env = dict(os.environ)
    if not args.lto:
        env.update(CARGO_PROFILE_RELEASE_LTO="off", CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16")
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "rapidbleu-core", "--example", "meteor"],
        cwd=ROOT,
        check=True,
        env=env,
    )
    exe = ROOT / "target" / "release" / "examples" / "meteor"

    results = {}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        hyp_path = Path(tmp) / "hyp"
        hyp_path.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
        ref_paths = []
        for k in range(4):
            p = Path(tmp) / f"ref{k}"
            p.write_text("".join(r[k] + "\n" for r in refs4), encoding="utf-8")
            ref_paths.append(p)
        for n_refs in (1, 4):
            tok_h = [h.split() for h in hyps]
            tok_r = [[r.split() for r in rs[:n_refs]] for rs in refs4]
            t = time.perf_counter()
            want = [meteor_score(rs, h) for h, rs in zip(tok_h, tok_r)]
            nltk_s = time.perf_counter() - t
            out = subprocess.run(
                [
                    str(exe),
                    "bench",
                    str(CORPUS),
                    str(args.threads),
                    str(args.repeats),
                    str(hyp_path),
                    *map(str, ref_paths[:n_refs]),
                ],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()
            head = dict(kv.split("=") for kv in out[0].split())
            got = [struct.unpack(">d", bytes.fromhex(x))[0] for x in out[1:]]
            equal = len(got) == n and all(
                struct.pack(">d", a) == struct.pack(">d", b) for a, b in zip(got, want)
            )
            ok &= equal
            first_s, core_s = float(head["first_s"]), float(head["median_s"])
            results[f"{n_refs}_ref"] = {
                "pairs": n,
                "nltk_s": nltk_s,
                "core_first_s": first_s,
                "core_median_s": core_s,
                "ratio_first": nltk_s / first_s,
                "ratio_median": nltk_s / core_s,
                "core_wordnet_load_s": float(head["load_s"]),
                "equal": equal,
            }
            if args.python:
                from rapidbleu.metrics.meteor import METEOR

                m = METEOR(wordnet=str(CORPUS), num_threads=args.threads)
                times = []
                for _ in range(max(args.repeats, 1)):
                    t = time.perf_counter()
                    py_scores = m.token_scores(tok_h, tok_r).tolist()
                    times.append(time.perf_counter() - t)
                py_equal = py_scores == want
                ok &= py_equal
                py_first, py_median = times[0], sorted(times)[len(times) // 2]
                results[f"{n_refs}_ref"].update(
                    {
                        "python_first_s": py_first,
                        "python_median_s": py_median,
                        "python_ratio_median": nltk_s / py_median,
                        "python_equal": py_equal,
                    }
                )
                print(
                    f"  rapidbleu METEOR.token_scores: first {py_first:.4f} s "
                    f"({nltk_s / py_first:.0f}x), median {py_median:.4f} s "
                    f"({nltk_s / py_median:.0f}x); equal: {py_equal}"
                )
            print(
                f"{n_refs} reference(s), {n} pairs: "
                f"NLTK {nltk_s:.3f} s ({1e6 * nltk_s / n:.1f} us/pair); "
                f"core on {args.threads} thread(s): "
                f"first call {first_s:.4f} s ({nltk_s / first_s:.0f}x), "
                f"median {core_s:.4f} s ({1e6 * core_s / n:.2f} us/pair, {nltk_s / core_s:.0f}x); "
                f"scores equal: {equal}; core WordNet load {float(head['load_s']):.3f} s"
            )
    print(f"NLTK WordNet load (wordnet.ensure_loaded()): {nltk_load:.3f} s")
    report = {
        "benchmark": "bench_meteor_core",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "threads": args.threads,
        "lto": args.lto,
        "load_average": os.getloadavg(),
        "data": str(d),
        "nltk": nltk.__version__,
        "nltk_wordnet_load_s": nltk_load,
        "cases": results,
    }
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "bench_meteor_core.json").write_text(json.dumps(report, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
