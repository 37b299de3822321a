"""docs/architecture.md's file map ("The files") against the tree, both ways.

Every file or folder the map names exists, and every module and folder of the package's and
the crates' top levels (and of ``metrics/``, where a metric is a package) is in the map: a
file added, moved or removed without the map fails here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "architecture.md"
# A name in the map: a path of a source file or a folder (ends with "/").
_NAME = re.compile(
    r"(?<![\w./-])[\w.*][\w.*-]*(?:/[\w.*-]+)*(?:/|\.(?:py|pyi|rs|toml|sh|yml|md|pth))(?![\w/])"
)
# The folders whose every entry the map must name.
_LISTED = [
    "python/rapidbleu",
    "python/rapidbleu/metrics",
    "crates/rapidbleu-core/src",
    "crates/rapidbleu-py/src",
]


def _map() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The files") :]
    return section[section.index("```") + 3 : section.index("```", section.index("```") + 3)]


def _names() -> set[str]:
    return {m.group(0) for m in _NAME.finditer(_map())}


def _tracked() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return out.splitlines()


def test_every_name_in_the_map_exists() -> None:
    tracked = _tracked()
    folders = {str(Path(p).parent) + "/" for p in tracked}
    folders |= {"/".join(p.split("/")[: k + 1]) + "/" for p in tracked for k in range(p.count("/"))}
    missing = []
    for name in sorted(_names()):
        pattern = re.escape(name).replace(r"\*", "[^/]*")
        pool = folders if name.endswith("/") else tracked
        if not any(re.search(rf"(^|/){pattern}$", p) for p in pool):
            missing.append(name)
    assert not missing, f"docs/architecture.md names what the tree does not have: {missing}"


@pytest.mark.parametrize("folder", _LISTED)
def test_every_entry_is_in_the_map(folder: str) -> None:
    names = {Path(n.rstrip("/")).name for n in _names()}
    root = REPO / folder
    tracked = {p for p in _tracked() if p.startswith(folder + "/")}
    entries = {p[len(folder) + 1 :].split("/")[0] for p in tracked}
    # Files a folder's name stands for (a package's __init__, a crate's lib.rs and mod.rs).
    skipped = {"__init__.py", "lib.rs", "py.typed", "__main__.py"}
    absent = sorted(
        e for e in entries if e not in skipped and e not in names and (root / e).exists()
    )
    assert not absent, f"{folder}: not in docs/architecture.md's file map: {absent}"
