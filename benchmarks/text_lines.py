"""Lines of the test data as a benchmark feeds them: read as a file's lines, and new objects.

Example:
    >>> a = "text"
    >>> fresh(a) == a, fresh(a) is a
    (True, False)
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["fresh", "read"]


def read(path: Path) -> list[str]:
    """The lines of ``path`` (UTF-8, ``\\n`` line ends, which are dropped)."""
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line.rstrip("\n") for line in f]


def fresh(text: str) -> str:
    """A new ``str`` object equal to ``text``, as each line read from a file is.

    A corpus made by repeating a test set must not repeat its objects: ``text + ""`` is
    ``text`` itself, and a few thousand objects repeated are read from the caches they warm.
    """
    return text.encode().decode()
