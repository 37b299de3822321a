"""Time and peak memory of the command on one huge line (finding 9 of the reliability issue).

Writes a hypothesis and a reference of one line each (random words from a 50,000-word
vocabulary, seeded), for each size, and runs ``rapidbleu REF -i HYP -b`` under
``/usr/bin/time -v``: wall time and maximum resident set size. Linear time and memory means
the ratios between sizes follow the ratios of the sizes. ``--same`` scores the hypothesis
against itself (every n-gram of every order matches: the counter's worst case). ``--metric chrf``
(or ``ter``) runs ``-m chrf``: chrF's bound is stated in README like BLEU's.

    .venv/bin/python benchmarks/bench_long_line.py --sizes 10 100
    .venv/bin/python benchmarks/bench_long_line.py --sizes 10 --metric chrf
    PYTHONPATH=/path/to/other/checkout/python .venv/bin/python benchmarks/bench_long_line.py

Results: benchmarks/results/long_line.json (long_line_same.json with ``--same``,
long_line_chrf.json with ``--metric chrf``; sizes in MB, seconds, MiB).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def _line(path: Path, size: int, seed: int) -> None:
    words = random.Random(0)  # one vocabulary for every file
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocab = ["".join(words.choices(letters, k=words.randint(2, 9))) for _ in range(50_000)]
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        n = 0
        while n < size:
            words = rng.choices(vocab, k=10_000)
            chunk = " ".join(words) + " "
            f.write(chunk)
            n += len(chunk)
        f.write("\n")


def _measure(ref: Path, hyp: Path, metric: str) -> dict[str, float | str]:
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "rapidbleu", str(ref), "-i", str(hyp)]
    proc = subprocess.run([*cmd, "-m", metric, "-b"], capture_output=True, text=True, check=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    assert wall and rss, proc.stderr
    h, m, s = wall.groups()
    seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
    return {"score": proc.stdout.strip(), "wall_s": seconds, "max_rss_mib": int(rss[1]) / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100], help="line sizes in MB")
    ap.add_argument("--same", action="store_true", help="hypothesis = reference")
    ap.add_argument("--metric", default="bleu", help="-m: bleu (default), chrf or ter")
    args = ap.parse_args()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.sizes:
            hyp, ref = Path(tmp) / f"h{mb}", Path(tmp) / f"r{mb}"
            _line(hyp, mb * 1_000_000, 1)
            _line(ref, mb * 1_000_000, 2)
            ref_file = hyp if args.same else ref
            row = {"mb": mb, "same": args.same, "metric": args.metric}
            row.update(_measure(ref_file, hyp, args.metric))
            print(json.dumps(row), flush=True)
            out.append(row)
    for a, b in zip(out, out[1:]):
        print(
            f"{a['mb']} -> {b['mb']} MB ({b['mb'] / a['mb']:.0f}x): time "
            f"{b['wall_s'] / a['wall_s']:.1f}x, memory {b['max_rss_mib'] / a['max_rss_mib']:.1f}x"
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    suffix = ("_same" if args.same else "") + ("" if args.metric == "bleu" else f"_{args.metric}")
    (RESULTS / f"long_line{suffix}.json").write_text(
        json.dumps({"pythonpath": os.environ.get("PYTHONPATH", ""), "runs": out}, indent=1)
    )


if __name__ == "__main__":
    main()
