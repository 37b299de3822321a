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

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu import _config, _core
from rapidbleu.dialects._nltk_smoothing import Fraction, SmoothingFunction, modified_precision
from rapidbleu.dialects.result import BleuResult, DialectSignature
from rapidbleu.errors import InvalidOptionError
from rapidbleu.io.tokens import TokenLayout
from rapidbleu.metrics.bleu_tokens import token_statistics

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

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


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


def _weights(weights: Any) -> list[Any]:
    # corpus_bleu: `weights[0][0]` tells one weight vector from a list of them.
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    return list(weights)


def _as_seen(seq: Any, pad_id: int | None = None, length: int | None = None) -> Any:
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


def _segment(list_of_references: Any, hypotheses: Any, i: int, layout: TokenLayout) -> Any:
    """``(references, hypothesis)`` of segment ``i`` as the core read them."""
    lengths, ref_lengths = layout.lengths, layout.ref_lengths
    hyp = _as_seen(hypotheses[i], layout.pad_id, None if lengths is None else lengths[i])
    row_lengths = None if ref_lengths is None else ref_lengths[i]
    refs = [
        _as_seen(r, layout.pad_id, None if row_lengths is None else row_lengths[j])
        for j, r in enumerate(list_of_references[i])
    ]
    return refs, hyp


def _stats(
    list_of_references: Any, hypotheses: Any, order: int, num_threads: int | None, **kw: Any
) -> npt.NDArray[np.int64]:
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


def _score(
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


def _corpus(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any,
    smoothing_function: Callable[..., Any] | None,
    auto_reweigh: bool,
    num_threads: int | None,
    layout: TokenLayout,
) -> tuple[Any, list[Any], npt.NDArray[np.int64], int, list[Any]]:
    weights = _weights(weights)
    order = max(len(weight) for weight in weights)
    rows = _stats(list_of_references, hypotheses, order, num_threads, **layout.kwargs())
    n = order
    correct = rows[:, 2 : 2 + max(n, 1)][:, :n]
    total = np.maximum(rows[:, 2 + max(n, 1) :][:, :n], 1)
    p_num = [int(x) for x in correct.sum(axis=0)]
    p_den = [int(x) for x in total.sum(axis=0)]
    hyp_lengths, ref_lengths = int(rows[:, 0].sum()), int(rows[:, 1].sum())
    last = None
    if len(rows):
        # Smoothing methods 4-7 see the last segment (NLTK's loop variables).
        last = _segment(list_of_references, hypotheses, len(rows) - 1, layout)
    score, p_n = _score(
        p_num, p_den, hyp_lengths, ref_lengths, weights, smoothing_function, auto_reweigh, last
    )
    return score, p_n, rows, order, [p_num, p_den, hyp_lengths, ref_lengths]


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


def _fast_method(smoothing_function: Any) -> tuple[int, Any] | None:
    """``(method number, owner)`` for a method0..method4 that the Rust path can score.

    That is a method of this module's or NLTK's own ``SmoothingFunction`` (the same code).
    """
    owner = getattr(smoothing_function, "__self__", None)
    func = getattr(smoothing_function, "__func__", None)
    name = getattr(func, "__name__", "")
    cls = type(owner)
    ours = cls is SmoothingFunction
    nltks = cls.__name__ == "SmoothingFunction" and cls.__module__ == "nltk.translate.bleu_score"
    if name not in _FAST or not (ours or nltks) or cls.__dict__.get(name) is not func:
        return None
    numbers = all(isinstance(getattr(owner, a, None), (int, float)) for a in ("epsilon", "k"))
    return (_FAST[name], owner) if numbers else None


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
    :func:`rapidbleu.metrics.bleu_tokens.token_statistics`'
    with raw totals; NLTK's ``max(1, count)`` denominators are applied here.

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
    if method not in _FAST.values():
        raise InvalidOptionError(f"method must be one of 0..4 (method0..method4), got {method!r}")
    smoothing = getattr(SmoothingFunction(epsilon=epsilon, k=k), f"method{method}")
    numbers = [epsilon, k, *(x for w in weights for x in w)]
    if not all(_exact_float(x) for x in numbers):
        # An int that a float cannot hold exactly: Python's int arithmetic decides.
        return _python_rows(rows, weights, smoothing, auto_reweigh, range(len(rows)))
    out, python = _core.nltk_sentence_scores(
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
        s, _ = _score(p_num, p_den, row[0], row[1], list(weights), smoothing, auto_reweigh, None)
        out[j] = s
    return out


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
    ws = _weights(weights)
    order = max(len(w) for w in ws)
    many = len(ws) != 1
    layout = TokenLayout(pad_id, lengths, ref_lengths)
    rows = _stats(list_of_references, hypotheses, order, num_threads, **layout.kwargs())
    fast = _fast_method(smoothing_function or SmoothingFunction().method0)
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
        s, _ = _score(
            p_num,
            p_den,
            row[0],
            row[1],
            ws,
            smoothing_function,
            auto_reweigh,
            _segment(list_of_references, hypotheses, i, layout),
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
    ws = _weights(weights)
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


#: Smoothing methods scored in Rust by the batched path (their code is plain float arithmetic).
_FAST = {"method0": 0, "method1": 1, "method2": 2, "method3": 3, "method4": 4}
