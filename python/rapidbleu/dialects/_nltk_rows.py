"""NLTK's BLEU formula on statistics rows: the tail of ``corpus_bleu``, and every row at once.

The engine counts (:func:`rapidbleu.metrics.bleu.tokens.token_statistics`); this module turns
the counts into NLTK's numbers: :func:`corpus_tail` runs NLTK's own float operations in NLTK's
order on summed statistics, :func:`score_rows` evaluates ``sentence_bleu`` of every row in Rust
for ``method0``..``method4`` (NLTK's Python code for anything else). Its public names are those of
:mod:`rapidbleu.dialects.nltk`, which imports them.

Example:
    >>> corpus_tail([3, 2], [3, 2], 3, 3, [(0.5, 0.5)], None, False, None)[0]
    1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.dialects._nltk_smoothing import Fraction, SmoothingFunction
from rapidbleu.errors import InvalidOptionError
from rapidbleu.io.tokens import TokenLayout
from rapidbleu.metrics.bleu.tokens import token_statistics

__all__ = [
    "DEFAULT_WEIGHTS",
    "FAST",
    "as_seen",
    "brevity_penalty",
    "corpus_tail",
    "fast_method",
    "score_rows",
    "segment",
    "statistics",
    "weight_vectors",
]

#: NLTK's default weights; ``auto_reweigh`` fires only for this exact tuple.
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)

#: Smoothing methods scored in Rust by the batched path (their code is plain float arithmetic).
FAST = {"method0": 0, "method1": 1, "method2": 2, "method3": 3, "method4": 4}


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """NLTK's ``brevity_penalty`` (returns the int ``1`` or ``0`` where NLTK does).

    Example:
        >>> brevity_penalty(28, 12)
        0.2635971381157267
    """
    if hyp_len > closest_ref_len:
        return 1
    elif hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


def weight_vectors(weights: Any) -> list[Any]:
    """``weights`` as a list of weight vectors (NLTK's ``corpus_bleu`` takes one or a list)."""
    # corpus_bleu: `weights[0][0]` tells one weight vector from a list of them.
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    return list(weights)


def as_seen(seq: Any, pad_id: int | None = None, length: int | None = None) -> Any:
    """One sequence as the core reads it, for NLTK's Python code.

    That code runs for smoothing methods 4-7 and rows scored in Python: a str is its
    characters (NLTK iterates it), a masked array loses its masked entries, a row is cut at
    ``length`` or loses its ``pad_id`` tokens.
    """
    if isinstance(seq, str):
        return list(seq)
    if isinstance(seq, np.ma.MaskedArray):
        seq = seq.compressed()
    if length is not None:
        return list(seq[: int(length)])
    if pad_id is None:
        return seq
    items = seq.tolist() if hasattr(seq, "tolist") else list(seq)
    return [t for t in items if t != pad_id]


def segment(list_of_references: Any, hypotheses: Any, i: int, layout: TokenLayout) -> Any:
    """``(references, hypothesis)`` of segment ``i`` as the core read them."""
    lengths, ref_lengths = layout.lengths, layout.ref_lengths
    hyp = as_seen(hypotheses[i], layout.pad_id, None if lengths is None else lengths[i])
    row_lengths = None if ref_lengths is None else ref_lengths[i]
    refs = [
        as_seen(r, layout.pad_id, None if row_lengths is None else row_lengths[j])
        for j, r in enumerate(list_of_references[i])
    ]
    return refs, hyp


def statistics(
    list_of_references: Any, hypotheses: Any, order: int, num_threads: int | None, **kw: Any
) -> npt.NDArray[np.int64]:
    """Per-segment statistics rows with raw totals (NLTK's argument order: references first)."""
    # A str hypothesis or reference is read as its characters in Rust (`str_as_chars`),
    # without a Python pass over the corpus.
    rows, _ = token_statistics(
        hypotheses,
        list_of_references,
        max_order=max(order, 1),
        per_segment=True,
        num_threads=num_threads,
        str_as_chars=True,
        **kw,
    )
    return rows


def corpus_tail(
    p_numerators: list[int],
    p_denominators: list[int],
    hyp_lengths: int,
    ref_lengths: int,
    weights: list[Any],
    smoothing_function: Callable[..., Any] | None,
    auto_reweigh: bool,
    last: tuple[Any, Any] | None,
) -> tuple[Any, list[Any]]:
    """The tail of NLTK's ``corpus_bleu`` from summed statistics; returns (score(s), p_n)."""
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    p_n: list[Any] = [
        Fraction(n, d, _normalize=False) for n, d in zip(p_numerators, p_denominators)
    ]
    if not p_numerators or p_numerators[0] == 0:
        return (0 if len(weights) == 1 else [0] * len(weights)), p_n
    if not smoothing_function:
        smoothing_function = SmoothingFunction().method0
    references, hypothesis = last if last is not None else (None, None)
    p_n = smoothing_function(p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_lengths)
    bleu_scores = []
    for weight in weights:
        if auto_reweigh:
            if hyp_lengths < 4 and weight == DEFAULT_WEIGHTS:
                weight = (1 / hyp_lengths,) * hyp_lengths
        s = (w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        bleu_scores.append(bp * math.exp(math.fsum(s)))
    return (bleu_scores[0] if len(weights) == 1 else bleu_scores), p_n


def fast_method(smoothing_function: Any) -> tuple[int, Any] | None:
    """``(method number, owner)`` for a method0..method4 that the Rust path can score.

    That is a method of this module's or NLTK's own ``SmoothingFunction`` (the same code).
    """
    owner = getattr(smoothing_function, "__self__", None)
    func = getattr(smoothing_function, "__func__", None)
    name = getattr(func, "__name__", "")
    cls = type(owner)
    ours = cls is SmoothingFunction
    nltks = cls.__name__ == "SmoothingFunction" and cls.__module__ == "nltk.translate.bleu_score"
    if name not in FAST or not (ours or nltks) or cls.__dict__.get(name) is not func:
        return None
    numbers = all(isinstance(getattr(owner, a, None), (int, float)) for a in ("epsilon", "k"))
    return (FAST[name], owner) if numbers else None


def score_rows(
    rows: npt.NDArray[np.int64],
    weights: Sequence[Sequence[float]],
    method: int = 0,
    epsilon: float = 0.1,
    k: float = 5,
    auto_reweigh: bool = False,
    num_threads: int | None = None,
) -> npt.NDArray[np.float64]:
    """NLTK's ``sentence_bleu`` of every statistics row, for ``method0``..``method4``.

    The one place NLTK's formula is evaluated on rows (in Rust, operation by operation as
    ``nltk.translate.bleu_score.corpus_bleu`` does; no warning is issued here). Rows are
    :func:`rapidbleu.metrics.bleu.tokens.token_statistics`' with raw totals; NLTK's
    ``max(1, count)`` denominators are applied here.

    Args:
        rows: Statistics rows with at least ``max(len(w))`` orders.
        weights: One or more weight vectors (one output column each).
        method: The smoothing method's number (``SmoothingFunction().methodN``).
        epsilon: ``SmoothingFunction``'s epsilon.
        k: ``SmoothingFunction``'s k.
        auto_reweigh: NLTK's ``auto_reweigh``.
        num_threads: Threads of the core (``None``: ``$RAPIDBLEU_NUM_THREADS``, else all).

    Returns:
        A ``(n, len(weights))`` float64 array.

    Example:
        >>> rows, _ = token_statistics([[1, 2, 3]], [[[1, 2, 3]]], max_order=2, per_segment=True)
        >>> score_rows(rows, [(0.5, 0.5)]).tolist()
        [[1.0]]
    """
    if method not in FAST.values():
        raise InvalidOptionError(f"method must be one of 0..4 (method0..method4), got {method!r}")
    smoothing = getattr(SmoothingFunction(epsilon=epsilon, k=k), f"method{method}")
    numbers = [epsilon, k, *(x for w in weights for x in w)]
    if not all(_exact_float(x) for x in numbers):
        # An int that a float cannot hold exactly: Python's int arithmetic decides.
        return _python_rows(rows, weights, smoothing, auto_reweigh, range(len(rows)))
    out, python = _core.BleuOptions.nltk_sentence_scores(
        rows,
        [[float(x) for x in w] for w in weights],
        # NLTK's auto_reweigh fires only for the tuple (0.25, 0.25, 0.25, 0.25), not a list.
        [w == DEFAULT_WEIGHTS for w in weights],
        method,
        float(epsilon),
        float(k),
        bool(auto_reweigh),
        _config.num_threads(num_threads),
    )
    if len(python):
        # Rows where a value is not finite (or a division is by zero): NLTK's own code gives
        # its value (nan, inf, 0.0) or raises its exception (ZeroDivisionError, OverflowError,
        # ValueError), for the first such row, as a loop of sentence_bleu calls would.
        out[python] = _python_rows(rows, weights, smoothing, auto_reweigh, python.tolist())
    return out


def _exact_float(x: Any) -> bool:
    """Whether ``x`` is a float, or an int that a float holds exactly (``|x| <= 2**53``)."""
    if isinstance(x, float):
        return True
    return isinstance(x, int) and abs(x) <= 2**53


def _python_rows(
    rows: npt.NDArray[np.int64],
    weights: Sequence[Sequence[float]],
    smoothing: Callable[..., Any],
    auto_reweigh: bool,
    which: Sequence[int],
) -> npt.NDArray[np.float64]:
    """NLTK's ``corpus_bleu`` tail, in Python, on the rows ``which`` (in order)."""
    order = max(len(w) for w in weights)
    n = (rows.shape[1] - 2) // 2
    out = np.empty((len(which), len(weights)))
    for j, i in enumerate(which):
        row = rows[i].tolist()
        p_num = row[2 : 2 + n][:order]
        p_den = [max(1, t) for t in row[2 + n :][:order]]
        s, _ = corpus_tail(
            p_num, p_den, row[0], row[1], list(weights), smoothing, auto_reweigh, None
        )
        out[j] = s
    return out
