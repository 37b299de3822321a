"""The results model: named systems x metrics -> scores, confidence intervals and p-values.

Everything the command prints (text, JSON, LaTeX: :mod:`rapidbleu.report.tables`) and the
HTML report render from one :class:`Results`, whatever metrics were computed.

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> bleu = BLEU()
    >>> refs = [["a b c d", "e f g h"]]
    >>> res = Results.of_scores(
    ...     {"sys": {"BLEU": bleu.corpus_score(["a b c d", "e f g x"], refs)}},
    ...     {"BLEU": bleu.get_signature()},
    ... )
    >>> res.systems, res.metrics, round(res.cell("sys", "BLEU").score.score, 2)
    (['sys'], ['BLEU'], 72.31)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidbleu.metrics.score import Score, Signature

__all__ = ["Cell", "Results"]


@dataclass
class Cell:
    """One system's result under one metric.

    Attributes:
        score: The metric's score object (its ``.score`` is the number; BLEU's carries its
            precisions and lengths too).
        p_value: p-value of the paired test against the baseline (``None``: baseline or no
            test).
        mean: Bootstrap estimate of the true mean (``None`` without resampling).
        ci: Half-width of the 95% confidence interval around ``mean``.
    """

    score: Score
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    @property
    def value(self) -> float:
        """The score as a number."""
        return float(self.score.score)


def _cell(score: Score) -> Cell:
    mean, ci = score.confidence or (None, None)
    return Cell(score, None, mean, ci)


@dataclass
class Results:
    """Systems x metrics, in display order, with each metric's signature.

    Attributes:
        systems: System names (the baseline first in a paired test).
        metrics: Metric names as their scores name them (``BLEU``, ``chrF2++``, ``TER``).
        signatures: Per metric name, its signature.
        cells: Per metric name, one :class:`Cell` per system.
        test: ``"bs"`` (paired bootstrap), ``"ar"`` (approximate randomisation) or ``None``.
        n_samples: Resamples or trials of the test.
    """

    systems: list[str]
    metrics: list[str]
    signatures: dict[str, Signature]
    cells: dict[str, list[Cell]] = field(default_factory=dict)
    test: str | None = None
    n_samples: int | None = None

    @classmethod
    def of_scores(
        cls,
        scores: Mapping[str, Mapping[str, Score]],
        signatures: Mapping[str, Signature],
    ) -> Results:
        """Results of plain scores: ``scores[system][metric]``, systems and metrics in order.

        A score with a bootstrap estimate (``-ci``) gives its cell a mean and an interval.
        """
        systems = list(scores)
        metrics = list(signatures)
        cells = {m: [_cell(scores[s][m]) for s in systems] for m in metrics}
        return cls(systems, metrics, dict(signatures), cells)

    @classmethod
    def of_paired_test(
        cls,
        table: Mapping[str, Sequence[Any]],
        signatures: Mapping[str, Signature],
        test: str,
        n_samples: int,
    ) -> Results:
        """Results of a :class:`~rapidbleu.analysis.significance.PairedTest`.

        Args:
            table: The test's table (``"System"`` -> names, metric -> ``Result`` per system).
            signatures: The test's signatures (with ``seed``, ``bs``/``ar`` fields).
            test: ``"bs"`` or ``"ar"``.
            n_samples: Resamples or trials.
        """
        systems = list(table["System"])
        metrics = [m for m in table if m != "System"]
        cells = {
            m: [Cell(Score(m, r.score), r.p_value, r.mean, r.ci) for r in table[m]] for m in metrics
        }
        return cls(systems, metrics, dict(signatures), cells, test, n_samples)

    def cell(self, system: str, metric: str) -> Cell:
        """The cell of ``system`` under ``metric``."""
        return self.cells[metric][self.systems.index(system)]

    def scaled(self, divisor: float) -> Results:
        """A copy with every score divided by ``divisor`` (``--scale unit``).

        A bootstrap mean and its interval are divided too (they are on the score's scale);
        p-values are not (they are probabilities whatever the scale).
        """
        if divisor == 1.0:
            return self

        def div(x: float | None) -> float | None:
            # float64: chrF's and TER's bootstrap means are float32, as in sacreBLEU.
            return None if x is None else float(x) / divisor

        cells = {
            m: [Cell(c.score.scaled(divisor), c.p_value, div(c.mean), div(c.ci)) for c in cs]
            for m, cs in self.cells.items()
        }
        return Results(
            self.systems, self.metrics, self.signatures, cells, self.test, self.n_samples
        )
