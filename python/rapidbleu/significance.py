"""Paired significance tests and bootstrap confidence intervals (``sacrebleu/significance.py``).

p-values, means and confidence intervals equal sacreBLEU 2.6.0's with ``==`` for the same
seed: the random draws are NumPy's, made exactly as sacreBLEU makes them
(``np.random.default_rng(seed)``, then ``rng.choice`` for bootstrap indices and
``rng.integers(2, dtype=bool)`` for randomisation masks), and every sum and score is computed
with sacreBLEU's arithmetic. Python decides (seeds, draws, means, p-values); the Rust core sums
the selected statistics rows and scores the sums.

**float32.** sacreBLEU sums bootstrap resamples in float32 (``np.array(stats, 'float32')[idxs]
.sum(0)``) and, under NumPy >= 2, computes the precisions of those sums in float32 too. The core
sums in exact int64; a float32 sum equals the exact sum whenever it is at most ``2**24`` (every
partial sum is then an exactly representable integer, whatever order NumPy adds in), which holds
for corpora of up to 16.7 million tokens. Resamples above that bound are summed by NumPy itself,
as sacreBLEU does. The precisions are then computed in float32 in Rust (``compute_bleu_f32``).
Approximate randomisation sums int64 masks products in sacreBLEU, which are exact.

Seeds: ``SACREBLEU_SEED`` (default ``12345``; ``none``: fresh entropy), as in sacreBLEU; the
functions here also take ``seed=`` directly.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from rapidbleu import _core
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Signature
from rapidbleu.metrics.bleu import BLEU

__all__ = [
    "PairedTest",
    "Result",
    "bootstrap_scores",
    "estimate_ci",
    "paired_approximate_randomization",
    "paired_bootstrap",
]

Stats = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]
#: A seed: an int, ``None`` (entropy from the OS), or ``"env"`` (``$SACREBLEU_SEED``).
Seed = Union[int, None, str]

# sacreBLEU's float32 sums are exact below this bound (float32 has a 24-bit significand).
_F32_EXACT = 2**24
_F64_EXACT = 2**53
# Resamples x segments above which the counts matrix is not built (8M: 64 MiB of float64).
_HISTOGRAM_MAX = 8_000_000
_NUMPY2 = int(np.__version__.split(".")[0]) >= 2


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


def _env_seed() -> tuple[str, int | None]:
    """``$SACREBLEU_SEED`` as sacreBLEU reads it: (its lowercased text, the seed)."""
    seed = os.environ.get("SACREBLEU_SEED", "12345")
    try:
        return seed.lower(), None if seed.lower() == "none" else int(seed)
    except ValueError:
        raise InvalidOptionError(
            f"SACREBLEU_SEED must be an integer or 'none', got {seed!r}"
        ) from None


def _resolve_seed(seed: Seed) -> int | None:
    if seed == "env":
        return _env_seed()[1]
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0):
        return seed
    raise InvalidOptionError(
        f"seed must be a non-negative int, None (random) or 'env' ($SACREBLEU_SEED), got {seed!r}"
    )


def estimate_ci(scores: Scores) -> tuple[float, float]:
    """Mean and 95% confidence half-width of resampled scores (sacreBLEU's ``estimate_ci``).

    Args:
        scores: Scores of the resamples.

    Returns:
        ``(mean, ci)``: NumPy's mean, and half the distance between the ``n // 40``-th and the
        ``n - n // 40 - 1``-th smallest scores.

    Example:
        >>> estimate_ci(np.array([1.0, 2.0, 3.0, 4.0]))
        (2.5, 1.5)
    """
    scores = np.sort(scores)
    n = len(scores)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    ci = 0.5 * (scores[upper_idx] - scores[lower_idx])
    return float(scores.mean()), float(ci)


def _p_value(stats: Scores, real_difference: float) -> float:
    """SacreBLEU's ``_compute_p_value`` (multeval): ``(#(stats > delta) + 1) / (n + 1)``."""
    c = int(np.sum(stats > real_difference))
    return (c + 1) / (len(stats) + 1)


def _scores_of_f32_sums(
    metric: BLEU, sums: Stats, stats: Stats, idxs: npt.NDArray[np.int64]
) -> Scores:
    """Scores of bootstrap sums as sacreBLEU computes them from its float32 sums."""
    f32 = sums.astype(np.float32)
    big = np.flatnonzero((sums > _F32_EXACT).any(axis=1))
    if len(big):
        # Beyond 2**24 float32 rounding depends on NumPy's summation order: let NumPy sum.
        stats32 = np.asarray(stats, dtype=np.float32)
        for k in big:
            f32[k] = stats32[idxs[k]].sum(0)
    if _NUMPY2:
        return _core.bleu_score_rows_f32(f32, metric._options)
    # NumPy 1: a Python float times a float32 scalar is a float64 operation, so the precisions
    # are those of the (integer-valued) float32 sums in double precision.
    return _core.bleu_score_rows(f32.astype(np.int64), metric._options)


def _resample(metric: BLEU, stats: Stats, idxs: npt.NDArray[np.int64]) -> Scores:
    sums = _core.bootstrap_sums(stats, idxs, metric._num_threads)
    return _scores_of_f32_sums(metric, sums, stats, idxs)


def _histogram(idxs: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.float64] | None:
    """How often each of ``n`` segments is drawn in each resample, as a float64 matrix.

    None when that matrix would be too large to be worth it.

    Performance decision: with a fixed seed every system is resampled with the same indices,
    so their sums are one counts matrix times each system's statistics: a BLAS product,
    several times faster than summing the drawn rows per system.
    """
    if idxs.size > _HISTOGRAM_MAX:
        return None
    rows = np.arange(len(idxs), dtype=np.int64)[:, None] * n
    flat = np.bincount((rows + idxs).ravel(), minlength=len(idxs) * n)
    return flat.reshape(len(idxs), n).astype(np.float64)


def _bootstrap_resample(metric: BLEU, stats: Stats, n_samples: int) -> tuple[str, Scores]:
    """Scores of ``n_samples`` resamples seeded by ``$SACREBLEU_SEED``, and the seed's text.

    This is sacreBLEU's ``_bootstrap_resample``.
    """
    seed_text, seed = _env_seed()
    rng = np.random.default_rng(seed)
    idxs = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    return seed_text, _resample(metric, stats, idxs)


def bootstrap_scores(
    metric: BLEU,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]] | None,
    n_samples: int = 1000,
    seed: Seed = "env",
) -> Scores:
    """Corpus scores of bootstrap resamples of a system (sacreBLEU's draws and arithmetic).

    Args:
        metric: The BLEU metric (its options decide the score).
        hypotheses: The system's segments.
        references: Reference streams (``None``: the metric's cached references).
        n_samples: Number of resamples.
        seed: Seed of ``np.random.default_rng`` (``"env"``: ``$SACREBLEU_SEED``, default 12345).

    Returns:
        ``n_samples`` scores, float64.

    Example:
        >>> s = bootstrap_scores(BLEU(), ["a b c d", "e f g h"], [["a b c d", "e f x h"]], 5)
        >>> s.shape
        (5,)
    """
    n_samples = _check_n(n_samples, "n_samples")
    stats = metric._extract_corpus_statistics(hypotheses, references)
    rng = np.random.default_rng(_resolve_seed(seed))
    idxs = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    return _resample(metric, stats, idxs)


