"""The Poisson bootstrap: resampling weights that every block draws on its own.

sacreBLEU's bootstrap (``-ci``, ``--paired-bs``) draws each resample as ``n`` indices with
replacement from the whole corpus: one generator, one sequential draw over every segment. A
distributed corpus has no such place. The **Poisson bootstrap** (Hanley & MacGibbon 2006;
Chamandy et al. 2012, "Estimating uncertainty for massive data streams") gives each segment an
independent Poisson(1) weight in each resample instead of a multinomial count: resample ``k``
holds ``w[k, i]`` copies of segment ``i``. Its resamples vary in size (``n`` on average), and
for the corpus sizes that need a cluster it estimates the same sampling distribution. It is
the distributed counterpart of sacreBLEU's bootstrap, **not the same draw**: its intervals
agree with sacreBLEU's statistically, not digit for digit.

**The draw.** Rows are grouped in chunks of :data:`CHUNK_ROWS` by their index in the dataset.
Chunk ``c`` draws its weights for every resample from
``PCG64(SeedSequence([seed, c]))``: ``n_samples * CHUNK_ROWS`` 32-bit uniforms (each 64-bit
output gives its low half, then its high half), resample ``k`` taking uniforms
``k * CHUNK_ROWS`` to ``(k + 1) * CHUNK_ROWS - 1``, each turned into a weight by inverting
Poisson(1)'s distribution function on 2**32 steps (:data:`THRESHOLDS`). A row's weights thus
depend only on the seed and the row's index: not on the blocks, on which worker draws them,
in which order, or after how many retries. Resample ``k`` is the same whatever the number of
resamples. NumPy guarantees that ``SeedSequence`` and ``PCG64``'s raw output stay the same
across versions.

**Exact sums.** A resample's statistics are the weighted sums of the rows: integers, computed
exactly (a float64 product checked to stay below 2**53, else int64), so blocks add them in any
order (additive metrics). Other metrics fold ``w`` copies of each row, in segment order, with
the metric's ``accumulate`` (:func:`fold_resamples`). Resampled scores come from the metric's
corpus formula on those statistics (``score_rows``; sacreBLEU's float32 resample arithmetic
belongs to its own draw).

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> rows = BLEU().statistics(["a b c", "d e", "f"], [["a b c", "d x", "f"]])
    >>> scores = bootstrap_scores(BLEU(), rows, n_samples=4, seed=12345)
    >>> scores.shape
    (4,)
    >>> bool((resampled_sums(rows[:2], 12345, 4) + resampled_sums(rows[2:], 12345, 4, start=2)
    ...       == resampled_sums(rows, 12345, 4)).all())
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

import rapidbleu._config as _config
from rapidbleu._config import Seed
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.layout import Rows

__all__ = [
    "CHUNK_ROWS",
    "MAX_POISSON_SAMPLES",
    "THRESHOLDS",
    "bootstrap_scores",
    "check_samples",
    "chunk_weights",
    "fold_resamples",
    "resampled_scores",
    "resampled_sums",
    "seed_of",
    "weights",
]

#: Rows per chunk of draws. Small enough that a block's first and last partial chunks cost
#: little extra drawing, large enough that seeding a generator per chunk is negligible.
CHUNK_ROWS = 1024
#: The most resamples one run may draw (each is a weight per row).
MAX_POISSON_SAMPLES = 100_000
#: ``round(2**32 * P(X <= k))`` for X ~ Poisson(1), k = 0..11 (computed with 60 digits; the
#: next one rounds to 2**32). A uniform ``u`` in ``[0, 2**32)`` gives the weight
#: ``#{k: u >= THRESHOLDS[k]}``: Poisson(1) to within 2**-33 per value, at most 12.
THRESHOLDS = (
    1580030169,
    3160060337,
    3950075422,
    4213413783,
    4279248374,
    4292415292,
    4294609778,
    4294923276,
    4294962463,
    4294966817,
    4294967253,
    4294967292,
)
_LARGEST_WEIGHT = len(THRESHOLDS)
_F64_EXACT = 2**53

Weights = npt.NDArray[np.uint8]


def seed_of(seed: Seed) -> tuple[str, int]:
    """The seed of a run and its text for the signature.

    Args:
        seed: ``"env"``: ``$SACREBLEU_SEED`` (default 12345); an int >= 0; or ``None``: a
            fresh seed, drawn once here so that every block uses the same one.

    Returns:
        ``(text, seed)``; the text is ``none`` for a fresh seed, as in sacreBLEU.

    Example:
        >>> seed_of(7)
        ('7', 7)
    """
    text, value = _config.seed(seed)
    if value is None:
        value = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    return text, value


def check_samples(n_samples: Any) -> int:
    """A number of resamples: an int from 1 to :data:`MAX_POISSON_SAMPLES`.

    Example:
        >>> check_samples(1000)
        1000
    """
    if (
        isinstance(n_samples, bool)
        or not isinstance(n_samples, (int, np.integer))
        or not 1 <= n_samples <= MAX_POISSON_SAMPLES
    ):
        raise InvalidOptionError(
            f"the number of resamples must be an integer from 1 to {MAX_POISSON_SAMPLES:,}, "
            f"got {n_samples!r}"
        )
    return int(n_samples)


def chunk_weights(seed: int, n_samples: int, chunk: int) -> Weights:
    """The Poisson(1) weights of chunk ``chunk``: rows ``chunk * CHUNK_ROWS`` onwards.

    Args:
        seed: The run's seed (an int >= 0).
        n_samples: Resamples.
        chunk: The chunk's index in the dataset.

    Returns:
        A ``(n_samples, CHUNK_ROWS)`` uint8 array: row ``k`` holds resample ``k``'s weights.

    Example:
        >>> chunk_weights(1, 2, 0).shape
        (2, 1024)
    """
    size = n_samples * CHUNK_ROWS
    bits = np.random.PCG64(np.random.SeedSequence([seed, chunk])).random_raw((size + 1) // 2)
    # Little-endian view: the low half of each 64-bit output first, on every platform.
    uniforms = bits.astype("<u8").view("<u4")[:size].reshape(n_samples, CHUNK_ROWS)
    out = np.zeros(uniforms.shape, dtype=np.uint8)
    for threshold in THRESHOLDS:
        # Inversion of the distribution function: count the thresholds at or below u.
        np.add(out, uniforms >= np.uint32(threshold), out=out, casting="unsafe")
    return out


def _pieces(seed: int, n_samples: int, start: int, stop: int) -> Iterator[tuple[int, Weights]]:
    """``(offset, weights)`` for rows ``start..stop-1``, one chunk at a time.

    ``offset`` is the piece's first row relative to ``start``; ``weights`` has one column per
    row of the piece.
    """
    first, last = start // CHUNK_ROWS, (stop - 1) // CHUNK_ROWS
    for chunk in range(first, last + 1):
        lo = max(start, chunk * CHUNK_ROWS)
        hi = min(stop, (chunk + 1) * CHUNK_ROWS)
        w = chunk_weights(seed, n_samples, chunk)
        yield lo - start, w[:, lo - chunk * CHUNK_ROWS : hi - chunk * CHUNK_ROWS]


def weights(seed: int, n_samples: int, start: int, stop: int) -> Weights:
    """The weights of rows ``start..stop-1`` of a dataset, ``(n_samples, stop - start)``.

    Example:
        >>> w = weights(5, 3, 1000, 1100)
        >>> bool((w == weights(5, 3, 0, 2000)[:, 1000:1100]).all()), int(w.max()) <= 12
        (True, True)
    """
    if stop <= start:
        return np.zeros((n_samples, 0), dtype=np.uint8)
    return np.hstack([w for _, w in _pieces(seed, n_samples, start, stop)])


def resampled_sums(rows: Rows, seed: int, n_samples: int, start: int = 0) -> Rows:
    """Each resample's weighted column sums of ``rows`` (rows ``start..`` of the dataset), exact.

    Sums over blocks add up to the sums over the corpus, in any order (they are integers).

    Args:
        rows: Statistics rows, ``(n, width)``.
        seed: The run's seed.
        n_samples: Resamples.
        start: The index of ``rows[0]`` in the dataset.

    Returns:
        ``(n_samples, width)`` int64.

    Example:
        >>> resampled_sums(np.array([[1, 2]]), 3, 2).shape
        (2, 2)
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    out = np.zeros((n_samples, rows.shape[1]), dtype=np.int64)
    if len(rows) == 0:
        return out
    largest = int(np.abs(rows).max(initial=0))
    # float64 BLAS is exact while every product and partial sum of a chunk stays below 2**53.
    exact_in_f64 = largest * _LARGEST_WEIGHT * CHUNK_ROWS < _F64_EXACT
    for offset, w in _pieces(seed, n_samples, start, start + len(rows)):
        piece = rows[offset : offset + w.shape[1]]
        if exact_in_f64:
            out += np.rint(w.astype(np.float64) @ piece.astype(np.float64)).astype(np.int64)
        else:
            out += w.astype(np.int64) @ piece
    return out


