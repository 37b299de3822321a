"""A progress line on stderr for long runs: only on a terminal, only after a few seconds.

Short runs and redirected stderr stay silent, so scripts and logs never see it; ``--quiet``
turns it off everywhere.
"""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["Progress"]

#: Seconds of work before the line appears ("larger than a few seconds of work").
DELAY_S = 2.0


class Progress:
    """Counts lines and, on a terminal, redraws ``rapidbleu: N lines (R lines/s)``.

    Args:
        stream: Where to draw (stderr).
        enabled: Draw at all (``False`` with ``--quiet``).

    Example:
        >>> import io
        >>> p = Progress(io.StringIO(), enabled=True)  # not a terminal: silent
        >>> p.update(10); p.close(); p.lines
        10
    """

    def __init__(self, stream: TextIO, enabled: bool = True) -> None:
        isatty = getattr(stream, "isatty", None)
        self._stream = stream
        self._on = enabled and callable(isatty) and bool(isatty())
        self._start = time.monotonic()
        self._drawn = False
        self.lines = 0

    def update(self, lines: int) -> None:
        """Adds ``lines`` processed lines and redraws when due."""
        self.lines += lines
        if not self._on:
            return
        elapsed = time.monotonic() - self._start
        if elapsed < DELAY_S:
            return
        rate = self.lines / elapsed if elapsed > 0 else 0.0
        self._stream.write(f"\rrapidbleu: {self.lines:,} lines ({rate:,.0f} lines/s)")
        self._stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erases the line (if it was drawn)."""
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn = False
