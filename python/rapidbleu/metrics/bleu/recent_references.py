"""The references of a metric's last corpus call, counted once when the same ones come back.

Scoring several systems against one test set (``for hyps in systems:
bleu.corpus_score(hyps, refs)``) passes the same references each time, and sacreBLEU
tokenizes and counts them each time. A metric keeps the streams of its last call; when the
next call passes *the same string objects* (the same streams, or copies of the lists holding
them), it prepares them once, as ``cache_references`` would, and scores every later call
against that. Identity, not equality, decides: a str cannot change, so the same objects are
the same text, and no comparison of text (or a str subclass's ``__eq__``) is trusted.

What is kept: the lists of the last call (pointers to the caller's strings), and after a
second sighting the prepared references. Streams of more than :data:`MAX_LINES` lines in all
are not kept, so a one-off scoring of a huge corpus holds nothing.

Example:
    >>> recent = RecentReferences()
    >>> refs = [["a b", "c d"]]
    >>> recent.prepared(refs, lambda r: "prepared") is None  # first sighting: nothing yet
    True
    >>> recent.remember(refs)
    >>> recent.prepared([list(refs[0])], lambda r: "prepared")  # the same strings again
    'prepared'
    >>> recent.prepared([["a b", "".join(["c", " d"])]], lambda r: "other") is None  # new str
    True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["MAX_LINES", "RecentReferences"]

#: The most reference lines (all streams together) a metric keeps between calls.
MAX_LINES = 1_000_000


class RecentReferences:
    """The reference streams of the last call and, once seen again, their prepared form."""

    def __init__(self) -> None:
        # [streams, prepared or None]: one list, so that two threads never pair the
        # prepared references of one call with the streams of another.
        self._last: list[Any] | None = None

    def __reduce__(self) -> tuple[type[RecentReferences], tuple[()]]:
        # A copy (pickle, deepcopy, another process) starts empty: the prepared references
        # live in the core and cannot be pickled, and are cheap to prepare again.
        return (RecentReferences, ())

    def prepared(self, streams: Sequence[Any], prepare: Callable[[Sequence[Any]], Any]) -> Any:
        """The prepared references if ``streams`` are the last call's strings, else ``None``.

        Args:
            streams: The reference streams of this call (checked already).
            prepare: Prepares them (``Metric._cache``); called once per set of references.
        """
        last = self._last
        if last is None or not _same_strings(last[0], streams):
            return None
        if last[1] is None:
            last[1] = prepare(streams)
        return last[1]

    def remember(self, streams: Sequence[Any]) -> None:
        """Keeps ``streams`` (their lists, not their text) as the last call's references."""
        last = self._last
        if last is not None and _same_strings(last[0], streams):
            return
        if not all(type(s) in (list, tuple) for s in streams):
            # Lines the core holds (Arrow text) make a new str at each read, so they are
            # never the same objects again: keeping them would only cost a str per line.
            self._last = None
            return
        size = sum(len(s) for s in streams)
        self._last = [[list(s) for s in streams], None] if size <= MAX_LINES else None


def _same_strings(kept: list[list[Any]], streams: Sequence[Any]) -> bool:
    """Whether ``streams`` hold the very objects of ``kept``, stream by stream, in order."""
    return len(kept) == len(streams) and all(
        len(a) == len(b) and all(map(operator.is_, a, b)) for a, b in zip(kept, streams)
    )
