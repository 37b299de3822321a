"""rouge-score 0.1.2's ``scoring`` module: ``BaseScorer``, ``Score``, ``AggregateScore``, ...

:class:`BaseScorer` is rouge-score's base class of scorers (``RougeScorer`` is one).
:class:`Score` and :class:`AggregateScore` are named tuples as rouge-score's are, so they
compare equal (``==``) to rouge-score's. :class:`BootstrapAggregator` gives rouge-score's
``low``/``mid``/``high`` with the same draws: rouge-score resamples with NumPy's global
``np.random``, and so does this class (the Rust core replays NumPy's MT19937 from
``np.random.get_state()`` and hands the advanced state back), so with the same global seed
both give the same intervals and leave the generator in the same state.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import rapidbleu._core as _core
from rapidbleu.errors import EmptyInputError, InputError, InvalidOptionError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "score_arrays"]


class BaseScorer(metaclass=abc.ABCMeta):
    """rouge-score's base class of scorers.

    rapidbleu's ``RougeScorer`` is one, so that ``isinstance(scorer, scoring.BaseScorer)``
    holds in accelerator mode, as it does with rouge-score.

    Example:
        >>> from rapidbleu.metrics.rouge.rouge_scorer import RougeScorer
        >>> isinstance(RougeScorer(["rouge1"]), BaseScorer)
        True
    """

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """The scores of ``prediction`` against ``target``, by score type."""


class Score(NamedTuple):
    """rouge-score's ``Score``: precision, recall and F-measure (0..1).

    Example:
        >>> Score(0.5, 0.25, 1 / 3) == (0.5, 0.25, 1 / 3)
        True
    """

    precision: float
    recall: float
    fmeasure: float


class AggregateScore(NamedTuple):
    """rouge-score's ``AggregateScore``: the low, mid and high :class:`Score` of an interval.

    Example:
        >>> AggregateScore(Score(0, 0, 0), Score(1, 1, 1), Score(2, 2, 2)).mid.recall
        1
    """

    low: Score
    mid: Score
    high: Score


def score_arrays(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """``[precision, recall, fmeasure]`` of triples ``[hits, prediction_count, target_count]``.

    rouge-score's float64 arithmetic element by element: ``hits / max(count, 1)`` (correctly
    rounded, as Python's ``int / int``) and ``2 * p * r / (p + r)`` left to right (``0.0``
    when ``p + r`` is 0).

    Args:
        rows: An ``(n, 3)`` array of triples.

    Returns:
        An ``(n, 3)`` float64 array.

    Example:
        >>> import numpy as np
        >>> score_arrays(np.array([[1, 2, 4], [0, 0, 0]])).tolist()
        [[0.5, 0.25, 0.3333333333333333], [0.0, 0.0, 0.0]]
    """
    import numpy as np

    t = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
    hits = t[:, 0].astype(np.float64)
    out = np.empty((len(t), 3), dtype=np.float64)
    p = out[:, 0]
    r = out[:, 1]
    np.divide(hits, np.maximum(t[:, 1], 1).astype(np.float64), out=p)
    np.divide(hits, np.maximum(t[:, 2], 1).astype(np.float64), out=r)
    total = p + r
    with np.errstate(divide="ignore", invalid="ignore"):
        f = 2 * p * r / total
    out[:, 2] = np.where(total > 0, f, 0.0)
    return out


class BootstrapAggregator:
    """rouge-score's ``BootstrapAggregator``: confidence intervals of mean scores.

    Args:
        confidence_interval: The interval's width, from 0 to 1.
        n_samples: Bootstrap resamples (positive).

    Raises:
        rapidbleu.errors.InvalidOptionError: An argument out of range (a ``ValueError``, as
            rouge-score raises).

    Example:
        >>> import numpy as np
        >>> agg = BootstrapAggregator(n_samples=10)
        >>> agg.add_scores({"rouge1": Score(1.0, 0.5, 2 / 3)})
        >>> agg.aggregate()["rouge1"].mid == (1.0, 0.5, 2 / 3)
        True
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise InvalidOptionError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise InvalidOptionError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        # Per score type: its pieces in order (tuples from add_scores, arrays from add_arrays).
        self._scores: dict[str, list[Any]] = {}

    def add_scores(self, scores: Mapping[str, Any]) -> None:
        """Adds one sample: score type -> a ``(precision, recall, fmeasure)`` tuple.

        Example:
            >>> agg = BootstrapAggregator()
            >>> agg.add_scores({"rougeL": Score(0.5, 0.5, 0.5)})
        """
        for score_type, score in scores.items():
            self._scores.setdefault(score_type, []).append(score)

    def add_arrays(self, scores: Mapping[str, npt.NDArray[np.float64]]) -> None:
        """Adds many samples at once: score type -> an ``(n, 3)`` array (``ROUGE.score_arrays``).

        The same as :meth:`add_scores` of each row in order.

        Example:
            >>> import numpy as np
            >>> agg = BootstrapAggregator(n_samples=5)
            >>> agg.add_arrays({"rouge1": np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])})
        """
        import numpy as np

        for score_type, arr in scores.items():
            a = np.asarray(arr, dtype=np.float64)
            if a.ndim != 2 or a.shape[1] != 3:
                raise InputError(
                    f"scores[{score_type!r}] must be an (n, 3) array of precision, recall, "
                    f"fmeasure; got shape {a.shape}"
                )
            self._scores.setdefault(score_type, []).append(a)

    def aggregate(self) -> dict[str, AggregateScore]:
        """The low, mid and high score of each type, with rouge-score's draws.

        Returns:
            Score type -> :class:`AggregateScore`.

        Example:
            >>> import numpy as np
            >>> agg = BootstrapAggregator(n_samples=4)
            >>> agg.add_scores({"rouge1": Score(0.5, 0.5, 0.5)})
            >>> agg.aggregate()["rouge1"].low == (0.5, 0.5, 0.5)
            True
        """
        import numpy as np

        result = {}
        for score_type, pieces in self._scores.items():
            # rouge-score's `np.vstack(tuple(scores))`: a sample has as many fields as its
            # named tuple (rouge-score takes any), and low/mid/high are of the caller's class.
            matrix = np.vstack([np.asarray(p, dtype=np.float64) for p in pieces])
            if len(matrix) == 0:
                raise EmptyInputError(f"no scores of {score_type} to aggregate")
            first = pieces[0]
            kind = type(first) if hasattr(type(first), "_fields") else Score
            if matrix.shape[1] == 3:
                percentiles = self._bootstrap_resample(matrix)
            else:
                percentiles = self._numpy_resample(matrix)
            intervals = [kind(*percentiles[j, :]) for j in range(3)]
            result[score_type] = AggregateScore(*intervals)
        return result

    def _numpy_resample(self, matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """rouge-score's ``_bootstrap_resample`` as it is, for samples of other than 3 fields."""
        import numpy as np

        sample_mean = np.zeros((self._n_samples, matrix.shape[1]))
        for i in range(self._n_samples):
            sample_idx = np.random.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
            sample_mean[i, :] = np.mean(matrix[sample_idx, :], axis=0)
        percentile_delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([percentile_delta, 0.5, 1 - percentile_delta])
        return np.percentile(sample_mean, q, axis=0)  # type: ignore[no-any-return]

    def _bootstrap_resample(self, matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """rouge-score's ``_bootstrap_resample``: the means in Rust, NumPy's percentiles."""
        import numpy as np

        state = np.random.get_state()
        if not isinstance(state, tuple) or state[0] != "MT19937":  # pragma: no cover
            raise InputError("NumPy's global generator is not the legacy MT19937")
        means, key, pos = _core.RougeOptions.resample_means(
            np.ascontiguousarray(matrix), state[1], int(state[2]), self._n_samples
        )
        np.random.set_state(("MT19937", key, pos, state[3], state[4]))
        percentile_delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([percentile_delta, 0.5, 1 - percentile_delta])
        return np.percentile(means, q, axis=0)
