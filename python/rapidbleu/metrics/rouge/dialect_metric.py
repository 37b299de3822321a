"""The ``rouge`` package's and rouge-chinese's ROUGE on the Metric template (the command's).

``rapidbleu -m rouge --rouge-dialect pltrdy`` (or ``chinese``) scores with
:class:`PltrdyROUGE`: each item's row is the package's (one reference per hypothesis), and the
corpus value is its ``get_scores(hyps, refs, avg=True)``: the means of the items' ``f``, ``p``
and ``r`` per metric, added in item order (``score`` is 100 times the first metric's ``f``).
The metrics are the package's defaults, ``rouge-1``, ``rouge-2``, ``rouge-l``, with
``exclusive=True``. An item the package raises on (a text with no sentence) is an error.

Example:
    >>> m = PltrdyROUGE()
    >>> round(m.corpus_score(["the cat sat"], [["the cat sat down"]]).score, 4)
    85.7143
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rapidbleu import _core
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.checks import check_flag
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.rouge.score import ROUGEScore
from rapidbleu.metrics.rouge.scoring import Score as RougeTypeScore
from rapidbleu.metrics.score import Signature

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["PltrdyROUGE", "PltrdySignature"]

_METRICS = ["rouge-1", "rouge-2", "rouge-l"]


class PltrdySignature(Signature):
    """The signature: ``nrefs|dialect|metrics|exclusive|version``.

    Example:
        >>> m = PltrdyROUGE(chinese=True)
        >>> _ = m.corpus_score(["a b"], [["a b"]])
        >>> m.get_signature().format(short=True).split("|v:")[0]
        '#:1|d:chinese|m:rouge-1+rouge-2+rouge-l|x:yes'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"dialect": "d", "metrics": "m", "exclusive": "x"})
        self.info.update(
            {
                "dialect": "chinese" if args["chinese"] else "pltrdy",
                "metrics": "+".join(args["metrics"]),
                "exclusive": "yes" if args["exclusive"] else "no",
            }
        )


class PltrdyROUGE(Metric[ROUGEScore]):
    """``rouge`` 1.0.1's (or ``rouge-chinese`` 1.0.3's) averaged ROUGE as a template metric.

    Args:
        chinese: rouge-chinese (its sentence splitter and plain LCS) instead of ``rouge``.
        exclusive: Count n-grams as sets (the packages' default).
        references: Reference streams to keep for calls that pass ``references=None``.
        num_threads: Threads for the Rust core (``None``: ``$RAPIDBLEU_NUM_THREADS`` or all).

    Example:
        >>> PltrdyROUGE().sentence_score("a b", ["a c"]).scores["rouge-1"].fmeasure
        0.4999999950000001
    """

    cli_name = "rouge"
    in_default_report = False
    additive = False
    _SIGNATURE_TYPE = PltrdySignature

    def __init__(
        self,
        chinese: bool = False,
        exclusive: bool = True,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        self.chinese = check_flag(chinese, "chinese")
        self.exclusive = check_flag(exclusive, "exclusive")
        self.metrics = list(_METRICS)
        self._options = _core.PltrdyOptions(self.metrics, self.exclusive, self.chinese)
        n = len(self.metrics)
        self._layout = RowLayout(
            (
                *(f"{m}_{c}" for m in self.metrics for c in ("hyp", "ref", "overlap")),
                *("hyp_words", "ref_words", "empty", "depth"),
            )
        )
        assert self._layout.width == 3 * n + 4
        if references is not None:
            self.cache_references(references)

    @property
    def layout(self) -> RowLayout:
        """Per metric ``[hyp, ref, overlap]``, then word counts, empty flags, LCS depth."""
        return self._layout

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        rows, self.num_refs = self._options.statistics(
            hypotheses, references, self.num_threads, per_segment=per_segment
        )
        return rows

    def accumulate(self, totals: Any, rows: Rows) -> list[Any]:
        """Adds ``rows`` to ``[items, sums]`` (each metric's ``f, p, r`` summed in order)."""
        import numpy as np

        count, sums = (0, None) if totals is None else totals
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        if sums is not None:
            sums = np.ascontiguousarray(sums, dtype=np.float64)
        return list(self._options.accumulate(rows, (int(count), sums)))

    def score_totals(self, totals: Any) -> ROUGEScore:
        """The package's ``avg=True`` means: ``sums / count`` per metric and statistic."""
        count, sums = totals
        means = [float(s) / count if count else 0.0 for s in sums]
        return ROUGEScore(
            {
                m: RougeTypeScore(means[3 * k + 1], means[3 * k + 2], means[3 * k])
                for k, m in enumerate(self.metrics)
            }
        )

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Each row on its own: 100 times the first metric's ``f``."""
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return self._options.score_rows(rows)

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """JSON fields: ``rouge`` (``score / divisor``) and each metric's ``f``, ``p``, ``r``.

        Example:
            >>> m = PltrdyROUGE()
            >>> m.score_fields(m.corpus_score(["a"], [["a"]]))["rouge-1_f"]
            0.999999995
        """
        fields: dict[str, Any] = {"rouge": score.score / divisor}
        for m, s in score.scores.items():
            fields.update({f"{m}_f": s.fmeasure, f"{m}_p": s.precision, f"{m}_r": s.recall})
        return fields

    def get_signature(self) -> PltrdySignature:
        """The signature (known once references have been seen)."""
        return PltrdySignature(self.__dict__)
