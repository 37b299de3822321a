r"""sacreBLEU's ``sacrebleu.utils`` names that user code imports: ``smart_open``, ``SACREBLEU_DIR``.

So that ``import rapidbleu as sacrebleu`` keeps ``sacrebleu.utils.smart_open(...)`` working.
The test-set functions (``get_reference_files``, ...) live in :mod:`rapidbleu.datasets` and are
re-exported here under sacreBLEU's names.

Example:
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "ref.txt")
    >>> with smart_open(path, "wt") as f:
    ...     _ = f.write("a\rb\n")
    >>> with smart_open(path) as f:
    ...     f.read()
    'a\rb\n'
"""

from __future__ import annotations

import gzip
import os
from typing import IO, Any

from rapidbleu.datasets import (
    download_test_set,
    get_available_testsets,
    get_available_testsets_for_langpair,
    get_langpairs_for_testset,
    get_reference_files,
    get_source_file,
)

__all__ = [
    "SACREBLEU_DIR",
    "download_test_set",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "smart_open",
]

#: sacreBLEU's cache folder (``$SACREBLEU``, default ``~/.sacrebleu``), read at import as there.
SACREBLEU_DIR = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    r"""Opens a plain or ``.gz`` text file as sacreBLEU does (only ``\n`` ends a line).

    Args:
        file: The path; a name ending in ``.gz`` is decompressed.
        mode: The file mode (``rt``, ``wt``, ...).
        encoding: The text encoding.

    Returns:
        The open file.

    Example:
        >>> smart_open("no/such/file.gz")
        Traceback (most recent call last):
        ...
        FileNotFoundError: [Errno 2] No such file or directory: 'no/such/file.gz'
    """
    if file.endswith(".gz"):
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")  # type: ignore[return-value]
    return open(file, mode=mode, encoding=encoding, newline="\n")
