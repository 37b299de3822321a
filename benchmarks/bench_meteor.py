"""METEOR through Python against NLTK 3.10.4's ``meteor_score``, on the same real pairs, in one run.

Pairs: every line of the WMT22 zh-en English system outputs and of reference B (``../shared/data``
when present, else tests/data), as in ``bench_meteor_core.py``: 10,000+ pairs with the full
data. Tokens: ``str.split()``, made before timing, for both. Cases: one reference (ref.A) and
four (ref.A, ref.B and two other systems' lines).

NLTK: ``meteor_score(refs, hyp)`` per pair with its defaults (WordNet loaded before timing).
rapidbleu: ``METEOR(num_threads=T).token_scores(hyps, refs)`` on the token lists. The first
call of the case (no word, stem or synonym set of it cached) is timed apart; then
``--rounds`` rounds each time NLTK once and rapidbleu ``--repeats`` times, interleaved so
that both meet the same machine load, and the ratio is the median NLTK time over the median
rapidbleu time. Both wall time and the process's CPU time (``time.process_time``, which a
shared machine's load distorts less) are reported. Every score must equal NLTK's (``==``;
exit status 1 if not).

WordNet's load is timed apart, each in a fresh process: rapidbleu's ``MeteorOptions(wordnet=...)``
(the core parses the files; ``--loads`` processes, median) against NLTK's
``wordnet.ensure_loaded()`` plus the first ``meteor_score`` (which reads the synsets it needs).

    .venv/bin/python benchmarks/bench_meteor.py [--threads 1] [--rounds 3] [--repeats 5] [--loads 3]

Prints the ratios and writes ``benchmarks/results/bench_meteor.json``.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import nltk  # noqa: E402
import wordnet_data  # noqa: E402

CORPUS = wordnet_data.build()
nltk.data.path.insert(0, str(CORPUS.parent.parent))

from nltk.corpus import wordnet  # noqa: E402
from nltk.translate.meteor_score import meteor_score  # noqa: E402

LOAD_RAPIDBLEU = (
    "import time, rapidbleu._core as c\n"
    "t = time.perf_counter()\n"
    "c.MeteorOptions(wordnet={folder!r})\n"
    "print(time.perf_counter() - t)\n"
)
LOAD_NLTK = (
    "import time, nltk\n"
    "nltk.data.path.insert(0, {root!r})\n"
    "from nltk.corpus import wordnet\n"
    "from nltk.translate.meteor_score import meteor_score\n"
    "t = time.perf_counter()\n"
    "wordnet.ensure_loaded()\n"
    "meteor_score([['a', 'cat']], ['the', 'cats'])\n"
    "print(time.perf_counter() - t)\n"
)


def data_dir() -> Path:
    for d in (
        Path(os.environ.get("RAPIDBLEU_DATA", "/nonexistent")) / "wmt22.zh-en",
        ROOT.parent.parent / "shared" / "data" / "wmt22.zh-en",
        Path("/work/shared/data/wmt22.zh-en"),
    ):
        if (d / "ref.A.en").is_file():
            return d
    return ROOT / "tests" / "data" / "wmt22.zh-en"


def lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def pairs() -> tuple[list[str], list[list[str]]]:
    """The hypotheses and four references each (see the module's notes)."""
    d = data_dir()
    ref_a, ref_b = lines(d / "ref.A.en"), lines(d / "ref.B.en")
    outputs = [lines(p) for p in sorted(d.glob("hyp.*.en"))] + [ref_b]
    hyps, refs4 = [], []
    for k, out in enumerate(outputs):
        others = [outputs[(k + 1) % len(outputs)], outputs[(k + 2) % len(outputs)]]
        for i, h in enumerate(out):
            hyps.append(h)
            second = ref_b[i] if out is not ref_b else outputs[0][i]
            refs4.append([ref_a[i], second, others[0][i], others[1][i]])
    return hyps, refs4


def fresh_process(code: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--loads", type=int, default=3)
    args = ap.parse_args()

    from rapidbleu.metrics.meteor import METEOR

    hyps, refs4 = pairs()
    n = len(hyps)
    wordnet.ensure_loaded()
    ok = True
    results: dict[str, object] = {}
    tok_h = [h.split() for h in hyps]
    for n_refs in (1, 4):
        tok_r = [[r.split() for r in rs[:n_refs]] for rs in refs4]
        # A fresh METEOR per case; its core workers keep their caches between calls (the
        # first call of this case still meets words the 1-reference case did not).
        m = METEOR(wordnet=str(CORPUS), num_threads=args.threads)
        t = time.perf_counter()
        got = m.token_scores(tok_h, tok_r).tolist()
        first = time.perf_counter() - t
        nltk_times, times, nltk_cpu, cpu = [], [], [], []
        for _ in range(args.rounds):
            t, c = time.perf_counter(), time.process_time()
            want = [meteor_score(rs, h) for h, rs in zip(tok_h, tok_r)]
            nltk_times.append(time.perf_counter() - t)
            nltk_cpu.append(time.process_time() - c)
            ok = ok and got == want
            for _ in range(args.repeats):
                t, c = time.perf_counter(), time.process_time()
                got = m.token_scores(tok_h, tok_r).tolist()
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                ok = ok and got == want
        nltk_s, median = statistics.median(nltk_times), statistics.median(times)
        nltk_c, median_c = statistics.median(nltk_cpu), statistics.median(cpu)
        results[f"{n_refs}ref"] = {
            "pairs": n,
            "nltk_s": nltk_s,
            "nltk_rounds_s": nltk_times,
            "rapidbleu_first_s": first,
            "rapidbleu_median_s": median,
            "rapidbleu_s": times,
            "ratio_first": nltk_s / first,
            "ratio_median": nltk_s / median,
            "nltk_cpu_s": nltk_c,
            "rapidbleu_cpu_median_s": median_c,
            "ratio_cpu_median": nltk_c / median_c,
            "equal": got == want,
        }
        print(
            f"{n_refs} ref: {n} pairs  NLTK median {nltk_s:.2f} s  rapidbleu first "
            f"{first * 1e3:.1f} ms ({nltk_s / first:.0f}x), median {median * 1e3:.1f} ms "
            f"({nltk_s / median:.0f}x); CPU time: NLTK {nltk_c:.2f} s, rapidbleu "
            f"{median_c * 1e3:.1f} ms ({nltk_c / median_c:.0f}x)  equal: {got == want}"
        )

    rb_loads = fresh_process(LOAD_RAPIDBLEU.format(folder=str(CORPUS)), args.loads)
    nltk_loads = fresh_process(LOAD_NLTK.format(root=str(CORPUS.parent.parent)), 1)
    results["wordnet_load"] = {
        "rapidbleu_s": rb_loads,
        "rapidbleu_median_s": statistics.median(rb_loads),
        "nltk_s": nltk_loads[0],
    }
    print(
        f"WordNet load (fresh process): rapidbleu median {statistics.median(rb_loads):.3f} s "
        f"{[round(x, 3) for x in rb_loads]}, NLTK {nltk_loads[0]:.2f} s"
    )
    results["meta"] = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "threads": args.threads,
        "rounds": args.rounds,
        "repeats": args.repeats,
        "loadavg": os.getloadavg(),
        "data": str(data_dir()),
    }
    out = ROOT / "benchmarks" / "results" / "bench_meteor.json"
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
