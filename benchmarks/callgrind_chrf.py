"""Instruction counts of corpus chrF and chrF++: sacreBLEU 2.6.0 against rapidbleu (callgrind).

Wall-clock ratios on a shared, loaded machine move by tens of percent between runs; the number
of instructions executed does not. This script runs one small Python program under
``valgrind --tool=callgrind`` for each of: imports only (the baseline), sacreBLEU's
``CHRF(word_order=w).corpus_score`` and rapidbleu's (one thread: all its work is counted on
the calling thread, and a second thread would only split it), on one real test set, and reports
the instructions of the scoring alone (total minus the baseline) and their ratio, for a first
call (what a one-off script pays: buffers grown, pages faulted in) and for a second call on the
same metric (the steady state of a loop or a server). Instructions
are not time (Python's interpreter loop and Rust's tight loops retire instructions at different
rates), so the ratio is a repeatable figure to compare runs and changes by, not a speed-up.

Usage::

    .venv/bin/python benchmarks/callgrind_chrf.py [HYP REF]   # default: wmt22.en-de PROMT, ref A
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("RAPIDBLEU_DATA", REPO.parent / "shared" / "data"))
if not (DATA / "wmt22.en-de").is_dir():
    DATA = REPO / "tests" / "data"
OUT = REPO / "benchmarks" / "results" / "callgrind_chrf.json"

PROGRAM = """
import sys
mode, word_order, hyp, ref = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
import sacrebleu, rapidbleu
from rapidbleu.metrics import CHRF
def lines(p):
    with open(p, encoding="utf-8", newline="\\n") as f:
        return [l[:-1] if l.endswith("\\n") else l for l in f]
hyps, refs = lines(hyp), [lines(ref)]
if mode == "sacrebleu":
    print(sacrebleu.metrics.CHRF(word_order=word_order).corpus_score(hyps, refs).score)
elif mode.startswith("rapidbleu"):
    metric = CHRF(word_order=word_order, num_threads=1)
    for _ in range(2 if mode == "rapidbleu-twice" else 1):
        score = metric.corpus_score(hyps, refs).score
    print(score)
"""


def instructions(mode: str, word_order: int, hyp: Path, ref: Path) -> tuple[int, str]:
    """Instructions of the whole program in ``mode``, and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        prog = Path(tmp) / "prog.py"
        prog.write_text(PROGRAM)
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                str(prog),
                mode,
                str(word_order),
                str(hyp),
                str(ref),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        totals = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.M)
        assert totals, "no totals in callgrind's output"
        return int(totals.group(1)), run.stdout.strip()


def main() -> int:
    """Counts, prints and writes the instruction ratios."""
    if len(sys.argv) == 3:
        hyp, ref = Path(sys.argv[1]), Path(sys.argv[2])
    else:
        hyp, ref = DATA / "wmt22.en-de" / "hyp.PROMT.de", DATA / "wmt22.en-de" / "ref.A.de"
    rows = []
    for w, name in ((0, "chrF"), (2, "chrF++")):
        base, _ = instructions("baseline", w, hyp, ref)
        sacre, s_out = instructions("sacrebleu", w, hyp, ref)
        rapid, r_out = instructions("rapidbleu", w, hyp, ref)
        twice, _ = instructions("rapidbleu-twice", w, hyp, ref)
        row = {
            "metric": name,
            "segments": sum(1 for _ in open(hyp, encoding="utf-8")),
            "baseline": base,
            "sacrebleu": sacre - base,
            "rapidbleu": rapid - base,
            "ratio": (sacre - base) / (rapid - base),
            # A second call on the same metric: no first-call costs (buffers, page faults).
            "rapidbleu_second_call": twice - rapid,
            "ratio_second_call": (sacre - base) / (twice - rapid),
            "equal": s_out == r_out,
        }
        rows.append(row)
        print(
            f"corpus {name} of {hyp.name} ({row['segments']} segments): sacreBLEU "
            f"{row['sacrebleu']:,} instructions, rapidbleu (1 thread) {row['rapidbleu']:,}: "
            f"{row['ratio']:.0f}x (a second call: {row['rapidbleu_second_call']:,}, "
            f"{row['ratio_second_call']:.0f}x); scores {'==' if row['equal'] else 'DIFFER'} "
            f"({s_out})",
            flush=True,
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"hyp": str(hyp), "ref": str(ref), "rows": rows}, indent=1) + "\n")
    return 0 if all(r["equal"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
