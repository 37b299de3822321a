"""The serial fraction of the ``rapidbleu`` command, counted by callgrind.

``serial_fraction.py`` counts the in-process API; this counts the command, whose inputs are
read by ``_core.ChunkReader`` on a thread of its own, a chunk ahead of the scorer. The command
``rapidbleu REF -i HYP -b`` runs in-process (``rapidbleu.cli.main.main``) with
``RAPIDBLEU_NUM_THREADS=2`` under ``valgrind --tool=callgrind --separate-threads=yes``, and each
thread's instructions are put in one of three parts:

- the **calling thread**: Python, the command's report, handing each chunk to the scorer;
- the **reader thread** (``rapidbleu-reader``): what of reading is not handed to the pool;
- the **pool**: scoring, and (since issue 40) the reader's splitting and checking of lines.

The caller and the reader are the serial part: the command's speed-up at ``n`` threads is
bounded by the larger of them against the pool's share (the reader overlaps the scorer, so the
bound is on throughput), and Amdahl's bound on the sum is printed too. Start-up (imports,
parsing arguments) is taken out by running the command twice, on ``--lines`` and on
``--base-lines`` lines, and subtracting. The system calls that read the files (the kernel's
copy) are not instructions callgrind sees.

Usage::

    python benchmarks/serial_fraction_cli.py [--lines 100000] [--base-lines 2000] [--tokenize 13a]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cli import make_file
from mecab_cold import DEFAULT_DATA
from serial_fraction import amdahl

REPO = Path(__file__).resolve().parents[1]
PARTS = ("caller", "reader", "pool")

# The command in-process, its output thrown away.
PROGRAM = """
import sys
from rapidbleu.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def thread_part(path: Path, text: str) -> str:
    """Which part a callgrind file of one thread belongs to (see the module documentation)."""
    if path.name.endswith("-01"):
        return "caller"
    if "io::lines::LineReader" in text:
        return "reader"
    if "rayon_core" in text:
        return "pool"
    raise SystemExit(f"{path.name}: a thread that is not the caller, the reader or the pool")


def run(ref: Path, hyp: Path, extra: Sequence[str], tmp: Path, tag: str) -> dict[str, float]:
    """Instructions of each part in one run of the command."""
    prefix = tmp / f"cli.{tag}.out"
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        f"--callgrind-out-file={prefix}",
        sys.executable,
        "-c",
        PROGRAM,
        str(ref),
        "-i",
        str(hyp),
        "-b",
        *extra,
    ]
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "RAPIDBLEU_NUM_THREADS": "2",
    }
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    costs = dict.fromkeys(PARTS, 0.0)
    for path in sorted(prefix.parent.glob(prefix.name + "-*")):
        text = path.read_text()
        totals = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
        if totals is None:
            continue
        costs[thread_part(path, text)] += float(totals.group(1))
    return costs


def main(argv: Sequence[str] | None = None) -> int:
    """Counts, prints and writes ``benchmarks/results/serial_fraction_cli.json``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lines", type=int, default=100_000)
    p.add_argument("--base-lines", type=int, default=2_000)
    p.add_argument("--tokenize", default="13a")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA / "wmt17.en-de")
    p.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "results" / "serial_fraction_cli.json"
    )
    args = p.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("serial_fraction_cli.py needs valgrind (apt install valgrind)")
    src_ref = args.data / "ref.A.de"
    src_hyp = sorted(args.data.glob("hyp.*"))[0]
    extra = ["-tok", args.tokenize]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        files = {}
        for n in (args.lines, args.base_lines):
            files[n] = (tmp / f"ref.{n}", tmp / f"hyp.{n}")
            make_file(src_ref, files[n][0], n)
            make_file(src_hyp, files[n][1], n)
        with ThreadPoolExecutor(2) as ex:
            big, base = ex.map(
                lambda n: run(*files[n], extra, tmp, str(n)), (args.lines, args.base_lines)
            )
    diff = {k: big[k] - base[k] for k in PARTS}
    total = sum(diff.values())
    serial = (diff["caller"] + diff["reader"]) / total
    row = {
        "lines": args.lines,
        "base_lines": args.base_lines,
        "tokenize": args.tokenize,
        "instructions": {k: int(v) for k, v in diff.items()},
        "share": {k: round(v / total, 6) for k, v in diff.items()},
        "serial": round(serial, 6),
        "amdahl_efficiency_16": round(amdahl(serial, 16), 3),
    }
    for k in PARTS:
        print(f"{k:<7} {diff[k]:15,.0f} instructions  {diff[k] / total:7.2%}")
    print(
        f"serial (caller + reader) {serial:.2%}  Amdahl at 16 threads "
        f"{row['amdahl_efficiency_16']:.1%}"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(row, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
