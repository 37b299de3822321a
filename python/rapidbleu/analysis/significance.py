"""Paired significance tests and bootstrap confidence intervals (``sacrebleu/significance.py``).

For any :class:`~rapidbleu.metrics.Metric`: p-values, means and confidence intervals equal
sacreBLEU 2.6.0's with ``==`` for the same seed. The random draws are NumPy's, made exactly as
sacreBLEU makes them (:mod:`rapidbleu.metrics.resampling`); the metric scores the resampled
statistics with sacreBLEU's arithmetic (:meth:`Metric.resample_scores
<rapidbleu.metrics.Metric.resample_scores>`: float32 sums, and float32 scores where sacreBLEU's
are float32); means, differences and p-values are computed here with NumPy on arrays of the
same dtypes as sacreBLEU's, so they round alike.

Seeds: ``SACREBLEU_SEED`` (default ``12345``; ``none``: fresh entropy), as in sacreBLEU; the
functions here also take ``seed=`` directly (:func:`rapidbleu._config.seed`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

import rapidbleu._config as _config
from rapidbleu._config import Seed
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics import resampling
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.metrics.layout import Rows
from rapidbleu.metrics.score import Signature

__all__ = [
    "PairedTest",
    "Result",
    "bootstrap_p_value",
    "bootstrap_scores",
    "estimate_ci",
    "paired_approximate_randomization",
    "paired_bootstrap",
]

Scores = npt.NDArray[Any]


class Result:
    """One system's result (sacreBLEU's ``significance.Result``).

    Attributes:
        score: The system's corpus score.
        p_value: p-value of the paired test against the baseline (``None`` for the baseline).
        mean: Bootstrap estimate of the true mean (``None`` without resampling).
        ci: Half-width of the 95% confidence interval around ``mean``.

    Example:
        >>> Result(20.5, 0.01)
        score=20.5,p_value=0.01,mean=None,ci=None
    """

    def __init__(
        self,
        score: float,
        p_value: float | None = None,
        mean: float | None = None,
        ci: float | None = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join([f"{k}={v!s}" for k, v in self.__dict__.items()])


def estimate_ci(scores: Scores) -> tuple[Any, Any]:
    """Mean and 95% confidence half-width of resampled scores (sacreBLEU's ``estimate_ci``).

    Args:
        scores: Scores of the resamples (a non-empty array).

    Returns:
        ``(mean, ci)``: NumPy's mean, and half the distance between the ``n // 40``-th and the
        ``n - n // 40 - 1``-th smallest scores, as NumPy scalars of the scores' dtype.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``scores`` is empty.

    Example:
        >>> m, ci = estimate_ci(np.array([1.0, 2.0, 3.0, 4.0]))
        >>> float(m), float(ci)
        (2.5, 1.5)
    """
    scores = np.sort(np.asarray(scores))
    n = len(scores)
    if n == 0:
        raise InvalidOptionError("estimate_ci needs at least one resampled score, got none")
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    ci = 0.5 * (scores[upper_idx] - scores[lower_idx])
    return scores.mean(), ci


def _p_value(stats: Scores, real_difference: float) -> float:
    """SacreBLEU's ``_compute_p_value`` (multeval): ``(#(stats > delta) + 1) / (n + 1)``."""
    c = int(np.sum(stats > real_difference))
    return (c + 1) / (len(stats) + 1)


def bootstrap_p_value(
    baseline_scores: Scores, system_scores: Scores, baseline: float, system: float
) -> float:
    """The p-value of sacreBLEU's paired bootstrap from paired resampled scores.

    SacreBLEU's ``_paired_bs_test``: the resampled absolute differences, centred on their mean,
    against the real absolute difference (``_compute_p_value``). The resamples of both systems
    must be the same draws (paired).

    Args:
        baseline_scores: The baseline's score on each resample.
        system_scores: The system's score on the same resamples.
        baseline: The baseline's corpus score.
        system: The system's corpus score.

    Returns:
        ``(#(centred differences > |baseline - system|) + 1) / (n + 1)``.

    Example:
        >>> bootstrap_p_value(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 4.0]), 2.0, 2.5)
        0.25
    """
    sample_diffs = np.abs(system_scores - baseline_scores)
    stats = sample_diffs - sample_diffs.mean()
    return _p_value(stats, abs(baseline - system))


def check_samples(n: Any, what: str) -> int:
    """A positive number of resamples or trials, at most :data:`rapidbleu._config.MAX_RESAMPLES`.

    Example:
        >>> check_samples(np.int64(5), "n_samples")
        5
    """
    value = _config.integer(n)
    if value is None or not 1 <= value <= _config.MAX_RESAMPLES:
        raise InvalidOptionError(
            f"{what} must be an integer from 1 to {_config.MAX_RESAMPLES:,}, got {n!r}"
        )
    return value


def bootstrap_scores(
    metric: Metric[Any],
    hypotheses: Sequence[Any],
    references: Any,
    n_samples: int = 1000,
    seed: Seed = "env",
) -> Scores:
    """Corpus scores of bootstrap resamples of a system (sacreBLEU's draws and arithmetic).

    Args:
        metric: The metric (its options decide the score).
        hypotheses: The system's segments.
        references: Reference streams (``None``: the metric's cached references).
        n_samples: Number of resamples.
        seed: Seed of ``np.random.default_rng`` (``"env"``: ``$SACREBLEU_SEED``, default 12345).

    Returns:
        ``n_samples`` scores (float64 for BLEU; sacreBLEU's dtype for each metric).

    Example:
        >>> s = bootstrap_scores(BLEU(), ["a b c d", "e f g h"], [["a b c d", "e f x h"]], 5)
        >>> s.shape
        (5,)
    """
    n_samples = check_samples(n_samples, "n_samples")
    rows = metric.statistics(hypotheses, references)
    idxs = resampling.bootstrap_indices(_config.seed(seed)[1], n_samples, len(rows))
    return metric.resample_scores(rows, idxs)


class _Draws:
    """Draws and resampled baseline scores, made once per seed and shared by every system.

    With a fixed seed sacreBLEU draws the very same indices (masks) for every system, and so
    resamples the baseline identically for every system: drawing and resampling once gives the
    same numbers without repeating the work. With no seed every call draws afresh.
    """

    def __init__(self, seed: int | None) -> None:
        self.seed = seed
        self._memo: dict[Any, Any] | None = None if seed is None else {}

    def get(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        if self._memo is None:
            return make()
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def bootstrap(self, n_samples: int, n: int) -> npt.NDArray[np.int64]:
        return self.get(  # type: ignore[no-any-return]
            ("bs", n_samples, n),
            lambda: resampling.bootstrap_indices(self.seed, n_samples, n),
        )

    def randomization(
        self, n_samples: int, n: int, n_confidence: int
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64] | None]:
        return self.get(  # type: ignore[no-any-return]
            ("ar", n_samples, n, n_confidence),
            lambda: resampling.randomization_draws(self.seed, n_samples, n, n_confidence),
        )

    def counts(self, n_samples: int, n: int) -> npt.NDArray[np.float64] | None:
        """How often each segment is drawn in each resample (see ``sums.counts_matrix``)."""
        idxs = self.bootstrap(n_samples, n)
        return self.get(  # type: ignore[no-any-return]
            ("counts", n_samples, n), lambda: resampling.counts_matrix(idxs, n)
        )

    def resampled(self, metric: Metric[Any], rows: Rows, n_samples: int) -> Scores:
        """The metric's scores of the bootstrap resamples of ``rows`` (the baseline's)."""
        idxs = self.bootstrap(n_samples, len(rows))
        return self.get(  # type: ignore[no-any-return]
            ("scores", id(metric), n_samples, len(rows)),
            lambda: metric.resample_scores(rows, idxs),
        )


class PairedTest:
    """Paired tests of several systems against the first (sacreBLEU's ``PairedTest``).

    Args:
        named_systems: ``(name, hypotheses)`` pairs; the first is the baseline.
        metrics: Metrics by name (any :class:`~rapidbleu.metrics.Metric`; the key is replaced
            by the score's name, as in sacreBLEU).
        references: Reference streams, or ``None`` to use each metric's cached references.
        test_type: ``"ar"`` (approximate randomisation) or ``"bs"`` (paired bootstrap).
        n_samples: Trials (``ar``, default 10000) or resamples (``bs``, default 1000); 0 or less
            uses the default.
        n_ar_confidence: With ``ar``, bootstrap resamples for confidence intervals (-1: none,
            0: 1000).
        n_jobs: Accepted for compatibility; the resampled sums already run on all cores.
        seed: ``"env"`` (default): ``$SACREBLEU_SEED`` as sacreBLEU reads it (default 12345);
            or an int, or ``None`` for fresh entropy.

    Example:
        >>> refs = [["a b c d e", "f g h i j", "k l m n o"]]
        >>> systems = [("bl", ["a b c d e", "f g h x j", "k l m n o"]),
        ...            ("sys", ["a b c d x", "f g h i j", "k l m n o"])]
        >>> sigs, scores = PairedTest(systems, {"BLEU": BLEU()}, refs, "bs", 100)()
        >>> scores["System"], round(scores["BLEU"][1].p_value, 4)
        (['bl', 'sys'], 0.297)
    """

    _DEFAULT_SAMPLES: Mapping[str, int] = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[Any]]],
        metrics: Mapping[str, Metric[Any]],
        references: Any,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
        seed: Seed = "env",
    ) -> None:
        if test_type not in ("ar", "bs"):
            raise InvalidOptionError(f"unknown test_type {test_type!r}; allowed: ar, bs")
        if len(named_systems) < 2:
            raise InvalidOptionError(
                "paired tests need at least two systems: the baseline (first) and one more"
            )
        self.test_type = test_type
        seed_text, self._seed = _config.seed(seed)
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else 1000
        if self.n_ar_confidence > 0:
            check_samples(self.n_ar_confidence, "n_ar_confidence")
        self.n_samples = (
            check_samples(n_samples, "n_samples")
            if n_samples > 0
            else self._DEFAULT_SAMPLES[test_type]
        )
        self.n_systems = len(named_systems) - 1
        self._signatures: dict[str, Signature] = {}
        self._baseline_info: dict[str, tuple[Rows, Result]] = {}
        self.metrics: dict[str, Metric[Any]] = {}
        # sacreBLEU resamples the baseline with a generator seeded from the environment
        # (`_bootstrap_resample`): with the same seed, these are the draws every system gets.
        self._draws = _Draws(self._seed)

        _, bl_hyps = self.named_systems[0]
        for metric in metrics.values():
            bl_rows = metric.statistics(bl_hyps, references)
            bl_score = metric.score_totals(metric.total(bl_rows))
            confidence_n = self.n_samples if test_type == "bs" else self.n_ar_confidence
            bl_mean = bl_ci = None
            if confidence_n > 0:
                bl_mean, bl_ci = estimate_ci(self._draws.resampled(metric, bl_rows, confidence_n))
            self._baseline_info[bl_score.name] = (
                bl_rows,
                Result(bl_score.score, None, bl_mean, bl_ci),
            )
            self.metrics[bl_score.name] = metric
            sig = metric.get_signature()
            sig.update("seed", seed_text)
            sig.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[bl_score.name] = sig

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        """Runs the test on every system.

        Returns:
            The signatures by metric name, and a table: ``"System"`` -> names, then each metric
            name -> one :class:`Result` per system (the baseline first).
        """
        scores: dict[str, list[Any]] = {"System": [ns[0] for ns in self.named_systems]}
        for name, (_, result) in self._baseline_info.items():
            scores[name] = [result]
        # sacreBLEU: `seed = self._seed if self._seed else None` (a seed of 0 means random).
        draws = self._draws if self._seed else _Draws(None)
        for name, metric in self.metrics.items():
            bl_rows, bl_result = self._baseline_info[name]
            systems = [
                metric.statistics(hyps, self.references) for _, hyps in self.named_systems[1:]
            ]
            sums: list[Rows | None] = [None] * len(systems)
            if self.test_type == "bs" and draws.seed is not None and metric.additive:
                counts = draws.counts(self.n_samples, len(bl_rows))
                shared = None if counts is None else resampling.sums_by_counts(counts, systems)
                if shared is not None:
                    sums = list(shared)
            for sys_rows, sys_sums in zip(systems, sums):
                if self.test_type == "bs":
                    res = _paired_bs(
                        metric, draws, bl_rows, bl_result.score, sys_rows, self.n_samples, sys_sums
                    )
                else:
                    res = _paired_ar(
                        metric,
                        draws,
                        bl_rows,
                        bl_result.score,
                        sys_rows,
                        self.n_samples,
                        self.n_ar_confidence,
                    )
                scores[name].append(res)
        return self._signatures, scores


