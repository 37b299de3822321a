"""Writes a benchmark's results as JSON with the date and the machine it ran on.

Example::

    write_results(Path("benchmarks/results/x.json"), {"items": 10, "results": {...}})
"""

from __future__ import annotations

import datetime
import json
import os
import platform
from pathlib import Path
from typing import Any


def write_results(out: Path, fields: dict[str, Any]) -> None:
    """``fields`` after the date and the machine (cores, Python), as JSON in ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        **fields,
    }
    out.write_text(json.dumps(record, indent=2))
