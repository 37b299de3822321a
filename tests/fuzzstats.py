"""A tally of fuzzed inputs per family, printed at the end of the test run (see conftest.py).

Property, differential and state-machine tests call :func:`record` once per input they try,
with what happened to it:

- ``ok``: a result, equal to the oracle's where there is one;
- ``refused``: a :mod:`rapidbleu.errors` exception (an input that is not allowed), or the
  oracle's own exception, raised the same way by rapidbleu;
- ``differed``: a result or an exception that differs from the oracle's;
- ``crashed``: an exception that is not a :class:`rapidbleu.errors.RapidBleuError` (or an
  ``InternalError``, a Rust panic caught at the boundary), or a hang.

``differed`` and ``crashed`` also fail the test that saw them; the tally says how many inputs
each family tried, so a run that tried nothing is visible too.

Example:
    >>> record("doc", "ok")
    >>> TALLY["doc"]["ok"] >= 1
    True
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict

__all__ = ["OUTCOMES", "TALLY", "record", "summary_lines"]

OUTCOMES = ("ok", "refused", "differed", "crashed")

#: family -> outcome -> count.
TALLY: defaultdict[str, Counter[str]] = defaultdict(Counter)
_LOCK = threading.Lock()  # the concurrency tests record from many threads


def record(family: str, outcome: str) -> None:
    """Counts one input of ``family`` with ``outcome`` (one of :data:`OUTCOMES`)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}; one of {OUTCOMES}")
    with _LOCK:
        TALLY[family][outcome] += 1


def summary_lines() -> list[str]:
    """The tally as a table, one line per family and a total (empty without any input)."""
    if not TALLY:
        return []
    width = max(len(f) for f in TALLY) + 2
    head = f"{'family':<{width}}" + "".join(f"{o:>10}" for o in ("tried", *OUTCOMES))
    lines = [head]
    total: Counter[str] = Counter()
    for family in sorted(TALLY):
        counts = TALLY[family]
        total.update(counts)
        tried = sum(counts.values())
        lines.append(
            f"{family:<{width}}{tried:>10}" + "".join(f"{counts[o]:>10}" for o in OUTCOMES)
        )
    lines.append(
        f"{'total':<{width}}{sum(total.values()):>10}"
        + "".join(f"{total[o]:>10}" for o in OUTCOMES)
    )
    return lines
