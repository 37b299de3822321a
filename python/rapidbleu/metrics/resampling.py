"""Resampling exactly as sacreBLEU does it (``sacrebleu/significance.py``): draws and row sums.

Python decides: the draws are NumPy's (``default_rng(seed)``, ``choice`` for bootstrap indices,
``integers(2, dtype=bool)`` for randomisation masks), made in sacreBLEU's order. The Rust core
sums the selected int64 rows exactly, for rows of any width.

**float32.** sacreBLEU sums bootstrap resamples in float32 (``np.array(stats, 'float32')[idxs]``
then ``.sum(0)``). A float32 sum of integers equals the exact sum whenever it is at most
``2**24`` (every partial sum is then an exactly representable integer, whatever order NumPy adds
in): corpora of up to 16.7 million tokens. :func:`f32_sums` uses the exact sums there and lets
NumPy sum, as sacreBLEU does, above that bound.

Example:
    >>> import numpy as np
    >>> rows = np.array([[1, 2], [3, 4], [5, 6]])
    >>> idxs = bootstrap_indices(12345, 2, 3)
    >>> bool((exact_sums(rows, idxs) == rows[idxs].sum(1)).all())
    True
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt

import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError

__all__ = [
    "F32_EXACT",
    "NUMPY2",
    "bootstrap_indices",
    "counts_matrix",
    "exact_sums",
    "f32_sums",
    "randomization_draws",
    "sums_by_counts",
]

#: Whether NumPy is 2.x: sacreBLEU's float32 arithmetic on resample sums differs from 1.x's.
NUMPY2 = int(np.__version__.split(".")[0]) >= 2
#: float32 sums of integers are exact up to this bound (float32 has a 24-bit significand).
F32_EXACT = 2**24
#: float64 sums of integers are exact up to this bound.
F64_EXACT = 2**53
# Resamples x segments above which the counts matrix is not built (8M: 64 MiB of float64).
_COUNTS_MAX = 8_000_000

Indices = npt.NDArray[np.int64]


def exact_sums(
    rows: npt.NDArray[np.int64],
    idxs: Indices,
    num_threads: int = 0,
    options: _core.MetricOptions[Any, Any, Any] | None = None,
) -> npt.NDArray[np.int64]:
    """``rows[idxs].sum(1)`` in exact int64, summed by the Rust core (any row width).

    ``options``, a metric's core options, sums its usual row widths with vectorised kernels;
    without them (a metric computed in Python) a general loop gives the same sums.

    Example:
        >>> exact_sums(np.array([[1], [2]]), np.array([[0, 0], [1, 0]])).tolist()
        [[2], [3]]
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    if options is None:
        return _core.bootstrap_sums(rows, idxs, num_threads)
    return options.bootstrap_sums(rows, idxs, num_threads)


def counts_matrix(idxs: Indices, n: int) -> npt.NDArray[np.float64] | None:
    """How often each of ``n`` segments is drawn in each resample (float64), or None if large.

    Performance decision: with a fixed seed every system is resampled with the same indices,
    so their sums are this one matrix times each system's rows: a BLAS product, several times
    faster than summing the drawn rows system by system.

    Example:
        >>> counts_matrix(np.array([[0, 0, 2]]), 3).tolist()
        [[2.0, 0.0, 1.0]]
    """
    if idxs.size > _COUNTS_MAX:
        return None
    offsets = np.arange(len(idxs), dtype=np.int64)[:, None] * n
    flat = np.bincount((offsets + idxs).ravel(), minlength=len(idxs) * n)
    return flat.reshape(len(idxs), n).astype(np.float64)


def sums_by_counts(
    counts: npt.NDArray[np.float64], systems: list[npt.NDArray[np.int64]]
) -> list[npt.NDArray[np.int64]] | None:
    """Every system's resampled sums from one product ``counts @ rows``, or None if not exact.

    Performance decision: one wide product (all systems' rows side by side) instead of one
    narrow product per system; it also keeps NumPy's BLAS threads, which spin for a while after
    a product, from competing with the engine's threads between systems.

    Example:
        >>> c = counts_matrix(np.array([[0, 0]]), 2)
        >>> [s.tolist() for s in sums_by_counts(c, [np.array([[1], [5]])])]
        [[[2]]]
    """
    n = counts.shape[1]
    largest = max(int(np.abs(rows).max(initial=0)) for rows in systems)
    if largest * n >= F64_EXACT:
        return None
    # Exact: every product and partial sum is an integer below 2**53.
    wide = np.rint(counts @ np.hstack(systems).astype(np.float64)).astype(np.int64)
    return list(np.split(wide, len(systems), axis=1))


