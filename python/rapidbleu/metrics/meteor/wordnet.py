"""Where METEOR finds WordNet 3.0: where NLTK finds it (``nltk.data.path``), or a folder given.

The core reads WordNet's own files (``index.*``, ``data.*``, ``*.exc``) from a folder:
NLTK's ``corpora/wordnet`` under one of NLTK's data roots, or Debian's ``/usr/share/wordnet``
(package ``wordnet-base``). Nothing is bundled or downloaded; without WordNet,
:class:`~rapidbleu.errors.MissingDependencyError` says how to get it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError

__all__ = ["nltk_roots", "wordnet_folder"]


def nltk_roots() -> list[str]:
    """NLTK's data roots: ``nltk.data.path`` when NLTK is imported, else its default list.

    Example:
        >>> any(r.endswith("nltk_data") for r in nltk_roots())
        True
    """
    data = sys.modules.get("nltk.data")
    if data is not None:
        return [os.fspath(p) for p in getattr(data, "path", []) if isinstance(p, (str, Path))]
    # nltk/data.py's defaults (NLTK not imported: importing it takes a second).
    roots = [p for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    roots.append(os.path.join(os.path.expanduser("~"), "nltk_data"))
    for base in (sys.prefix, os.path.join(sys.prefix, "share"), os.path.join(sys.prefix, "lib")):
        roots.append(os.path.join(base, "nltk_data"))
    roots += [
        "/usr/share/nltk_data",
        "/usr/local/share/nltk_data",
        "/usr/lib/nltk_data",
        "/usr/local/lib/nltk_data",
    ]
    return roots


def wordnet_folder(wordnet: Any) -> str | None:
    """The WordNet folder of a ``wordnet=`` option.

    Args:
        wordnet: ``True`` (find it where NLTK does), a folder (``str`` or path: NLTK's
            ``corpora/wordnet`` or a data root holding it), or ``False``/``None`` (no synonym
            stage).

    Returns:
        The folder, or ``None`` for no synonym stage.

    Raises:
        rapidbleu.errors.MissingDependencyError: ``True`` and no WordNet found.
        rapidbleu.errors.InvalidOptionError: another kind of value.

    Example:
        >>> wordnet_folder(False) is None
        True
    """
    if wordnet is None or wordnet is False:
        return None
    if wordnet is True:
        return _core.MeteorOptions.find_wordnet(nltk_roots())
    if isinstance(wordnet, (str, os.PathLike)):
        folder = os.fspath(wordnet)
        if isinstance(folder, str):
            # A data root (holding corpora/wordnet) or the folder itself.
            return _core.MeteorOptions.find_wordnet([folder], defaults=False)
    raise InvalidOptionError(
        f"wordnet must be True (find it as NLTK does), a folder, or False, not {wordnet!r}"
    )