def _check_n(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidOptionError(f"{what} must be a positive integer, got {n!r}")
    return int(n)


def _ar_scores(metric: BLEU, sums: Stats) -> Scores:
    """Scores of int64 randomisation sums, as sacreBLEU's ``_aggregate_and_compute`` of a row."""
    options = metric._options
    method, order, k = options.smooth_method, options.max_order, options.smooth_value
    if method == "add-k" and k is not None and float(k) != math.floor(k):
        # sacreBLEU adds k into the int64 row (`correct[n - 1] += smooth_value`), which
        # truncates: the counts become floor(c + k). Same score as no smoothing on those counts,
        # except that a row without matches stays 0 (checked before adding).
        no_match = ~sums[:, 2 : 2 + order].any(axis=1)
        mod = sums.copy()
        mod[:, 3 : 2 + order] = np.floor(mod[:, 3 : 2 + order] + k)
        mod[:, 3 + order : 2 + 2 * order] = np.floor(mod[:, 3 + order : 2 + 2 * order] + k)
        unsmoothed = _core.BleuOptions(
            max_order=order,
            smooth_method="none",
            effective_order=options.effective_order,
            neumaier=options.neumaier,
        )
        out = _core.bleu_score_rows(mod, unsmoothed)
        out[no_match] = 0.0
        return out
    return _core.bleu_score_rows(sums, options)


def _draws(cache: dict[Any, Any] | None, key: tuple[Any, ...], draw: Callable[[], Any]) -> Any:
    """``draw()``, memoised in ``cache`` under ``key`` (``cache`` is None for random seeds).

    With a fixed seed sacreBLEU draws the very same indices (masks) for every system, and so
    resamples the baseline identically for every system: drawing and resampling once gives the
    same numbers without repeating the work.
    """
    if cache is None:
        return draw()
    if key not in cache:
        cache[key] = draw()
    return cache[key]


def _bs_indices(
    cache: dict[Any, Any] | None, seed: int | None, n_samples: int, n: int
) -> npt.NDArray[np.int64]:
    """The resample indices of ``_paired_bs_test``: the same for every system with a seed."""

    def draw() -> npt.NDArray[np.int64]:
        rng = np.random.default_rng(seed)
        return rng.choice(n, size=(n_samples, n), replace=True)

    return _draws(cache, ("bs", seed, n_samples, n), draw)  # type: ignore[no-any-return]


def _bootstrap_sums_of_systems(
    cache: dict[Any, Any], seed: int, n_samples: int, systems: list[Stats]
) -> list[Stats] | None:
    """Every system's resampled sums from one matrix product, or None where not exact.

    Performance decision: one wide product (counts x all systems' rows side by side) instead
    of one narrow product per system; it also keeps NumPy's BLAS threads, which spin for a
    while after a product, from competing with the engine's threads between systems.
    """
    n = len(systems[0])
    idxs = _bs_indices(cache, seed, n_samples, n)
    counts = _draws(cache, ("counts", seed, n_samples, n), lambda: _histogram(idxs, n))
    largest = max(int(np.abs(st).max(initial=0)) for st in systems)
    if counts is None or largest * n >= _F64_EXACT:
        return None
    # Exact: every product and partial sum is an integer below 2**53.
    wide = np.rint(counts @ np.hstack(systems).astype(np.float64)).astype(np.int64)
    return np.split(wide, len(systems), axis=1)


def _paired_bs(
    metric: BLEU,
    bl_stats: Stats,
    bl_score: float,
    sys_stats: Stats,
    n_samples: int,
    seed: int | None,
    cache: dict[Any, Any] | None = None,
    sums: Stats | None = None,
) -> Result:
    """The ``_paired_bs_test`` of sacreBLEU, for one system and one metric.

    ``sums`` are the system's resampled sums when :func:`_bootstrap_sums_of_systems` has
    computed them already.
    """
    n = len(sys_stats)
    idxs = _bs_indices(cache, seed, n_samples, n)
    sys_score = metric._compute_score_from_stats(sys_stats.sum(axis=0)).score
    diff = abs(bl_score - sys_score)
    scores_bl = _draws(
        cache, ("bl", id(metric), seed, n_samples, n), lambda: _resample(metric, bl_stats, idxs)
    )
    if sums is not None:
        scores_sys = _scores_of_f32_sums(metric, sums, sys_stats, idxs)
    else:
        scores_sys = _resample(metric, sys_stats, idxs)
    sys_mean, sys_ci = estimate_ci(scores_sys)
    sample_diffs = np.abs(scores_sys - scores_bl)
    stats = sample_diffs - sample_diffs.mean()
    return Result(sys_score, _p_value(stats, diff), sys_mean, sys_ci)


def _paired_ar(
    metric: BLEU,
    bl_stats: Stats,
    bl_score: float,
    sys_stats: Stats,
    n_samples: int,
    n_ar_confidence: int,
    seed: int | None,
    cache: dict[Any, Any] | None = None,
) -> Result:
    """The ``_paired_ar_test`` of sacreBLEU, for one system and one metric."""
    n = len(sys_stats)

    def draw() -> tuple[Any, Any]:
        rng = np.random.default_rng(seed)
        pos_sel = rng.integers(2, size=(n_samples, n), dtype=bool)
        bs_idxs = None
        if n_ar_confidence > 0:
            bs_idxs = rng.choice(n, size=(n_ar_confidence, n), replace=True)
        return pos_sel, bs_idxs

    pos_sel, bs_idxs = _draws(cache, ("ar", seed, n_samples, n_ar_confidence, n), draw)
    sys_score = metric._compute_score_from_stats(sys_stats.sum(axis=0)).score
    diff = abs(bl_score - sys_score)
    shuf_a, shuf_b = _core.ar_sums(bl_stats, sys_stats, pos_sel, metric._num_threads)
    scores_a = _ar_scores(metric, shuf_a)
    scores_b = _ar_scores(metric, shuf_b)
    res = Result(sys_score, _p_value(np.abs(scores_a - scores_b), diff))
    if bs_idxs is not None:
        res.mean, res.ci = estimate_ci(_resample(metric, sys_stats, bs_idxs))
    return res


class PairedTest:
    """Paired tests of several systems against the first (sacreBLEU's ``PairedTest``).

    Args:
        named_systems: ``(name, hypotheses)`` pairs; the first is the baseline.
        metrics: Metrics by name (BLEU instances; the key is replaced by the score's name).
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
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, BLEU],
        references: Sequence[Sequence[str | None]] | None,
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
        if seed == "env":
            seed_text, self._seed = _env_seed()
        else:
            self._seed = _resolve_seed(seed)
            seed_text = str(self._seed).lower()
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else 1000
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(named_systems) - 1
        self._signatures: dict[str, Signature] = {}
        self._baseline_info: dict[str, tuple[Stats, Result]] = {}
        self.metrics: dict[str, BLEU] = {}
        self._cache: dict[Any, Any] = {}

        _, bl_hyps = self.named_systems[0]
        for metric in metrics.values():
            bl_stats = metric._extract_corpus_statistics(bl_hyps, references)
            bl_score = metric._compute_score_from_stats(bl_stats.sum(axis=0))
            confidence_n = self.n_samples if test_type == "bs" else self.n_ar_confidence
            bl_mean = bl_ci = None
            if confidence_n > 0:
                # sacreBLEU resamples the baseline with a generator seeded from the
                # environment (`_bootstrap_resample`), not with PairedTest's seed rule; with
                # the same seed these are the draws `_paired_bs` makes for every system.
                n = len(bl_stats)

                def draw(n: int = n, size: int = confidence_n) -> npt.NDArray[np.int64]:
                    rng = np.random.default_rng(self._seed)
                    return rng.choice(n, size=(size, n), replace=True)

                cache = None if self._seed is None else self._cache
                idxs = _draws(cache, ("bs", self._seed, confidence_n, n), draw)
                scores = _draws(
                    cache,
                    ("bl", id(metric), self._seed, confidence_n, n),
                    functools.partial(_resample, metric, bl_stats, idxs),
                )
                bl_mean, bl_ci = estimate_ci(scores)
            self._baseline_info[bl_score.name] = (
                bl_stats,
                Result(bl_score.score, mean=bl_mean, ci=bl_ci),
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
        seed = self._seed if self._seed else None
        cache = None if seed is None else self._cache
        for name, metric in self.metrics.items():
            bl_stats, bl_result = self._baseline_info[name]
            systems = [
                metric._extract_corpus_statistics(hyps, self.references)
                for _, hyps in self.named_systems[1:]
            ]
            all_sums: list[Stats | None] = [None] * len(systems)
            if self.test_type == "bs" and seed is not None and systems:
                shared = _bootstrap_sums_of_systems(self._cache, seed, self.n_samples, systems)
                if shared is not None:
                    all_sums = list(shared)
            for sys_stats, sums in zip(systems, all_sums):
                if self.test_type == "bs":
                    res = _paired_bs(
                        metric,
                        bl_stats,
                        bl_result.score,
                        sys_stats,
                        self.n_samples,
                        seed,
                        cache,
                        sums,
                    )
                else:
                    res = _paired_ar(
                        metric,
                        bl_stats,
                        bl_result.score,
                        sys_stats,
                        self.n_samples,
                        self.n_ar_confidence,
                        seed,
                        cache,
                    )
                scores[name].append(res)
        return self._signatures, scores


def _named(systems: Sequence[Any]) -> list[tuple[str, Sequence[str]]]:
    out: list[tuple[str, Sequence[str]]] = []
    for i, s in enumerate(systems):
        if isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str):
            out.append((s[0], s[1]))
        else:
            out.append((f"System {i + 1}" if i else "Baseline", s))
    return out


def paired_bootstrap(
    systems: Sequence[Any],
    references: Sequence[Sequence[str | None]],
    metric: BLEU | None = None,
    n_samples: int = 1000,
    seed: Seed = "env",
) -> list[Result]:
    """Paired bootstrap resampling of every system against the first (sacreBLEU ``-pbs``).

    Args:
        systems: Hypothesis lists, or ``(name, hypotheses)`` pairs; the first is the baseline.
        references: Reference streams.
        metric: The BLEU metric (default ``BLEU()``).
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
    test = PairedTest(
        _named(systems),
        {"BLEU": metric or BLEU()},
        references,
        "bs",
        _check_n(n_samples, "n_samples"),
        seed=seed,
    )
    _, scores = test()
    return [r for k, v in scores.items() if k != "System" for r in v]


def paired_approximate_randomization(
    systems: Sequence[Any],
    references: Sequence[Sequence[str | None]],
    metric: BLEU | None = None,
    n_samples: int = 10000,
    n_confidence: int = -1,
    seed: Seed = "env",
) -> list[Result]:
    """Paired approximate randomisation of every system against the first (sacreBLEU ``-par``).

    Args:
        systems: Hypothesis lists, or ``(name, hypotheses)`` pairs; the first is the baseline.
        references: Reference streams.
        metric: The BLEU metric (default ``BLEU()``).
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
    test = PairedTest(
        _named(systems),
        {"BLEU": metric or BLEU()},
        references,
        "ar",
        _check_n(n_samples, "n_samples"),
        n_confidence,
        seed=seed,
    )
    _, scores = test()
    return [r for k, v in scores.items() if k != "System" for r in v]