def _paired_bs(
    metric: Metric[Any],
    draws: _Draws,
    bl_rows: Rows,
    bl_score: float,
    sys_rows: Rows,
    n_samples: int,
    sums: Rows | None,
) -> Result:
    """SacreBLEU's ``_paired_bs_test`` for one system and one metric."""
    idxs = draws.bootstrap(n_samples, len(sys_rows))
    sys_score = metric.score_totals(metric.total(sys_rows)).score
    scores_bl = draws.resampled(metric, bl_rows, n_samples)
    scores_sys = metric.resample_scores(sys_rows, idxs, sums)
    sys_mean, sys_ci = estimate_ci(scores_sys)
    return Result(
        sys_score, bootstrap_p_value(scores_bl, scores_sys, bl_score, sys_score), sys_mean, sys_ci
    )


def _paired_ar(
    metric: Metric[Any],
    draws: _Draws,
    bl_rows: Rows,
    bl_score: float,
    sys_rows: Rows,
    n_samples: int,
    n_confidence: int,
) -> Result:
    """SacreBLEU's ``_paired_ar_test`` for one system and one metric."""
    masks, bs_idxs = draws.randomization(n_samples, len(sys_rows), n_confidence)
    sys_score = metric.score_totals(metric.total(sys_rows)).score
    diff = abs(bl_score - sys_score)
    shuf_a, shuf_b = metric.randomization_sums(bl_rows, sys_rows, masks)
    scores_a = metric.randomization_scores(shuf_a)
    scores_b = metric.randomization_scores(shuf_b)
    res = Result(sys_score, _p_value(np.abs(scores_a - scores_b), diff))
    if bs_idxs is not None:
        res.mean, res.ci = estimate_ci(metric.resample_scores(sys_rows, bs_idxs))
    return res


