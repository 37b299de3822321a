"""Helpers for the report's tests: corpora to report on, written to files when needed.

:func:`synthetic` makes systems that differ in known ways from their references (no data
needed, so every test runs on a fresh clone); :func:`real_subset` takes the first lines of real
WMT data from ../shared/data when it is there (the caller falls back to :func:`synthetic`);
:data:`NASTY` is system output that must reach the page as text, never as markup.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import DATA

#: Outputs that would run script or break out of an element if the page did not escape them.
NASTY = [
    "<script>window.__xss = 1; alert('xss')</script>",
    "</textarea><script>window.__xss = 2</script>",
    '<img src=x onerror="window.__xss = 3">',
    "</script><b>bold</b> & ampersand",
    "\u2028 line separator \u2029 and \"quotes\" 'single'",
]

WMT17 = DATA / "wmt17.en-de"
WMT22 = DATA / "wmt22.en-de"
WMT22_EN_ZH = DATA / "wmt22.en-zh"


def synthetic(
    n_systems: int, n_segments: int = 40, n_refs: int = 1, seed: int = 0
) -> tuple[list[tuple[str, list[str]]], list[list[str]], list[str]]:
    """``(systems, reference streams, sources)``: systems copy words with rising error rates."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(60)] + ["the", "a", "cat", "sat", ".", ","]
    base = [" ".join(rng.choice(vocab, int(rng.integers(2, 30)))) for _ in range(n_segments)]
    refs = [base]
    for _ in range(n_refs - 1):
        refs.append([" ".join(w if rng.random() > 0.2 else "x" for w in r.split()) for r in base])
    systems = []
    for s in range(n_systems):
        p = 0.1 + 0.5 * s / max(n_systems, 1)
        systems.append(
            (
                f"sys{s + 1}.txt",
                [
                    " ".join(w if rng.random() > p else str(rng.choice(vocab)) for w in r.split())
                    for r in base
                ],
            )
        )
    sources = [f"source {i}: " + " ".join(reversed(r.split())) for i, r in enumerate(base)]
    return systems, refs, sources


def real_subset(
    folder: Path, n_lines: int, systems: int | None = None
) -> tuple[list[tuple[str, list[str]]], list[list[str]], list[str] | None] | None:
    """The first ``n_lines`` of a real data folder, or ``None`` when the data is absent."""
    if not folder.is_dir():
        return None

    def head(path: Path) -> list[str]:
        with open(path, encoding="utf-8") as f:
            return [next(f).rstrip("\n") for _ in range(n_lines)]

    hyps = sorted(folder.glob("hyp.*"))[:systems]
    refs = sorted(folder.glob("ref.*"))
    src = sorted(folder.glob("src.*"))
    return (
        [(p.name, head(p)) for p in hyps],
        [head(p) for p in refs],
        head(src[0]) if src else None,
    )


def write(
    tmp: Path,
    systems: list[tuple[str, list[str]]],
    refs: list[list[str]],
    sources: list[str] | None = None,
) -> list[str]:
    """Writes the corpus to files; returns the command's arguments (REF... -i SYS... --source)."""
    ref_files = []
    for k, stream in enumerate(refs):
        path = tmp / f"ref{k + 1}.txt"
        path.write_text("".join(line + "\n" for line in stream), encoding="utf-8")
        ref_files.append(str(path))
    sys_files = []
    for name, lines in systems:
        path = tmp / name
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        sys_files.append(str(path))
    argv = [*ref_files, "-i", *sys_files]
    if sources is not None:
        path = tmp / "src.txt"
        path.write_text("".join(line + "\n" for line in sources), encoding="utf-8")
        argv += ["--source", str(path)]
    return argv


def table_cells(page: str) -> list[dict[str, str]]:
    """The attributes of every score cell of the page's scores table (``td.score``)."""
    from html.parser import HTMLParser

    cells: list[dict[str, str]] = []

    class Cells(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = {k: v or "" for k, v in attrs}
            if tag == "td" and "score" in a.get("class", "").split():
                cells.append(a)

    Cells().feed(page)
    return cells
