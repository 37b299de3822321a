"""NLTK's BLEU (``nltk.translate.bleu_score``, nltk 3.10.4), bit for bit, on rapidbleu's engine.

``sentence_bleu``, ``corpus_bleu`` and ``SmoothingFunction`` keep NLTK's names, arguments,
defaults and results (``==``): n-grams are counted in Rust, then the statistics go through
NLTK's own float operations in NLTK's order (``Fraction`` precisions, ``math.fsum``). Tokens
may be str, int IDs, NumPy arrays or torch CPU tensors; a str *hypothesis* is a sequence of
characters, as in NLTK.

NLTK's quirks are kept on purpose, because published numbers were computed with them:

- ``method0`` (no smoothing) replaces a zero precision by ``sys.float_info.min``, so a
  sentence with no 4-gram match scores a tiny non-zero number (e.g. ``8.6e-78``), not 0, and
  warns; only no unigram match at all returns exactly ``0`` (an int).
- In ``corpus_bleu``, smoothing methods 4-7 see only the *last* segment's hypothesis and
  references (methods 5 and 7 use its 5-gram precision, method 6 its n-gram counts), with the
  corpus-level precisions and the corpus hypothesis length.
- ``auto_reweigh`` fires only when a weight is exactly the tuple ``(0.25, 0.25, 0.25, 0.25)``
  and the (corpus) hypothesis length is below 4.
- The closest reference length breaks ties towards the shorter reference; denominators are
  ``max(1, count)``.

Differences: mismatched corpus lengths raise :class:`~rapidbleu.errors.LengthMismatchError`
(NLTK: ``AssertionError``); a segment without references raises
:class:`~rapidbleu.errors.MissingReferenceError` (NLTK: ``ValueError`` from ``min``); a token
(or a str read as characters) with a lone surrogate raises
:class:`~rapidbleu.errors.InvalidTextError` (NLTK scores it; rapidbleu has one rule for text
and tokens: a lone surrogate is not text); a 2-D array of IDs needs ``pad_id`` or its lengths.
:func:`sentence_bleu_batch` is rapidbleu's own: every segment's ``sentence_bleu`` in one call.

Example:
    >>> from rapidbleu.dialects.nltk import sentence_bleu, SmoothingFunction
    >>> ref = "the cat is on the mat".split()
    >>> sentence_bleu([ref], "the cat sat on the mat".split(),
    ...               smoothing_function=SmoothingFunction().method1)
    0.25406637407730737
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu.dialects._nltk_rows import (
    DEFAULT_WEIGHTS,
    brevity_penalty,
    corpus_tail,
    fast_method,
    score_rows,
    segment,
    statistics,
    weight_vectors,
)
from rapidbleu.dialects._nltk_smoothing import Fraction, SmoothingFunction, modified_precision
from rapidbleu.dialects.result import BleuResult, DialectSignature
from rapidbleu.errors import InvalidOptionError
from rapidbleu.io.tokens import TokenLayout

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_score",
    "modified_precision",
    "score_rows",
    "sentence_bleu",
    "sentence_bleu_batch",
]


def closest_ref_length(references: Any, hyp_len: int) -> int:
    """NLTK's ``closest_ref_length``: the reference length closest to ``hyp_len``.

    Ties go to the shorter reference, as in NLTK (and as the engine's rows do).

    Args:
        references: The references (any sequences with a length).
        hyp_len: The hypothesis length.

    Returns:
        The closest reference length.

    Example:
        >>> closest_ref_length([["a"] * 11, ["a"] * 8, ["a"] * 6], 7)
        6
    """
    ref_lens = (len(reference) for reference in references)
    return min(ref_lens, key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def _corpus(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any,
    smoothing_function: Callable[..., Any] | None,
    auto_reweigh: bool,
    num_threads: int | None,
    layout: TokenLayout,
) -> tuple[Any, list[Any], npt.NDArray[np.int64], int, list[Any]]:
    weights = weight_vectors(weights)
    order = max(len(weight) for weight in weights)
    # The last segment is read again below: a sequence of the user's own type is read once
    # here (NLTK reads it once, in a zip), so one that changes while read gives one answer.
    list_of_references, hypotheses = _read_once(list_of_references), _read_once(hypotheses)
    rows = statistics(list_of_references, hypotheses, order, num_threads, **layout.kwargs())
    n = order
    correct = rows[:, 2 : 2 + max(n, 1)][:, :n]
    total = np.maximum(rows[:, 2 + max(n, 1) :][:, :n], 1)
    p_num = [int(x) for x in correct.sum(axis=0)]
    p_den = [int(x) for x in total.sum(axis=0)]
    hyp_lengths, ref_lengths = int(rows[:, 0].sum()), int(rows[:, 1].sum())
    last = None
    if len(rows):
        # Smoothing methods 4-7 see the last segment (NLTK's loop variables).
        last = segment(list_of_references, hypotheses, len(rows) - 1, layout)
    score, p_n = corpus_tail(
        p_num, p_den, hyp_lengths, ref_lengths, weights, smoothing_function, auto_reweigh, last
    )
    return score, p_n, rows, order, [p_num, p_den, hyp_lengths, ref_lengths]


def _read_once(seq: Any) -> Any:
    """``seq`` as a list if it is a Sequence of another type than list, tuple or str."""
    plain = isinstance(seq, (list, tuple, str, bytes)) or not isinstance(seq, Sequence)
    return seq if plain else list(seq)


def corpus_bleu(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
    *,
    num_threads: int | None = None,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
) -> Any:
    """NLTK's ``corpus_bleu``: micro-averaged precisions over the corpus.

    Args:
        list_of_references: ``list_of_references[i]`` is the list of references (token
            sequences) of hypothesis ``i``.
        hypotheses: One token sequence per segment (str tokens, int IDs, arrays, tensors).
        weights: One weight vector, or a list of them (then a list of scores is returned).
        smoothing_function: A ``SmoothingFunction`` method (this module's or NLTK's), or any
            callable with NLTK's signature.
        auto_reweigh: Re-weight uniformly when the hypothesis length is below 4.
        num_threads: Threads of the core (rapidbleu's option; ``None``: ``$RAPIDBLEU_NUM_THREADS``,
            else all cores).
        pad_id: Token IDs only (rapidbleu's option): the padding ID, dropped from every
            sequence; a 2-D array of IDs needs it or its lengths.
        lengths: Token IDs only: the row lengths of a 2-D ``hypotheses`` array.
        ref_lengths: Token IDs only: per segment, the row lengths of its 2-D references array
            (or ``None``).

    Returns:
        The score (a float, or the int ``0`` without unigram matches), or a list of them.

    Example:
        >>> corpus_bleu([[[1, 2, 3, 4]], [[5, 6, 7, 8]]], [[1, 2, 3, 4], [5, 6, 7, 8]])
        1.0
    """
    return _corpus(
        list_of_references,
        hypotheses,
        weights,
        smoothing_function,
        auto_reweigh,
        num_threads,
        TokenLayout(pad_id, lengths, ref_lengths),
    )[0]


def sentence_bleu(
    references: Any,
    hypothesis: Any,
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
    *,
    pad_id: int | None = None,
    ref_lengths: Sequence[int] | None = None,
) -> Any:
    """NLTK's ``sentence_bleu``: ``corpus_bleu([references], [hypothesis], ...)``.

    ``pad_id`` (the padding ID, dropped from every sequence) and ``ref_lengths`` (the row
    lengths of a 2-D ``references`` array) are rapidbleu's options for token IDs.

    Example:
        >>> sentence_bleu([[1, 2, 3, 5]], [1, 2, 3, 4])
        8.636168555094496e-78
    """
    return corpus_bleu(
        [references],
        [hypothesis],
        weights,
        smoothing_function,
        auto_reweigh,
        pad_id=pad_id,
        ref_lengths=None if ref_lengths is None else [ref_lengths],
    )


def sentence_bleu_batch(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
    *,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
    num_threads: int | None = None,
) -> npt.NDArray[np.float64]:
    """``sentence_bleu`` of every segment in one call (rapidbleu's own function).

    Equal, element by element, to ``[sentence_bleu(refs_i, hyp_i, ...) ...]``. Without
    smoothing or with ``method0``..``method4`` (of this module's or NLTK's own
    ``SmoothingFunction``) and float weights, scoring runs in Rust; otherwise NLTK's Python
    code runs per segment. Segments where a value is not finite (infinite or NaN weights, a
    smoothing constant of 0, overflowing sums) also run NLTK's Python code, so they give
    NLTK's ``nan``/``inf``/``0.0`` or raise its ``ZeroDivisionError``/``OverflowError``/
    ``ValueError`` (for the first such segment, as a loop of ``sentence_bleu`` calls would).
    ``method0`` warns once per call (NLTK warns per sentence).

    Args:
        list_of_references: References of each hypothesis (or a 2-D array per segment).
        hypotheses: Token sequences, or a 2-D array/tensor with ``pad_id`` or ``lengths``.
        weights: One weight vector or a list of them (one column each).
        smoothing_function: As in :func:`sentence_bleu`.
        auto_reweigh: As in :func:`sentence_bleu`.
        pad_id: Padding ID dropped from array rows and lists (a 2-D array of IDs needs it
            or its lengths).
        lengths: Row lengths of a 2-D ``hypotheses`` array.
        ref_lengths: Per segment, the row lengths of its 2-D references array (or ``None``).
        num_threads: Threads of the core (``None``: ``$RAPIDBLEU_NUM_THREADS``, else all
            cores).

    Returns:
        float64 scores, shape ``(n,)``, or ``(n, len(weights))`` for a list of weights.

    Example:
        >>> sentence_bleu_batch([[[1, 2, 3, 4]], [[1, 2, 3, 5]]], [[1, 2, 3, 4], [1, 2, 3, 4]])
        array([1.00000000e+00, 8.63616856e-78])
    """
    ws = weight_vectors(weights)
    order = max(len(w) for w in ws)
    many = len(ws) != 1
    layout = TokenLayout(pad_id, lengths, ref_lengths)
    rows = statistics(list_of_references, hypotheses, order, num_threads, **layout.kwargs())
    fast = fast_method(smoothing_function or SmoothingFunction().method0)
    plain = all(
        isinstance(w, (tuple, list)) and all(isinstance(x, (int, float)) for x in w) for w in ws
    )
    if fast is not None and plain and order >= 1:
        method, owner = fast
        out = score_rows(rows, ws, method, owner.epsilon, owner.k, auto_reweigh, num_threads)
        if method == 0 and order >= 1 and bool((rows[:, 2 : 2 + order] == 0).any()):
            warnings.warn(
                "\nSome hypotheses contain 0 counts of n-gram overlaps: their BLEU scores are "
                "tiny, not 0 (NLTK's method0). Consider using lower n-gram order or use "
                "SmoothingFunction()",
                stacklevel=2,
            )
        return out if many else out[:, 0]
    scores = np.empty((len(rows), len(ws)))
    for i, row in enumerate(rows.tolist()):
        p_num = row[2 : 2 + order]
        p_den = [max(1, t) for t in row[2 + order :]]
        s, _ = corpus_tail(
            p_num,
            p_den,
            row[0],
            row[1],
            ws,
            smoothing_function,
            auto_reweigh,
            segment(list_of_references, hypotheses, i, layout),
        )
        scores[i] = s
    return scores if many else scores[:, 0]


def corpus_score(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
    *,
    num_threads: int | None = None,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
) -> BleuResult:
    """:func:`corpus_bleu` as rapidbleu's :class:`~rapidbleu.BleuResult` (one weight vector).

    ``precisions`` are the smoothed precisions NLTK takes logs of, ``counts``/``totals`` the
    corpus numerators and ``max(1, count)`` denominators, ``signature`` names the dialect.

    Example:
        >>> r = corpus_score([[[1, 2, 3, 4]]], [[1, 2, 3, 4]])
        >>> r.score, r.brevity_penalty, r.signature
        (1.0, 1.0, 'BLEU|dialect:nltk|weights:0.25,0.25,0.25,0.25|smooth:method0|auto_reweigh:no')
    """
    ws = weight_vectors(weights)
    if len(ws) != 1:
        raise InvalidOptionError("corpus_score takes one weight vector; call it once per vector")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        score, p_n, _, _, (p_num, p_den, hyp_len, ref_len) = _corpus(
            list_of_references,
            hypotheses,
            ws[0],
            smoothing_function,
            auto_reweigh,
            num_threads,
            TokenLayout(pad_id, lengths, ref_lengths),
        )
    name = getattr(smoothing_function, "__name__", None) or "method0"
    owner = getattr(smoothing_function, "__self__", None)
    if isinstance(owner, SmoothingFunction):
        name += f"(epsilon={owner.epsilon},alpha={owner.alpha},k={owner.k})"
    sig = DialectSignature(
        "nltk",
        weights=",".join(str(w) for w in ws[0]),
        smooth=name,
        auto_reweigh="yes" if auto_reweigh else "no",
    )
    return BleuResult(
        score=score,
        precisions=tuple(float(p) for p in p_n),
        brevity_penalty=float(brevity_penalty(ref_len, hyp_len)),
        hyp_len=hyp_len,
        ref_len=ref_len,
        counts=tuple(p_num),
        totals=tuple(p_den),
        signature=str(sig),
        scale="unit",
    )
