"""Toy metrics for the distributed tests (shipped to Ray and Dask workers by value).

- :class:`OrderedRefLen`: a metric that is **not additive**, shaped like sacreBLEU's TER: rows
  ``[edits, ref_len_sum, num_refs]``, and corpus statistics ``(edits, ref_length)`` where
  ``ref_length`` is the float sum, in segment order, of ``ref_len_sum / num_refs`` (TER's
  average reference length; see ``shared/reference/sacrebleu-chrf-ter.md`` A7). With three
  references the terms are not dyadic, so another order of addition changes the last digits:
  the distributed fold must keep the order.
- :class:`CrashOnce`: BLEU whose worker process dies (``os._exit``) the first time it scores
  a block holding a given hypothesis, and which logs every attempt: for the retry tests.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from rapidbleu.metrics import BLEU, Metric, RowLayout, Score


def _edits(hyp: list[str], ref: list[str]) -> int:
    """A cheap stand-in for TER's edits: position mismatches plus the length difference."""
    return sum(a != b for a, b in zip(hyp, ref)) + abs(len(hyp) - len(ref))


class OrderedRefLen(Metric):
    """TER's float order on a toy: ``100 * edits / sum(ref_len_sum / num_refs)`` (lower better)."""

    higher_is_better = False
    additive = False

    @property
    def layout(self) -> RowLayout:
        return RowLayout(("edits", "ref_len_sum", "num_refs"))

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Any:
        refs_of = references if per_segment else list(zip(*references))
        counts = set()
        rows = []
        for hyp, refs in zip(hypotheses, refs_of):
            present = [r.split() for r in refs if r is not None]
            counts.add(len(present))
            best = min(_edits(hyp.split(), r) for r in present)
            rows.append([best, sum(len(r) for r in present), len(present)])
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def accumulate(self, totals: Any, rows: Any) -> Any:
        # sacreBLEU's sum_of_lists: one row after the other, the float term in segment order.
        edits, ref_length = (0, 0) if totals is None else totals
        for e, ref_len_sum, num_refs in np.asarray(rows, dtype=np.int64).reshape(-1, 3).tolist():
            edits += e
            ref_length += ref_len_sum / num_refs
        return edits, ref_length

    def score_totals(self, totals: Any) -> Score:
        if isinstance(totals, np.ndarray):  # one row: a sentence score
            totals = self.accumulate(None, totals)
        edits, ref_length = totals
        if ref_length > 0:
            return Score("ToyOrdered", 100 * edits / ref_length)
        return Score("ToyOrdered", 100.0 if edits > 0 else 0.0)


class CrashOnce(BLEU):
    """BLEU that kills its worker the first time it sees ``crash_on``; logs every attempt."""

    def __init__(self, marker_dir: str, crash_on: str, **options: Any) -> None:
        super().__init__(**options)
        self.marker_dir = marker_dir
        self.crash_on = crash_on

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Any:
        with open(os.path.join(self.marker_dir, "attempts"), "a", encoding="utf-8") as f:
            f.write(f"{hypotheses[0]}\n")
        if self.crash_on in hypotheses:
            try:
                fd = os.open(os.path.join(self.marker_dir, "crashed"), os.O_CREAT | os.O_EXCL)
            except FileExistsError:
                pass  # the retry: score normally
            else:
                os.close(fd)
                os._exit(1)  # the worker process dies mid-task, as on a lost node
        return super()._statistics(hypotheses, references, per_segment)


def corpus(n: int, nrefs: int, seed: int = 0) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and ``nrefs`` reference streams with words in common and lengths that vary."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(40)]
    refs = [
        [" ".join(rng.choice(vocab, int(rng.integers(1, 25)))) for _ in range(n)]
        for _ in range(nrefs)
    ]
    hyps = [
        " ".join(t if rng.random() > 0.3 else str(rng.choice(vocab)) for t in r.split())
        for r in refs[0]
    ]
    return hyps, refs
