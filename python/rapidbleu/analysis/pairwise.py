"""Sentence-score matrices and minimum Bayes risk (MBR) selection, for any metric.

:func:`pairwise_scores` and :func:`mbr_select` take any :class:`~rapidbleu.metrics.Metric`
(``metric=CHRF()`` for chrF, the usual MBR utility); BLEU's matrices run in the core's own many-
to-many path. :func:`pairwise_bleu` returns the ``N x M`` matrix of sentence BLEU between N
hypotheses and M references: entry ``[i, j]`` equals ``sentence_bleu(hypotheses[i],
[references[j]]).score`` with ``==`` (same options; sentence BLEU's defaults, i.e.
``effective_order=True``). The Rust core tokenizes every sentence once, gives n-grams ids in one
table per group and, per row, looks each reference's n-grams up in the hypothesis' dense count
arrays, in parallel; scores come from the same function as every sentence score.

:func:`mbr_select` picks, per source, the hypothesis with the highest mean (optionally
weighted) BLEU against the pseudo-references. :func:`aggregate_mbr_scores` is linear-time MBR
(DeNero et al., 2009): each hypothesis is scored once against the *expected* n-gram counts of
all pseudo-references (see :func:`aggregate_mbr_statistics` for the exact formula).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
)
from rapidbleu.io.arrow import arrow_text
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.bleu import BLEU

__all__ = [
    "aggregate_mbr_scores",
    "aggregate_mbr_statistics",
    "mbr_select",
    "pairwise_bleu",
    "pairwise_bleu_batch",
    "pairwise_scores",
]

Matrix = npt.NDArray[np.float64]


def _metric(options: dict[str, Any]) -> BLEU:
    """A BLEU metric with sentence BLEU's defaults (``effective_order=True``)."""
    options.setdefault("effective_order", True)
    return BLEU(**options)


def _texts(seq: Any, what: str) -> Sequence[str]:
    seq = arrow_text(seq)  # Arrow text: lines the core holds
    if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence):
        raise InputTypeError(f"{what} must be a sequence (e.g. a list) of str")
    return seq


def _groups(hyp_groups: Any, ref_groups: Any, need_refs: bool) -> list[tuple[Any, Any]]:
    """``(hypotheses, references)`` per group, checked."""
    hyp_groups = _texts(hyp_groups, "hypotheses (a list of groups)")
    if ref_groups is None:
        ref_groups = hyp_groups
    ref_groups = _texts(ref_groups, "references (a list of groups)")
    if len(hyp_groups) != len(ref_groups):
        raise LengthMismatchError(
            f"{len(hyp_groups)} hypothesis groups but {len(ref_groups)} reference groups; "
            "give one list of references per source"
        )
    out = []
    for g, (h, r) in enumerate(zip(hyp_groups, ref_groups)):
        h = _texts(h, f"hypotheses[{g}]")
        r = _texts(r, f"references[{g}]")
        if need_refs and len(r) == 0:
            raise EmptyInputError(f"references[{g}] is empty; give at least one reference")
        out.append((list(h), list(r)))
    return out


def _chosen_metric(metric: Metric[Any] | None, options: dict[str, Any]) -> Metric[Any]:
    """``metric``, or a BLEU with ``options`` and sentence BLEU's defaults."""
    if metric is None:
        return _metric(options)
    if options:
        raise InvalidOptionError(
            "give either metric=... or BLEU options, not both: " + ", ".join(sorted(options))
        )
    return metric


def pairwise_scores(
    hypotheses: Sequence[Sequence[Any]],
    references: Sequence[Sequence[Any]] | None = None,
    metric: Metric[Any] | None = None,
) -> list[Matrix]:
    """Sentence-score matrices of any metric, one per source (pseudo-references per source).

    Args:
        hypotheses: Per source, its N_s hypotheses.
        references: Per source, its M_s references (default: the hypotheses themselves).
        metric: The metric (default: sentence BLEU, ``BLEU(effective_order=True)``).

    Returns:
        Per source, an ``N_s x M_s`` float64 matrix; ``[i, j]`` equals
        ``metric.sentence_score(hypotheses[i], [references[j]]).score``.

    Example:
        >>> [m.shape for m in pairwise_scores([["a b", "a c", "b"]], [["a b", "b"]])]
        [(3, 2)]
    """
    m = _chosen_metric(metric, {})
    return m.pairwise_matrices(_groups(hypotheses, references, need_refs=False))


def pairwise_bleu_batch(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    **options: Any,
) -> list[Matrix]:
    """Sentence-BLEU matrices for many sources at once (parallel over sources).

    Args:
        hypotheses: Per source, its N_s hypotheses.
        references: Per source, its M_s references (default: the hypotheses themselves).
        **options: :class:`~rapidbleu.metrics.BLEU` options (``tokenize``, ``lowercase``,
            ``smooth_method``, ``smooth_value``, ``max_ngram_order``, ``effective_order``
            (default True), ``num_threads``, ...).

    Returns:
        Per source, an ``N_s x M_s`` float64 matrix on sacreBLEU's 0..100 scale.

    Example:
        >>> [m.shape for m in pairwise_bleu_batch([["a b", "a c", "b"]], [["a b", "b"]])]
        [(3, 2)]
    """
    return _metric(options).pairwise_matrices(_groups(hypotheses, references, need_refs=False))