def fold_resamples(
    metric: Metric[Any],
    totals: list[Any] | None,
    rows: Rows,
    seed: int,
    n_samples: int,
    start: int = 0,
) -> list[Any]:
    """Folds the next rows into each resample's statistics, in order (any metric).

    Resample ``k`` of ``rows`` is ``np.repeat(rows, w[k], axis=0)``: each row ``w`` times, in
    segment order, folded with ``metric.accumulate``. For metrics that are not additive this is
    the only exact way; for additive ones it equals :func:`resampled_sums`.

    Args:
        metric: The metric.
        totals: Each resample's statistics so far (``None`` before the first rows).
        rows: The next rows, rows ``start..`` of the dataset.
        seed: The run's seed.
        n_samples: Resamples.
        start: The index of ``rows[0]`` in the dataset.

    Returns:
        The updated statistics of every resample.
    """
    out: list[Any] = [None] * n_samples if totals is None else list(totals)
    if len(rows) == 0:
        return out
    for offset, w in _pieces(seed, n_samples, start, start + len(rows)):
        piece = rows[offset : offset + w.shape[1]]
        for k in range(n_samples):
            out[k] = metric.accumulate(out[k], np.repeat(piece, w[k], axis=0))
    return out


def resampled_scores(metric: Metric[Any], totals: Any) -> npt.NDArray[Any]:
    """The corpus score of each resample's statistics.

    Args:
        metric: The metric.
        totals: ``(n_samples, width)`` int64 sums (additive metrics), or a list of each
            resample's statistics as ``accumulate`` returns them.

    Returns:
        One score per resample.
    """
    if isinstance(totals, np.ndarray):
        return metric.score_rows(totals)
    return np.array([metric.score_totals(t).score for t in totals])


def bootstrap_scores(
    metric: Metric[Any], rows: Rows, n_samples: int = 1000, seed: Seed = "env"
) -> npt.NDArray[Any]:
    """Poisson-bootstrap scores of a whole corpus in this process: the distributed draw, here.

    A distributed run over the same rows in the same order, split into blocks in any way,
    gives these scores exactly.

    Args:
        metric: The metric.
        rows: The corpus's statistics rows, in order.
        n_samples: Resamples.
        seed: ``"env"`` (``$SACREBLEU_SEED``, default 12345) or an int >= 0. (``None`` draws
            a fresh seed that this function does not return: use :func:`seed_of` first.)

    Returns:
        One score per resample.
    """
    n_samples = check_samples(n_samples)
    _, value = seed_of(seed)
    if metric.additive:
        return resampled_scores(metric, resampled_sums(rows, value, n_samples))
    return resampled_scores(metric, fold_resamples(metric, None, rows, value, n_samples))
