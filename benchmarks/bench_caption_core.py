"""COCO caption metrics: the Rust core (before any Python glue) against pycocoevalcap 1.2.

One run on the same input: ``--images`` images (5,000 by default) of 5 references each, real
WMT sentences from tests/data (about three times as long as COCO captions): wmt17.en-de
(hypothesis uedin-nmt; references ref.A, C-3MA, FBK, online-A, online-B), then wmt22.en-de
(hypothesis JDExploreAcademy; references ref.A, ref.B, Online-B, OpenNMT, PROMT). Cases:

- ``bleu``: ``Bleu(4).compute_score(gts, res, verbose=0)`` against the core's rows, totals,
  corpus and per-image scores;
- ``rouge_l``: ``Rouge().compute_score`` against the core's rows and mean;
- ``cider_d``: ``Cider().compute_score`` against the core's document frequencies and scores;
- ``reward``: CIDEr-D of a 256-image batch against the document frequencies of all the images,
  computed beforehand: pycocoevalcap's ``CiderScorer`` (the batch added, ``document_frequency``
  assigned, ``compute_cider()``, ``ref_len`` the corpus's) against the core's ``Scorer``.

pycocoevalcap runs once per case (it takes tens of seconds); the core runs ``--rounds`` times
(the reward 20 times as many) in `crates/rapidbleu-core/examples/caption_speed.rs`, built here
with the release profile, and its median counts. Every score is compared with ``==`` (exit
status 1 if one differs). Results go to ``benchmarks/results/bench_caption_core.json``.

Usage (the branch's venv, with pycocoevalcap installed)::

    .venv/bin/python benchmarks/bench_caption_core.py              # a few minutes
    .venv/bin/python benchmarks/bench_caption_core.py --images 500 --threads 1
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
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.cider.cider_scorer import CiderScorer
from pycocoevalcap.rouge.rouge import Rouge

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
OUT = REPO / "benchmarks" / "results" / "bench_caption_core.json"
SOURCES = [
    (
        "wmt17.en-de",
        "hyp.uedin-nmt.4722.de",
        [
            "ref.A.de",
            "hyp.C-3MA.4959.de",
            "hyp.FBK.4870.de",
            "hyp.online-A.0.de",
            "hyp.online-B.0.de",
        ],
    ),
    (
        "wmt22.en-de",
        "hyp.JDExploreAcademy.de",
        ["ref.A.de", "ref.B.de", "hyp.Online-B.de", "hyp.OpenNMT.de", "hyp.PROMT.de"],
    ),
]
BATCH = 256


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8").split("\n")[:-1]


def images(count: int) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    gts: dict[int, list[str]] = {}
    res: dict[int, list[str]] = {}
    for folder, hyp, refs in SOURCES:
        hyps = lines(DATA / folder / hyp)
        sets = [lines(DATA / folder / r) for r in refs]
        for i, h in enumerate(hyps):
            if len(gts) == count:
                return gts, res
            # The core's input file splits at tab and newline; no caption here holds either.
            assert "\t" not in h and all("\t" not in s[i] for s in sets)
            res[len(gts)] = [h]
            gts[len(gts)] = [s[i] for s in sets]
    return gts, res


def timed(f: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


class _LenAs(list):  # type: ignore[type-arg]
    """A list whose len() is another number, so compute_cider's `np.log(len(self.crefs))` is
    the log of the corpus's image count while it scores the batch (its code unchanged)."""

    def __init__(self, items: list[Any], n: int) -> None:
        super().__init__(items)
        self._n = n

    def __len__(self) -> int:
        return self._n


def theirs_reward(
    gts: dict[int, list[str]],
    res: dict[int, list[str]],
    clock: Any = time.perf_counter,
) -> tuple[float, list[float]]:
    df_scorer = CiderScorer(n=4, sigma=6.0)
    for k in gts:
        df_scorer += (None, gts[k])
    df_scorer.compute_doc_freq()
    df = defaultdict(float, df_scorer.document_frequency)
    t0 = clock()
    sc = CiderScorer(n=4, sigma=6.0)
    for k in list(gts)[:BATCH]:
        sc += (res[k][0], gts[k])
    sc.document_frequency = df  # what compute_cider adds to it (zeros) changes no score
    sc.crefs = _LenAs(sc.crefs, len(gts))
    scores = sc.compute_cider()
    return clock() - t0, scores


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--images", type=int, default=5000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--threads", type=int, default=0, help="core threads (0: all cores)")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()

    gts, res = images(args.images)
    n = len(gts)
    log(f"{n} images, 5 references each; building the core's example (release)")
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "rapidbleu-core", "--example", "caption_speed"],
        cwd=REPO,
        check=True,
    )
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".tsv", delete=False) as f:
        logs = np.log(np.arange(1, n + 1, dtype=np.float64))
        f.write("log\t" + "\t".join(repr(float(v)) for v in logs) + "\n")
        for k in gts:
            f.write("\t".join(["img", res[k][0], *gts[k]]) + "\n")
        f.write(f"batch\t0\t{BATCH}\n")
        path = f.name
    try:
        log(f"core: {args.rounds} rounds, threads={args.threads}")
        run = subprocess.run(
            [
                str(REPO / "target" / "release" / "examples" / "caption_speed"),
                path,
                str(args.rounds),
                str(args.threads),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        os.unlink(path)
    ours = json.loads(run.stdout)

    log("pycocoevalcap Bleu(4)")
    t_bleu, (bleu, bleu_imgs) = timed(lambda: Bleu(4).compute_score(gts, res, verbose=0))
    log("pycocoevalcap Rouge()")
    t_rouge, (rouge, rouge_imgs) = timed(lambda: Rouge().compute_score(gts, res))
    log("pycocoevalcap Cider()")
    t_cider, (cider, cider_imgs) = timed(lambda: Cider().compute_score(gts, res))
    log("pycocoevalcap CiderScorer reward batch")
    t_reward, reward = theirs_reward(gts, res)

    equal = {
        "bleu": list(bleu) == ours["bleu"]
        and [bleu_imgs[k][i] for i in range(n) for k in range(4)] == ours["bleu_images"],
        "rouge_l": float(rouge) == ours["rouge"] and list(rouge_imgs) == ours["rouge_images"],
        "cider_d": float(cider) == ours["cider"] and list(cider_imgs) == ours["cider_images"],
        "reward": [float(x) for x in reward] == ours["reward"],
    }
    cases = {
        "bleu": (t_bleu, ours["bleu_s"]),
        "rouge_l": (t_rouge, ours["rouge_s"]),
        "cider_d": (t_cider, ours["cider_s"]),
        "reward": (t_reward, ours["reward_s"]),
    }
    print(f"{'case':<10}{'pycocoevalcap s':>17}{'core s':>12}{'ratio':>10}  equal")
    for name, (theirs, core) in cases.items():
        print(f"{name:<10}{theirs:>17.4f}{core:>12.6f}{theirs / core:>9.1f}x  {equal[name]}")
    print(f"(core: document frequencies of {n} images built once in {ours['df_s']:.4f} s)")
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "images": n,
        "references": 5,
        "batch": BATCH,
        "core_threads": ours["threads"],
        "core_rounds": args.rounds,
        "cases": {
            k: {"pycocoevalcap_s": a, "core_s": b, "ratio": a / b, "equal": equal[k]}
            for k, (a, b) in cases.items()
        },
        "core_df_s": ours["df_s"],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    log(f"wrote {args.out}")
    return 0 if all(equal.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