def pairwise_bleu(
    hypotheses: Sequence[str], references: Sequence[str] | None = None, **options: Any
) -> Matrix:
    """The ``N x M`` sentence-BLEU matrix of ``hypotheses`` against ``references``.

    Entry ``[i, j]`` equals ``sentence_bleu(hypotheses[i], [references[j]], **options).score``.

    Args:
        hypotheses: N hypotheses.
        references: M references (default: the hypotheses themselves).
        **options: :class:`~rapidbleu.metrics.BLEU` options (``effective_order`` defaults to
            True, as in ``sentence_bleu``).

    Returns:
        An ``N x M`` float64 array (0..100).

    Example:
        >>> pairwise_bleu(["a b c d", "a b c"], ["a b c d"])
        array([[100.        ],
               [ 71.65313106]])
    """
    return pairwise_bleu_batch(
        [hypotheses], None if references is None else [references], **options
    )[0]


def mbr_select(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    weights: Sequence[Sequence[float]] | None = None,
    metric: Metric[Any] | None = None,
    **options: Any,
) -> npt.NDArray[np.int64]:
    """MBR decoding: per source, the index of the hypothesis with the best expected score.

    The expected score of hypothesis i is the mean of row i of its sentence-score matrix
    against the pseudo-references (``np.average`` with ``weights``, e.g. sample
    probabilities); the best is the highest (the lowest for a metric where lower is better,
    such as TER); ties go to the first hypothesis.

    Args:
        hypotheses: Per source, its candidate hypotheses.
        references: Per source, its pseudo-references (default: the hypotheses themselves).
        weights: Per source, one non-negative weight per pseudo-reference, not all zero
            (default: equal weights).
        metric: The utility (default: sentence BLEU with ``options``).
        **options: :class:`~rapidbleu.metrics.BLEU` options (without ``metric``).

    Returns:
        One index per source (int64).

    Example:
        >>> mbr_select([["a b c d", "a b x d", "a b c e"]])
        array([0])
    """
    chosen = _chosen_metric(metric, options)
    mats = chosen.pairwise_matrices(_groups(hypotheses, references, need_refs=False))
    if weights is not None and len(weights) != len(mats):
        raise LengthMismatchError(
            f"{len(weights)} weight lists for {len(mats)} sources; give one per source"
        )
    best = np.empty(len(mats), dtype=np.int64)
    for s, mat in enumerate(mats):
        if mat.shape[0] == 0 or mat.shape[1] == 0:
            raise EmptyInputError(f"source {s} has no hypotheses or no pseudo-references")
        if weights is None:
            expected = mat.mean(axis=1)
        else:
            w = np.asarray(weights[s], dtype=np.float64)
            if w.shape != (mat.shape[1],):
                raise LengthMismatchError(
                    f"weights[{s}] has {w.size} values for {mat.shape[1]} pseudo-references"
                )
            if not (np.isfinite(w).all() and (w >= 0).all() and w.sum() > 0):
                raise InvalidOptionError(
                    f"weights[{s}] must be finite and non-negative, and not all zero"
                )
            expected = np.average(mat, axis=1, weights=w)
        pick = np.argmax if chosen.higher_is_better else np.argmin
        best[s] = int(pick(expected))
    return best


def aggregate_mbr_statistics(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    **options: Any,
) -> list[npt.NDArray[np.int64]]:
    """Statistics of each hypothesis against the averaged n-gram counts of the references.

    With M pseudo-references and ``S(g) = sum_r count_r(g)`` (so the expected count is
    ``S(g) / M``), each hypothesis h gets the sacreBLEU row, scaled by M to stay exact::

        hyp_len   = M * len(h)
        ref_len   = sum_r len(r)                            (M * the mean reference length)
        correct_n = sum_{g in h, |g| = n} min(M * count_h(g), S(g))
        total_n   = M * max(0, len(h) - n + 1)

    Every ratio in BLEU (precisions, length ratio) equals that of the fractional statistics
    ``E[...] = row / M``; smoothing that adds to absolute counts (``exp``, ``floor``, ``add-k``)
    sees the scaled counts.

    Args:
        hypotheses: Per source, its hypotheses.
        references: Per source, its pseudo-references (default: the hypotheses).
        **options: :class:`~rapidbleu.metrics.BLEU` options (tokenizer, lowercase, order).

    Returns:
        Per source, an ``N_s x (2 + 2 * max_ngram_order)`` int64 array.

    Example:
        >>> aggregate_mbr_statistics([["a b"]], [["a b", "a c"]])[0].tolist()
        [[4, 4, 3, 1, 0, 0, 4, 2, 0, 0]]
    """
    return _metric(options).aggregate_statistics(_groups(hypotheses, references, need_refs=True))


def aggregate_mbr_scores(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    **options: Any,
) -> list[Matrix]:
    """Linear-time MBR scores: BLEU of each hypothesis against the aggregated references.

    The BLEU (sacreBLEU's ``compute_bleu`` with the given options) of the rows of
    :func:`aggregate_mbr_statistics`; ``np.argmax`` of a source's scores is its MBR choice.

    Args:
        hypotheses: Per source, its hypotheses.
        references: Per source, its pseudo-references (default: the hypotheses).
        **options: :class:`~rapidbleu.metrics.BLEU` options.

    Returns:
        Per source, one float64 score (0..100) per hypothesis.

    Example:
        >>> aggregate_mbr_scores([["a b c d", "x y"]])[0].round(2)
        array([50.  , 30.33])
    """
    metric = _metric(dict(options))
    stats = aggregate_mbr_statistics(hypotheses, references, **options)
    return [metric.score_rows(s) for s in stats]