def f32_sums(
    sums: npt.NDArray[np.int64], rows: npt.NDArray[np.int64], idxs: Indices
) -> npt.NDArray[np.float32]:
    """SacreBLEU's float32 resample sums ``np.array(rows, 'float32')[idxs].sum(1)``.

    Args:
        sums: The exact int64 sums of the same resamples.
        rows: The statistics rows.
        idxs: The resample indices.

    Returns:
        The float32 sums: the exact sums cast, except for resamples with a sum above
        :data:`F32_EXACT`, which NumPy sums in float32 as sacreBLEU does.

    Example:
        >>> f32_sums(np.array([[3]]), np.array([[1], [2]]), np.array([[0, 1]])).dtype
        dtype('float32')
    """
    f32 = sums.astype(np.float32)
    big = np.flatnonzero((sums > F32_EXACT).any(axis=1))
    if len(big):
        # Beyond 2**24 float32 rounding depends on NumPy's summation order: let NumPy sum.
        rows32 = np.asarray(rows, dtype=np.float32)
        for k in big:
            f32[k] = rows32[idxs[k]].sum(0)
    return f32


def _check_memory(n_samples: int, n: int, itemsize: int, what: str) -> None:
    """Refuses draws that cannot fit in half of this machine's memory, with a clear message.

    sacreBLEU draws every resample at once (one ``n_samples x n`` matrix); so does rapidbleu, to
    draw the very same numbers. Beyond memory that is a crash or the kernel's OOM killer.
    """
    need = n_samples * n * itemsize
    try:
        have = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        return
    if need > have // 2:
        raise InvalidOptionError(
            f"{n_samples:,} {what} of {n:,} segments need {need / 2**30:.1f} GiB at once (as in "
            f"sacreBLEU), more than half of this machine's {have / 2**30:.1f} GiB; use fewer"
        )


def bootstrap_indices(seed: int | None, n_samples: int, n: int) -> Indices:
    """The bootstrap resample indices of sacreBLEU: ``default_rng(seed).choice(n, (n_samples, n))``.

    Raises:
        rapidbleu.errors.InvalidOptionError: The indices would not fit in memory.

    Example:
        >>> bootstrap_indices(1, 1, 4).tolist()
        [[1, 2, 3, 3]]
    """
    _check_memory(n_samples, n, 8, "bootstrap resamples")
    rng = np.random.default_rng(seed)
    return rng.choice(n, size=(n_samples, n), replace=True)


def randomization_draws(
    seed: int | None, n_samples: int, n: int, n_confidence: int
) -> tuple[npt.NDArray[np.bool_], Indices | None]:
    """SacreBLEU's ``_paired_ar_test`` draws: the swap masks, then (optionally) CI indices.

    Args:
        seed: Seed of ``default_rng`` (``None``: fresh entropy).
        n_samples: Randomisation trials.
        n: Segments.
        n_confidence: Bootstrap resamples for a confidence interval (0 or less: none).

    Returns:
        ``(masks, indices)``: a ``(n_samples, n)`` bool matrix (True: the baseline's segment
        goes to the first pseudo-system) and the bootstrap indices or ``None``.

    Example:
        >>> masks, idxs = randomization_draws(1, 2, 3, 0)
        >>> masks.shape, idxs is None
        ((2, 3), True)
    """
    _check_memory(n_samples, n, 1, "randomisation trials")
    _check_memory(max(n_confidence, 0), n, 8, "bootstrap resamples")
    rng = np.random.default_rng(seed)
    masks = rng.integers(2, size=(n_samples, n), dtype=bool)
    idxs = rng.choice(n, size=(n_confidence, n), replace=True) if n_confidence > 0 else None
    return masks, idxs