def _named(systems: Sequence[Any]) -> list[tuple[str, Sequence[Any]]]:
    out: list[tuple[str, Sequence[Any]]] = []
    for i, s in enumerate(systems):
        if isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str):
            out.append((s[0], s[1]))
        else:
            out.append((f"System {i + 1}" if i else "Baseline", s))
    return out


def paired_bootstrap(
    systems: Sequence[Any],
    references: Any,
    metric: Metric[Any] | None = None,
    n_samples: int = 1000,
    seed: Seed = "env",
) -> list[Result]:
    """Paired bootstrap resampling of every system against the first (sacreBLEU ``-pbs``).

    Args:
        systems: Hypothesis lists, or ``(name, hypotheses)`` pairs; the first is the baseline.
        references: Reference streams.
        metric: The metric (default ``BLEU()``).
        n_samples: Bootstrap resamples (sacreBLEU's default 1000).
        seed: ``"env"``: ``$SACREBLEU_SEED`` (default 12345); an int; or ``None`` (random).

    Returns:
        One :class:`Result` per system: the baseline's with mean and CI, the others with their
        p-value too.

    Example:
        >>> refs = [["a b c d e", "f g h i j", "k l m n o"]]
        >>> res = paired_bootstrap([["a b c d e", "f g h x j", "k l m n o"],
        ...                         ["a b c d x", "f g h i j", "k l m n o"]], refs, n_samples=100)
        >>> round(res[1].p_value, 4)
        0.297
    """
    m = metric or BLEU()
    test = PairedTest(
        _named(systems),
        {"metric": m},
        references,
        "bs",
        check_samples(n_samples, "n_samples"),
        seed=seed,
    )
    _, scores = test()
    return [r for k, v in scores.items() if k != "System" for r in v]


