"""A worker process's counts, in a file mapped into its memory: on disk however it ends.

Why a mapped file: a worker of a run (a ``multiprocessing`` child, a subprocess) may end by
``Pool.terminate``'s SIGTERM, by ``os._exit`` or by SIGKILL, and none of these runs Python. A
SIGTERM handler could write the counts, but a Python handler runs only between bytecodes of the
main thread: a SIGTERM that lands just before the worker blocks on its task queue's lock is
never handled, and the worker, which SIGTERM would have ended, waits forever, and
``Pool.terminate`` with it. A store into a shared mapping is the file's as soon as it is made,
so the root process reads every call a worker made, whenever and however the worker ended,
and nothing waits on anything.

Two files per process, in the run's folder, named ``<pid>-<unique>`` (pids are reused):

- ``.names``: one ``name<TAB>where`` line per slot, in slot order, appended (one
  ``O_APPEND`` write) when the slot is first used, before any of its numbers;
- ``.counts``: :data:`SLOTS` int64 counts, then :data:`SLOTS` float64 seconds (native
  order: only this machine reads them).

Example:
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> counts = CountsFile(folder, 1234)
    >>> counts.add("sacrebleu.sentence_bleu", "rapidbleu", 0.5)
    >>> counts.add("sacrebleu.sentence_bleu", "rapidbleu", 0.25)
    >>> read_counts(folder)
    [{'name': 'sacrebleu.sentence_bleu', 'where': 'rapidbleu', 'count': 2, 'seconds': 0.75}]
"""

from __future__ import annotations

import mmap
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

__all__ = ["SLOTS", "CountsFile", "read_counts"]

#: Slots per process: one per (call, where) pair it makes. The mode accelerates a closed set
#: of names (two wheres each), far fewer; the last slot takes whatever pairs come after it.
SLOTS = 1024

#: The last slot's name: the calls of every pair beyond the first ``SLOTS - 1``.
OVERFLOW = ("(other calls)", "rapidbleu")

_WIDTH = 8  # bytes of a count and of a seconds value
_SIZE = 2 * SLOTS * _WIDTH


class CountsFile:
    """The mapped counts of one process; :meth:`add` is :meth:`Profile.add`'s stand-in.

    The files are made at the first call, so a process that makes none (most children of a
    program that forks) leaves nothing behind. Where they cannot be made (the root has
    reported and removed the folder, or the disk is full), the calls are counted in memory,
    and not reported: a program's call never fails for its report.
    """

    def __init__(self, folder: Path, pid: int) -> None:
        self._folder = folder
        self._pid = pid
        self._names_fd = -1
        self._counts = memoryview(b"").cast("q")  # until the first call maps the file
        self._seconds = memoryview(b"").cast("d")
        self._slots: dict[tuple[str, str], int] = {}
        self._used = 0  # slots named in the names file
        # Re-entrant: a program's signal handler may make an accelerated call while this
        # thread is inside `add`; a plain lock would wait on itself forever.
        self._lock = threading.RLock()

    def add(self, name: str, where: str, seconds: float) -> None:
        """Records one call of ``name`` that ran ``where`` and took ``seconds``."""
        key = (name, where)
        with self._lock:
            slot = self._slots.get(key)
            if slot is None:
                slot = self._new_slot(key)
            self._counts[slot] += 1
            self._seconds[slot] += seconds

    def _new_slot(self, key: tuple[str, str]) -> int:
        if not self._used:
            self._map()
        slot = min(self._used, SLOTS - 1)
        if self._used < SLOTS:  # a slot not yet named: its name goes in before its numbers
            line = "\t".join(key if slot < SLOTS - 1 else OVERFLOW) + "\n"
            if self._names_fd >= 0:
                os.write(self._names_fd, line.encode("utf-8", "surrogatepass"))
            self._used += 1
        self._slots[key] = slot
        return slot

    def _map(self) -> None:
        """Makes ``<pid>-<unique>.counts`` and its ``.names`` and maps the counts (else memory)."""
        try:
            # A name of its own: a later process of a long run may get the same pid.
            fd, counts = tempfile.mkstemp(".counts", f"{self._pid}-", self._folder)
            try:
                # Blocks allocated now: a store into a mapped page that the disk cannot hold
                # would end the process with SIGBUS.
                os.posix_fallocate(fd, 0, _SIZE)
                view = memoryview(mmap.mmap(fd, _SIZE))
            finally:
                os.close(fd)  # the mapping keeps the file
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND
            self._names_fd = os.open(Path(counts).with_suffix(".names"), flags, 0o600)
        except OSError:
            view = memoryview(bytearray(_SIZE))
        self._counts = view[: SLOTS * _WIDTH].cast("q")
        self._seconds = view[SLOTS * _WIDTH :].cast("d")


def read_counts(folder: Path) -> list[dict[str, Any]]:
    """The counts of every process that mapped a file in ``folder``, one row per pair.

    A process still running may be between a name's line and its numbers, or half way
    through a line: a pair is read only once its line is whole, and counts as it stood.
    """
    rows: list[dict[str, Any]] = []
    for names_path in sorted(folder.glob("*.names")):
        try:
            lines = names_path.read_bytes().decode("utf-8", "surrogatepass").split("\n")[:-1]
            data = names_path.with_suffix(".counts").read_bytes()
        except (OSError, UnicodeDecodeError):
            continue
        if len(data) != _SIZE:
            continue
        counts = memoryview(data)[: SLOTS * _WIDTH].cast("q")
        seconds = memoryview(data)[SLOTS * _WIDTH :].cast("d")
        for slot, line in enumerate(lines[:SLOTS]):
            name, _, where = line.partition("\t")
            if counts[slot]:
                rows.append(
                    {"name": name, "where": where, "count": counts[slot], "seconds": seconds[slot]}
                )
    return rows
