"""Reference nesting on the shapes of the field's bug reports, and the square-corpus check.

Part 1 runs each shape reported in sacreBLEU's tracker (#220, #256, #272, #275, #281) and in
lighteval (#1112) and ragas (#2888) through sacreBLEU 2.6.0 and rapidbleu, on real WMT22
en-de lines (``tests/data`` or ``$RAPIDBLEU_DATA``): sacreBLEU's silent number against
rapidbleu's error. Part 2 measures :func:`rapidbleu.check_references` on square corpora
(``n`` hypotheses with ``n`` references each, the one shape lengths cannot decide): random
segments of WMT22 en-de, the references ref.A, ref.B and then other systems' outputs, the
hypotheses one more system; each corpus is checked as streams (right) and nested per segment
(wrong), and the verdicts are counted, with the time per call.

    python benchmarks/reference_nesting.py [--trials 200] [--sizes 2 3 4 5]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path
from typing import Any

import sacrebleu

import rapidbleu
from rapidbleu.errors import ReferenceNestingError

DATA = Path(os.environ.get("RAPIDBLEU_DATA", Path(__file__).parents[1] / "tests" / "data"))
PAIR = DATA / "wmt22.en-de"
SYSTEMS = ["hyp.PROMT.de", "hyp.Online-B.de", "hyp.OpenNMT.de", "hyp.JDExploreAcademy.de"]


def read(name: str) -> list[str]:
    return (PAIR / name).read_text(encoding="utf-8").rstrip("\n").split("\n")


def outcome(call: Any) -> str:
    try:
        return f"{call().score:.2f}"
    except Exception as e:  # what each tool does is the measurement
        return type(e).__name__


def part1(hyps: list[str], ref_a: list[str], ref_b: list[str]) -> None:
    n = 100
    h, a, b = hyps[:n], ref_a[:n], ref_b[:n]
    cases = {
        "right: streams [ref_a, ref_b]": (h, [a, b]),
        "#220: refs[i] = [a_i, b_i] (100 lists of 2)": (h, [[x, y] for x, y in zip(a, b)]),
        "#256/#275/#281, ragas #2888: [[r] for r in refs]": (h, [[x] for x in a]),
        "#272: a flat list of str": (h, list(a)),
        "lighteval #1112: 1 or 2 refs per sample": (
            h,
            [[x, y] if i % 2 else [x] for i, (x, y) in enumerate(zip(a, b))],
        ),
        "#275 verbatim: 3 hyps, 3 lists of 1": (h[:3], [[x] for x in a[:3]]),
    }
    print("| shape | sacreBLEU 2.6.0 corpus_bleu | rapidbleu corpus_bleu | check_references |")
    print("|---|---|---|---|")
    for name, (hh, refs) in cases.items():
        theirs = outcome(lambda hh=hh, refs=refs: sacrebleu.corpus_bleu(hh, refs))
        ours = outcome(lambda hh=hh, refs=refs: rapidbleu.corpus_bleu(hh, refs))
        try:
            verdict = rapidbleu.check_references(hh, refs)
        except ReferenceNestingError:
            verdict = "ReferenceNestingError"
        print(f"| {name} | {theirs} | {ours} | {verdict} |")


def part2(trials: int, sizes: list[int], hyps: list[str], pool: list[list[str]]) -> None:
    rng = random.Random(25)
    print()
    print("| n (square: n hyps, n refs each) | read as streams: streams / undecided / error |"
          " nested per segment: error / undecided / streams | ms per call |")  # fmt: skip
    print("|---|---|---|---|")
    for n in sizes:
        right = {"streams": 0, "undecided": 0, "error": 0}
        wrong = {"error": 0, "undecided": 0, "streams": 0}
        elapsed, calls = 0.0, 0
        for _ in range(trials):
            idx = rng.sample(range(len(hyps)), n)
            h = [hyps[i] for i in idx]
            streams = [[source[i] for i in idx] for source in pool[:n]]
            nested = [list(seg) for seg in zip(*streams)]
            for refs, tally in ((streams, right), (nested, wrong)):
                t0 = time.perf_counter()
                try:
                    tally[rapidbleu.check_references(h, refs)] += 1
                except ReferenceNestingError:
                    tally["error"] += 1
                elapsed += time.perf_counter() - t0
                calls += 1
        r = " / ".join(str(right[k]) for k in ("streams", "undecided", "error"))
        w = " / ".join(str(wrong[k]) for k in ("error", "undecided", "streams"))
        print(f"| {n} | {r} | {w} | {1000 * elapsed / calls:.2f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5])
    args = p.parse_args()
    hyps = read(SYSTEMS[0])
    ref_a, ref_b = read("ref.A.de"), read("ref.B.de")
    part1(hyps, ref_a, ref_b)
    # References: the two human ones, then other systems' outputs (the hypotheses are PROMT's).
    pool = [ref_a, ref_b, *[read(s) for s in SYSTEMS[1:]]]
    part2(args.trials, [n for n in args.sizes if n <= len(pool)], hyps, pool)


if __name__ == "__main__":
    main()