def paired_approximate_randomization(
    systems: Sequence[Any],
    references: Any,
    metric: Metric[Any] | None = None,
    n_samples: int = 10000,
    n_confidence: int = -1,
    seed: Seed = "env",
) -> list[Result]:
    """Paired approximate randomisation of every system against the first (sacreBLEU ``-par``).

    Args:
        systems: Hypothesis lists, or ``(name, hypotheses)`` pairs; the first is the baseline.
        references: Reference streams.
        metric: The metric (default ``BLEU()``).
        n_samples: Randomisation trials (sacreBLEU's default 10000).
        n_confidence: Bootstrap resamples for confidence intervals (-1: none, 0: 1000).
        seed: ``"env"``: ``$SACREBLEU_SEED`` (default 12345); an int; or ``None`` (random).

    Returns:
        One :class:`Result` per system (the baseline first, without a p-value).

    Example:
        >>> refs = [["a b c d e", "f g h i j", "k l m n o"]]
        >>> res = paired_approximate_randomization(
        ...     [["a b c d e", "f g h x j", "k l m n o"], ["a b c d x", "f g h i j", "k l m n o"]],
        ...     refs, n_samples=100)
        >>> res[1].p_value
        0.44554455445544555
    """
    m = metric or BLEU()
    test = PairedTest(
        _named(systems),
        {"metric": m},
        references,
        "ar",
        check_samples(n_samples, "n_samples"),
        n_confidence,
        seed=seed,
    )
    _, scores = test()
    return [r for k, v in scores.items() if k != "System" for r in v]
