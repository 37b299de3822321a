"""ja-mecab / ko-mecab corpus BLEU against MeCab's own parse, cold, each in a fresh process.

The bound for a MeCab-tokenised BLEU is MeCab itself: parsing every distinct line of the test set
once. This measures, in a fresh interpreter per measurement (so model loads, first-call buffers
and the line caches are all paid, as by a user's one-off script):

- ``rapidbleu``: ``BLEU(tokenize=f"{lang}-mecab", num_threads=t)`` built, then ``corpus_score`` of
  each of the test set's first ``--systems`` systems;
- ``mecab``: MeCab's model opened (rapidbleu's engine, the same C library and argument vector
  as the binding's ``Tagger``) and every distinct line of those systems and the references
  parsed once on ``t`` threads.

Both clocks start after the files are read and include the imports, of bytecode compiled
beforehand as ``pip install`` compiles it (with ``PYTHONDONTWRITEBYTECODE`` set and no
``__pycache__``, every fresh process would compile rapidbleu's sources again, and the side
that imports more of them would pay more). The ratio ``rapidbleu /
mecab`` is what issue "at the limit" bounds (1.2 at 1 and 2 threads, 1.3 at 16). Rounds are
interleaved (rapidbleu, mecab, rapidbleu, ...) and the medians compared.

Usage::

    python benchmarks/mecab_cold.py [--data DIR] [--threads 1,2] [--rounds 5] [--systems 5]

``bench_bleu.py --only mecab`` prints the same rows.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(os.environ.get("RAPIDBLEU_DATA", REPO.parent / "shared" / "data"))

#: The program each fresh process runs: ``MODE THREADS FOLDER SYSTEMS``; prints milliseconds.
CHILD = r"""
import glob, sys, time
mode, threads, folder, n_systems = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]
refs = [lines(p) for p in sorted(glob.glob(folder + "/ref.*"))]
systems = [lines(p) for p in sorted(glob.glob(folder + "/hyp.*"))][: n_systems or None]
lang = folder.rsplit("-", 1)[1]
start = time.perf_counter()
if mode == "rapidbleu":
    from rapidbleu.metrics import BLEU
    metric = BLEU(tokenize=f"{lang}-mecab", num_threads=threads)
    out = [metric.corpus_score(hyps, refs).score for hyps in systems]
else:
    from rapidbleu.tokenizers.mecab import TokenizerJaMecab, TokenizerKoMecab
    cls = TokenizerJaMecab if lang == "ja" else TokenizerKoMecab
    model = cls(backend="engine")._many.__self__
    every = [x for r in refs for x in r] + [x for h in systems for x in h]
    out = list(model.tokenize(list(dict.fromkeys(every)), threads))
print(1e3 * (time.perf_counter() - start))
"""


def mecab_folders(data: Path) -> list[Path]:
    """The test sets of ``data`` whose target language is Japanese or Korean."""
    if not data.is_dir():
        return []
    return sorted(
        p for p in data.iterdir() if p.is_dir() and p.name.rsplit("-", 1)[-1] in ("ja", "ko")
    )


def cold_ms(mode: str, threads: int, folder: Path, systems: int | None) -> float:
    """Milliseconds of one measurement in a fresh interpreter (``systems``: None for all)."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(threads), str(folder), str(systems or 0)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def cold_ratios(
    data: Path, threads: Sequence[int], rounds: int, systems: int | None
) -> list[dict[str, object]]:
    """One row per test set and thread count: both medians and their ratio.

    Example:
        >>> cold_ratios(Path("/nonexistent"), [1], rounds=1, systems=5)
        []
    """
    rows: list[dict[str, object]] = []
    folders = mecab_folders(data)
    if folders:
        import rapidbleu

        compileall.compile_dir(Path(rapidbleu.__file__).parent, quiet=1)
    for folder in folders:
        for t in threads:
            times: dict[str, list[float]] = {"rapidbleu": [], "mecab": []}
            for _ in range(rounds):
                for mode in times:
                    times[mode].append(cold_ms(mode, t, folder, systems))
            rapid, mecab = (statistics.median(times[m]) for m in ("rapidbleu", "mecab"))
            rows.append(
                {
                    "test_set": folder.name,
                    "threads": t,
                    "rapidbleu_ms": round(rapid, 1),
                    "mecab_ms": round(mecab, 1),
                    "ratio": round(rapid / mecab, 3),
                    "target": 1.3 if t >= 16 else 1.2,
                    "rounds": rounds,
                }
            )
    return rows


def print_rows(rows: Sequence[dict[str, object]]) -> None:
    """The rows as a table on standard output."""
    print(
        f"{'test set':<18} {'threads':>7} {'rapidbleu':>10} {'MeCab':>9} {'ratio':>6} {'target':>6}"
    )
    for r in rows:
        print(
            f"{r['test_set']!s:<18} {r['threads']!s:>7} {r['rapidbleu_ms']!s:>8}ms "
            f"{r['mecab_ms']!s:>7}ms {r['ratio']!s:>6} {r['target']!s:>6}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Measures, prints and writes ``benchmarks/results/mecab_cold.json``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (1,2)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--systems", type=int, default=5)
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "mecab_cold.json")
    args = p.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    rows = cold_ratios(args.data, threads, args.rounds, args.systems)
    if not rows:
        print(f"no ja / ko test set under {args.data}", file=sys.stderr)
        return 1
    print_rows(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"cpus": os.cpu_count(), "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
