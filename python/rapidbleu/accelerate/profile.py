"""What ran where in accelerator mode: calls, counts and time, reported at exit.

Every accelerated name records each call as ``rapidbleu`` (computed by rapidbleu) or
``fallback`` (rapidbleu refused it, the real package computed it). With
``RAPIDBLEU_ACCELERATE_REPORT=1`` the table is printed on stderr when the program exits; with a
path ending in ``.json`` it is added to that file instead, under a lock. The processes the
program starts send their counts to the program's process, which reports the whole run
(:mod:`rapidbleu.accelerate.workers`).

Example:
    >>> p = Profile()
    >>> p.add("sacrebleu.corpus_bleu", "rapidbleu", 0.5)
    >>> p.add("sacrebleu.corpus_bleu", "rapidbleu", 0.25)
    >>> p.rows()
    [{'name': 'sacrebleu.corpus_bleu', 'where': 'rapidbleu', 'count': 2, 'seconds': 0.75}]
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rapidbleu.accelerate.counts_file import CountsFile

__all__ = ["PROFILE", "Profile", "Where", "report_at_exit"]

#: Pending calls that make :meth:`Profile.add` fold them into the sums (bounds the memory).
_FOLD_AT = 4096

#: Where a call ran.
Where = Literal["rapidbleu", "fallback"]


class Profile:
    """Counts and seconds per (name, where); safe to update from several threads."""

    def __init__(self) -> None:
        self._calls: dict[tuple[str, str], list[float]] = {}
        self._lock = threading.Lock()
        # Calls not yet added to `_calls`. Performance decision: `add` runs once per
        # accelerated call (a program's `sentence_score` per item), and a lock plus a dict
        # update cost more than the call's own Python; `deque.append` is atomic (CPython's
        # deque holds the GIL or, free-threaded, its own lock), so `add` appends and the
        # sums are made under the lock when read or when many calls are pending.
        self._pending: deque[tuple[str, str, float]] = deque()
        #: Whether calls are counted: the run reports (``RAPIDBLEU_ACCELERATE_REPORT`` set
        #: when the mode was turned on). Counting is the report's alone, so a run without
        #: one pays nothing for it; a per-item method's fast path (metrics/per_call.py) is
        #: left unwrapped in classes the mode makes while this is off.
        self.enabled = False

    def add(self, name: str, where: Where, seconds: float) -> None:
        """Records one call of ``name`` that ran ``where`` and took ``seconds``."""
        pending = self._pending
        pending.append((name, where, seconds))
        if len(pending) > _FOLD_AT:
            self._fold()

    def _fold(self) -> None:
        """Adds the pending calls to the sums (every call once, whichever thread folds)."""
        pending, calls = self._pending, self._calls
        with self._lock:
            while True:
                try:
                    name, where, seconds = pending.popleft()
                except IndexError:
                    return
                entry = calls.get((name, where))
                if entry is None:
                    entry = calls[(name, where)] = [0, 0.0]
                entry[0] += 1
                entry[1] += seconds

    def share(self, counts: CountsFile) -> None:
        """Records this process's calls from now on in ``counts`` (a worker's mapped file).

        The file, not this object, then holds them: the run's root reads it
        (:mod:`rapidbleu.accelerate.workers`).
        """
        self.clear()
        # An instance attribute hides the method: the per-call `PROFILE.add` of the root
        # process stays the in-memory one, with no test of where its calls go.
        self.add = counts.add  # type: ignore[method-assign]

    def merge(self, rows: list[dict[str, Any]]) -> None:
        """Adds rows of :meth:`rows` (another process's counts) to these."""
        with self._lock:
            for r in rows:
                entry = self._calls.setdefault((r["name"], r["where"]), [0, 0.0])
                entry[0] += int(r["count"])
                entry[1] += float(r["seconds"])

    def clear(self) -> None:
        """Starts afresh: no counts, and calls kept in memory (a forked child's first step).

        Not under the lock but with a new one: in a child made by ``fork()``, a thread of the
        parent that held the lock at the fork does not exist, and the lock stays held.
        """
        self._lock = threading.Lock()
        self._pending = deque()
        self._calls = {}
        self.__dict__.pop("add", None)  # a worker's file (see `share`) is its parent's

    def rows(self) -> list[dict[str, Any]]:
        """One dict per (name, where), sorted: ``name``, ``where``, ``count``, ``seconds``."""
        self._fold()
        with self._lock:
            return [
                {"name": n, "where": w, "count": int(c), "seconds": s}
                for (n, w), (c, s) in sorted(self._calls.items())
            ]

    def table(self) -> str:
        """The rows as a text table (empty calls: a line saying so).

        Example:
            >>> p = Profile()
            >>> p.add("nltk.translate.bleu_score.sentence_bleu", "fallback", 0.1)
            >>> print(p.table())  # doctest: +NORMALIZE_WHITESPACE
            rapidbleu.accelerate: calls by where they ran
            call                                      where      count    seconds
            nltk.translate.bleu_score.sentence_bleu   fallback       1      0.100
        """
        rows = self.rows()
        head = "rapidbleu.accelerate: calls by where they ran"
        if not rows:
            return f"{head}\n(no accelerated call was made)"
        width = max(len("call"), *(len(r["name"]) for r in rows)) + 3
        lines = [head, f"{'call':<{width}}{'where':<9}{'count':>7}{'seconds':>11}"]
        lines += [
            f"{r['name']:<{width}}{r['where']:<9}{r['count']:>7}{r['seconds']:>11.3f}" for r in rows
        ]
        return "\n".join(lines)


#: The process's profile.
PROFILE = Profile()


def _add_to_json(path: Path, rows: list[dict[str, Any]]) -> None:
    """Adds ``rows`` to the report file at ``path``, under an exclusive lock."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)  # released when the file is closed
        f.seek(0)
        text = f.read()
        calls: list[dict[str, Any]] = json.loads(text)["calls"] if text.strip() else []
        merged = {(c["name"], c["where"]): c for c in calls}
        for r in rows:
            c = merged.setdefault((r["name"], r["where"]), {**r, "count": 0, "seconds": 0.0})
            c["count"] += r["count"]
            c["seconds"] += r["seconds"]
        f.seek(0)
        f.truncate()
        json.dump({"calls": sorted(merged.values(), key=lambda c: (c["name"], c["where"]))}, f)


def report_at_exit(setting: str, pid: int) -> None:
    """Writes the report as ``setting`` asks (``1``: stderr; ``*.json``: that file).

    Only the process ``pid`` (the one that installed the mode) reports: a forked child
    inherits the profile and the exit handler, and must not report the parent's calls again.

    Args:
        setting: The value of ``RAPIDBLEU_ACCELERATE_REPORT``.
        pid: The process that installed the mode.
    """
    if os.getpid() != pid or setting in ("", "0"):
        return
    if setting.endswith(".json"):
        _add_to_json(Path(setting), PROFILE.rows())
    else:
        print(PROFILE.table(), file=sys.stderr)
