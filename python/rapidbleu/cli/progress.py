"""A progress bar on stderr for long runs (tqdm): only on a terminal, only after a few seconds.

Short runs and redirected stderr stay silent, so scripts and logs never see it; ``--quiet``
turns it off everywhere. When the size of the input is known (files read by the Rust reader),
the bar shows how much of it has been read, with a rate and the time left; otherwise it counts
lines. tqdm is imported only when a bar may be drawn.
"""

from __future__ import annotations

from typing import Any, TextIO

__all__ = ["DELAY_S", "Progress"]

#: Seconds of work before the bar appears ("larger than a few seconds of work").
DELAY_S = 2.0


class Progress:
    """Counts lines and, on a terminal, draws a tqdm bar on ``stream``.

    Args:
        stream: Where to draw (stderr).
        enabled: Draw at all (``False`` with ``--quiet``).

    Attributes:
        lines: Lines processed so far.

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
        self._total: int | None = None
        self._bar: Any = None
        self.lines = 0

    def set_total(self, total_bytes: int | None) -> None:
        """Sets the input's size in bytes, when known (call before the first update).

        The bar then follows :meth:`update`'s ``position`` through it.
        """
        self._total = total_bytes if total_bytes else None

    def _make_bar(self) -> Any:
        from tqdm import tqdm

        common: dict[str, Any] = {
            "file": self._stream,
            "delay": DELAY_S,
            "leave": False,  # erased when done: the output stays clean
            "desc": "rapidbleu",
            "dynamic_ncols": True,
        }
        if self._total is not None:
            return tqdm(total=self._total, unit="B", unit_scale=True, unit_divisor=1024, **common)
        return tqdm(unit=" lines", unit_scale=True, **common)

    def update(self, lines: int, position: int | None = None) -> None:
        """Adds ``lines`` processed lines; ``position`` is the input bytes read so far."""
        self.lines += lines
        if not self._on:
            return
        if self._bar is None:
            self._bar = self._make_bar()
        if self._total is not None and position is not None:
            self._bar.set_postfix_str(f"{self.lines:,} lines", refresh=False)
            self._bar.update(min(position, self._total) - self._bar.n)
        else:
            self._bar.update(lines)

    def close(self) -> None:
        """Erases the bar (if it was drawn)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
