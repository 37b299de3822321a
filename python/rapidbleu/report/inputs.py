"""The report's input data (:class:`ReportInput`) and its settings (:class:`ReportOptions`).

Both are plain data, shared by :mod:`~rapidbleu.report.build` and
:mod:`~rapidbleu.report.segments`.

Example:
    >>> data = ReportInput([("x", ["a b"]), ("y", ["a c"])], [["a b"]])
    >>> data.check()  # one line each: fine
    >>> ReportOptions().test, ReportOptions().segments
    ('bs', 200)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidbleu.errors import EmptyInputError, InputError

__all__ = ["ReportInput", "ReportOptions"]


@dataclass
class ReportInput:
    """What is compared.

    Attributes:
        systems: ``(name, lines)`` per system; the first is the baseline.
        references: Reference streams (``references[k][i]``; ``None``: missing).
        sources: Source lines (``--source``), or ``None``.
        reference_names: Where the references came from (file names), for the card.
        source_name: Where the sources came from.
        langpair: ``SRC-TRG`` (``-l``), or ``None``.
    """

    systems: list[tuple[str, Sequence[str]]]
    references: Sequence[Sequence[str | None]]
    sources: Sequence[str] | None = None
    reference_names: list[str] = field(default_factory=list)
    source_name: str | None = None
    langpair: str | None = None

    def check(self) -> None:
        """Raises a clear error for empty input, mismatched lengths or repeated names."""
        if not self.systems:
            raise EmptyInputError("no systems to report on: give -i SYS [SYS ...]")
        if not self.references:
            raise EmptyInputError("no references: give at least one reference file")
        n = len(self.systems[0][1])
        if n == 0:
            raise EmptyInputError("nothing to report on: the input files have no lines")
        names = [name for name, _ in self.systems]
        for name in names:
            if names.count(name) > 1:
                raise InputError(f"{name!r} is given twice; give each system a different name")
        streams: list[tuple[str, Sequence[Any]]] = [
            *self.systems,
            *((f"reference {k + 1}", r) for k, r in enumerate(self.references)),
        ]
        if self.sources is not None:
            streams.append(("--source", self.sources))
        for name, lines in streams:
            if len(lines) != n:
                raise InputError(
                    f"{name} has {len(lines)} lines but {self.systems[0][0]} has {n}; "
                    "every file must have one line per segment"
                )


@dataclass
class ReportOptions:
    """How much to compute and show.

    Attributes:
        test: ``"bs"`` (paired bootstrap, the default) or ``"ar"`` (approximate randomisation).
        n_samples: Resamples (``bs``) or trials (``ar``).
        confidence_n: Bootstrap resamples for confidence intervals (one system, and ``ar``).
        segments: How many segments to show.
        ngrams: Rows of each n-gram difference table.
        max_order: Longest n-gram counted.
    """

    test: str = "bs"
    n_samples: int = 1000
    confidence_n: int = 1000
    segments: int = 200
    ngrams: int = 25
    max_order: int = 4
