"""The dialects' options, checked once, and their exact scoring of statistics rows.

The counts are made on the device; the scores are made here, on the CPU, from the small
``(B, 2 + 2N)`` rows by the very code that scores the CPU engine's rows, so every float is the
CPU engine's (and so sacreBLEU's and NLTK's) bit for bit, by construction:

- ``sacrebleu``: :meth:`rapidbleu.metrics.BLEU.score_rows` (sentences) and
  :meth:`~rapidbleu.metrics.BLEU.score_totals` (the corpus), with ``tokenize="none"``: BLEU
  of the IDs as text, as ``sacrebleu.sentence_bleu`` / ``corpus_bleu`` compute it;
- ``nltk``: :func:`rapidbleu.dialects.nltk.score_rows`, NLTK's ``corpus_bleu`` tail operation
  by operation (a corpus is one row of the summed counts and of the summed ``max(1, total)``
  denominators, as NLTK sums them).

Example:
    >>> import numpy as np
    >>> rows = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]])
    >>> resolve("sacrebleu", sentence=True).sentences(rows).tolist()
    [100.00000000000004]
    >>> resolve("nltk", sentence=True, smoothing="method1").sentences(rows).tolist()
    [1.0]
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from rapidbleu.errors import InvalidOptionError

__all__ = ["DIALECTS", "NLTK_METHODS", "SACREBLEU_SMOOTHING", "Scoring", "resolve"]

DIALECTS = ("sacrebleu", "nltk")
SACREBLEU_SMOOTHING = ("exp", "floor", "add-k", "none")
NLTK_METHODS = ("method0", "method1", "method2", "method3", "method4")
_NLTK_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


class Scoring(Protocol):
    """A dialect's scoring of statistics rows, its options checked."""

    @property
    def order(self) -> int:
        """The highest n-gram order the rows must have."""

    def sentences(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The sentence score of each row: ``(B,)``, or ``(B, W)`` for W NLTK weight vectors."""

    def corpus(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The corpus score of all rows: shape ``()``, or ``(W,)`` for W weight vectors."""


@dataclass(frozen=True)
class _SacreBleu:
    metric: Any  # rapidbleu.metrics.BLEU

    @property
    def order(self) -> int:
        return int(self.metric.max_ngram_order)

    def sentences(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return self.metric.score_rows(rows)  # type: ignore[no-any-return]

    def corpus(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return np.array(self.metric.score_totals(rows.sum(0)).score, dtype=np.float64)


@dataclass(frozen=True)
class _Nltk:
    weights: list[Sequence[float]]
    method: int
    epsilon: Any  # as the SmoothingFunction holds them: NLTK's code sees the same objects
    k: Any
    auto_reweigh: bool
    single: bool

    @property
    def order(self) -> int:
        return max(len(w) for w in self.weights)

    def _score(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        from rapidbleu.dialects.nltk import score_rows

        if self.method == 0 and bool((rows[:, 2 : 2 + self.order] == 0).any()):
            # NLTK's method0 warns for each sentence without some n-gram match; once per call.
            warnings.warn(
                "Some hypotheses contain 0 counts of n-gram overlaps: their BLEU scores are "
                "tiny, not 0 (NLTK's method0). Consider a smoothing method (method1..4)",
                stacklevel=4,
            )
        out = score_rows(rows, self.weights, self.method, self.epsilon, self.k, self.auto_reweigh)
        return out[:, 0] if self.single else out

    def sentences(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return self._score(rows)

    def corpus(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        # NLTK's corpus_bleu sums each segment's max(1, total) (not max(1, sum of totals)).
        n = (rows.shape[1] - 2) // 2
        clamped = rows.copy()
        clamped[:, 2 + n :] = np.maximum(clamped[:, 2 + n :], 1)
        total: npt.NDArray[np.float64] = self._score(clamped.sum(0, keepdims=True))[0]
        return total


def _nltk_method(smoothing: Any) -> tuple[int, Any, Any]:
    """``(method number, epsilon, k)`` of a name or of a ``SmoothingFunction().methodN``."""
    if smoothing is None:
        return 0, 0.1, 5
    if isinstance(smoothing, str):
        if smoothing not in NLTK_METHODS:
            raise InvalidOptionError(
                f"unknown smoothing {smoothing!r} for dialect='nltk'; allowed: "
                + ", ".join(NLTK_METHODS)
                + " (or SmoothingFunction(...).methodN)"
            )
        return NLTK_METHODS.index(smoothing), 0.1, 5
    owner = getattr(smoothing, "__self__", None)
    name = getattr(getattr(smoothing, "__func__", None), "__name__", "")
    cls = type(owner)
    known = cls.__name__ == "SmoothingFunction" and cls.__module__ in (
        "rapidbleu.dialects._nltk_smoothing",
        "nltk.translate.bleu_score",
    )
    numbers = all(isinstance(getattr(owner, a, None), (int, float)) for a in ("epsilon", "k"))
    if owner is None or not known or name not in NLTK_METHODS or not numbers:
        raise InvalidOptionError(
            "smoothing for dialect='nltk' must be 'method0'..'method4' or "
            "SmoothingFunction(...).method0..method4 (NLTK's or rapidbleu's); methods 5-7 need "
            "the token sequences: use rapidbleu.dialects.nltk on the CPU"
        )
    return NLTK_METHODS.index(name), owner.epsilon, owner.k


def _nltk_weights(weights: Any) -> tuple[list[Sequence[float]], bool]:
    """NLTK's weights: one vector, or a list of them (``weights[0][0]`` tells, as in NLTK)."""
    if weights is None:
        return [_NLTK_DEFAULT_WEIGHTS], True
    try:
        weights[0][0]
        many = list(weights)
    except (TypeError, IndexError, KeyError):
        many = None
    vectors = many if many is not None else [weights]
    for w in vectors:
        if (
            not isinstance(w, (tuple, list))
            or not w
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in w)
        ):
            raise InvalidOptionError(
                f"weights must be a non-empty tuple of numbers or a list of them, got {w!r}"
            )
    # Kept as given: NLTK's auto_reweigh fires only for the tuple (0.25, 0.25, 0.25, 0.25).
    return vectors, many is None


def _refuse(dialect: str, given: dict[str, Any]) -> None:
    extra = [name for name, value in given.items() if value is not None]
    if extra:
        raise InvalidOptionError(
            f"{', '.join(extra)} {'is not an option' if len(extra) == 1 else 'are not options'}"
            f" of dialect={dialect!r}"
        )


def resolve(
    dialect: str,
    *,
    sentence: bool,
    smoothing: str | Callable[..., Any] | None = None,
    smooth_value: float | None = None,
    effective_order: bool | None = None,
    max_ngram_order: int | None = None,
    weights: Any = None,
    auto_reweigh: bool | None = None,
) -> Scoring:
    """The scoring of ``dialect`` with its options checked; defaults are the dialect's own.

    Args:
        dialect: ``sacrebleu`` or ``nltk``.
        sentence: Defaults of the sentence function (else of the corpus function): for
            sacreBLEU, ``effective_order`` is on for sentences and off for a corpus.
        smoothing: sacreBLEU: ``exp`` (default), ``floor``, ``add-k``, ``none``. NLTK:
            ``method0`` (default) .. ``method4``, or ``SmoothingFunction(...).methodN``.
        smooth_value: sacreBLEU only: the floor / add-k value.
        effective_order: sacreBLEU only.
        max_ngram_order: sacreBLEU only (default 4; NLTK's order is the weights' length).
        weights: NLTK only: a weight vector (default ``(0.25,) * 4``) or a list of them.
        auto_reweigh: NLTK only.

    Returns:
        The :class:`Scoring`.

    Raises:
        rapidbleu.errors.InvalidOptionError: An unknown dialect, an option of the other
            dialect, or a value that is not allowed.

    Example:
        >>> resolve("nltk", sentence=True, weights=[(0.5, 0.5), (1.0,)]).order
        2
    """
    if dialect == "sacrebleu":
        _refuse(dialect, {"weights": weights, "auto_reweigh": auto_reweigh})
        if smoothing is not None and smoothing not in SACREBLEU_SMOOTHING:
            raise InvalidOptionError(
                f"unknown smoothing {smoothing!r} for dialect='sacrebleu'; allowed: "
                + ", ".join(SACREBLEU_SMOOTHING)
            )
        from rapidbleu.metrics import BLEU

        metric = BLEU(
            tokenize="none",
            smooth_method=str(smoothing or "exp"),
            smooth_value=smooth_value,
            max_ngram_order=4 if max_ngram_order is None else max_ngram_order,
            effective_order=sentence if effective_order is None else effective_order,
        )
        return _SacreBleu(metric)
    if dialect == "nltk":
        _refuse(
            dialect,
            {
                "smooth_value": smooth_value,
                "effective_order": effective_order,
                "max_ngram_order": max_ngram_order,
            },
        )
        method, epsilon, k = _nltk_method(smoothing)
        vectors, single = _nltk_weights(weights)
        if auto_reweigh is not None and not isinstance(auto_reweigh, bool):
            raise InvalidOptionError(f"auto_reweigh must be a bool, got {auto_reweigh!r}")
        return _Nltk(vectors, method, epsilon, k, bool(auto_reweigh), single)
    raise InvalidOptionError(f"unknown dialect {dialect!r}; allowed: " + ", ".join(DIALECTS))
