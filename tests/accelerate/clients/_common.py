"""What the client programs in this folder share: the real data, their arguments, their output.

Each program imports a client's own code unchanged, runs its metric functions on real WMT22
en-de lines and writes one JSON object to ``--out``::

    {"results": {NAME: VALUE, ...}, "seconds": {NAME: SECONDS, ...}}

``results`` are the values the client computed; tests/accelerate/test_clients.py compares them
with ``==`` between a plain run (``python PROGRAM``) and a run under
``python -m rapidbleu.accelerate PROGRAM``. JSON keeps floats exact (``repr`` round-trips).
``seconds`` time only the client's metric calls (``time.perf_counter``), never the imports:
benchmarks/bench_clients.py reads them.

This module imports neither sacrebleu, NLTK nor evaluate, so whatever a program imports from
them is what the client itself imports.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[3]
#: The full real data beside the repository, used when present (as in tests/conftest.py).
SHARED_DATA = REPO.parent / "shared" / "data"
#: The compact subset shipped in the repository.
SUBSET_DATA = REPO / "tests" / "data"
#: The WMT22 en-de system whose output plays the model's generations (in both data folders).
SYSTEM = "OpenNMT"


def default_data() -> Path:
    """``$RAPIDBLEU_DATA``, else ``../shared/data`` when it is there, else ``tests/data``."""
    if os.environ.get("RAPIDBLEU_DATA"):
        return Path(os.environ["RAPIDBLEU_DATA"])
    if (SHARED_DATA / "golden.jsonl").is_file():
        return SHARED_DATA
    return SUBSET_DATA


def read_lines(path: Path) -> list[str]:
    """One segment per line, UTF-8, only the line feed removed (as tests/conftest.py reads)."""
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


def wmt22_en_de(data: Path, n: int) -> tuple[list[str], list[str], list[str]]:
    """The first ``n`` segments of WMT22 en-de: a system's output and references A and B."""
    d = data / "wmt22.en-de"
    hyps = read_lines(d / f"hyp.{SYSTEM}.de")[:n]
    return hyps, read_lines(d / "ref.A.de")[:n], read_lines(d / "ref.B.de")[:n]


def parser(doc: str | None, n: int) -> argparse.ArgumentParser:
    """The arguments every program takes: ``--data``, ``--n`` (segments) and ``--out``."""
    p = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    p.add_argument("--data", type=Path, default=default_data(), help="the real data folder")
    p.add_argument("--n", type=int, default=n, help="segments of WMT22 en-de to score")
    p.add_argument("--out", type=Path, required=True, help="where the JSON result goes")
    return p


def plain(value: Any) -> Any:
    """``value`` with NumPy scalars and arrays turned into Python numbers and lists (exactly)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


class Recorder:
    """Runs named metric calls, keeping each result and the seconds the call took."""

    def __init__(self) -> None:
        self.results: dict[str, Any] = {}
        self.seconds: dict[str, float] = {}

    def run(self, name: str, fn: Callable[[], Any]) -> Any:
        t = time.perf_counter()
        value = fn()
        self.seconds[name] = time.perf_counter() - t
        self.results[name] = plain(value)
        return value

    def write(self, path: Path) -> None:
        path.write_text(
            json.dumps({"results": self.results, "seconds": self.seconds}, ensure_ascii=False),
            encoding="utf-8",
        )
