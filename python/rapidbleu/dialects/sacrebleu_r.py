"""The R package sacRebleu's BLEU (the seed package), on rapidbleu's engine.

Same function names, argument order, names and defaults as the R package:
``bleu_corpus_ids(references, candidates, n=4, weights=None, smoothing=None, epsilon=0.1,
k=1)``, ``bleu_sentence_ids(references, candidate, ...)``, and the text versions
``bleu_corpus`` / ``bleu_sentence`` that first turn text into IDs with a tokenizer.

Its semantics, kept exactly:

- per segment and order, numerator = clipped matches, denominator = ``max(1, count)``;
  corpus precision = sum of numerators / sum of denominators;
- ``smoothing="floor"`` adds ``epsilon`` to the numerator once per *segment* whose numerator
  is 0; ``"add-k"`` adds ``k`` to numerator and denominator of *every* order, unigrams
  included; ``k`` is an integer in the package (``k=1.5`` acts as 1);
- ``weights`` (default ``1/n`` each) decide the order: ``n`` is ignored when weights are given;
  weights are rounded to 32-bit floats, as the package passes them to C++ as ``float``;
- the reference length of a segment is the closest to the candidate's, ties going to the
  *first reference listed*; BP = 1 if c > r else exp(1 - r/c); the score is on the 0..1 scale;
- float IDs are truncated to integers (R's numeric vectors become C++ ``int``).

The package computes in ``long double``; so does this module (NumPy ``longdouble``), and the
tests hold it to 1e-12 relative of an exact rational oracle. One deliberate difference: an
empty candidate against empty references gives 0.0 here (the package returns NaN).

Example:
    >>> cand_corpus = [[1, 2, 3], [1, 2]]
    >>> ref_corpus = [[[1, 2, 3], [2, 3, 4]], [[1, 2, 6], [781, 21, 9], [7, 3]]]
    >>> bleu_corpus_ids(ref_corpus, cand_corpus)
    0.0
    >>> round(bleu_corpus_ids(ref_corpus, cand_corpus, smoothing="floor"), 12)
    0.484273464058
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu.dialects.result import BleuResult, DialectSignature
from rapidbleu.errors import InputTypeError, InvalidOptionError, LengthMismatchError
from rapidbleu.io.tokens import encode
from rapidbleu.metrics.bleu.tokens import token_statistics

__all__ = ["bleu_corpus", "bleu_corpus_ids", "bleu_sentence", "bleu_sentence_ids", "corpus_score"]

SMOOTHINGS = (None, "floor", "add-k")


def _check_n(n: Any) -> int:
    ok = not isinstance(n, bool) and isinstance(n, (int, float, np.integer, np.floating))
    if not ok or not math.isfinite(n) or n != int(n) or n < 1:
        raise InvalidOptionError(f"n must be a positive integer, got {n!r}")
    return int(n)


def _weights(n: Any, weights: Any) -> npt.NDArray[np.float32]:
    n = _check_n(n)
    if weights is None:
        return np.full(n, 1.0 / n).astype(np.float32)
    try:
        w = np.asarray(weights, dtype=np.float64).ravel()
    except (TypeError, ValueError) as e:
        raise InvalidOptionError(f"weights must be numbers, got {weights!r}") from e
    if w.size == 0:
        raise InvalidOptionError("weights must hold at least one number")
    return w.astype(np.float32)


def _ids(seq: Any, what: str) -> Any:
    """One ID vector, with R's coercions: numbers only, doubles truncated towards zero."""
    if isinstance(seq, (str, bytes)):
        raise InputTypeError(f"{what} is a str; sacRebleu's *_ids functions take numeric vectors")
    if isinstance(seq, np.ndarray):
        if seq.dtype.kind == "f":
            if not np.isfinite(seq).all():
                raise InputTypeError(f"{what} holds NaN or infinite values")
            return np.trunc(seq).astype(np.int64)
        if seq.dtype.kind not in "iub":
            raise InputTypeError(f"{what} must be a numeric vector, not dtype {seq.dtype}")
        return seq
    if not isinstance(seq, (list, tuple)):
        return seq  # arrays of other libraries (torch) are read by the core
    out = []
    for j, x in enumerate(seq):
        if isinstance(x, float):
            if not math.isfinite(x):
                raise InputTypeError(f"{what}[{j}] is {x!r}; IDs must be finite numbers")
            x = int(x)
        elif not isinstance(x, (int, np.integer)):
            raise InputTypeError(
                f"{what}[{j}] is {type(x).__name__}; sacRebleu's *_ids functions take numeric "
                "vectors"
            )
        out.append(x)
    return out


def _corpus_inputs(references: Any, candidates: Any) -> tuple[list[Any], list[Any]]:
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise InputTypeError("candidates must be a list of numeric vectors")
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise InputTypeError("references must be a list (one per candidate) of lists of vectors")
    if len(references) != len(candidates):
        raise LengthMismatchError(
            f"{len(candidates)} candidates but {len(references)} reference lists; the lengths "
            "of candidates and references must match"
        )
    cands = [_ids(c, f"candidates[{i}]") for i, c in enumerate(candidates)]
    refs = []
    for i, rs in enumerate(references):
        if isinstance(rs, (str, bytes)) or not isinstance(rs, (Sequence, np.ndarray)):
            raise InputTypeError(f"references[{i}] must be a list of numeric vectors")
        refs.append([_ids(r, f"references[{i}][{j}]") for j, r in enumerate(rs)])
    return refs, cands


def _score(
    rows: npt.NDArray[np.int64],
    w: npt.NDArray[np.float32],
    smoothing: str | None,
    epsilon: float,
    k: int,
) -> tuple[float, list[float], float, list[Any], list[Any]]:
    """The package's corpus formula in long double: (score, precisions, bp, num, den)."""
    ld = np.longdouble
    order = len(w)
    num = rows[:, 2 : 2 + order]
    den = np.maximum(rows[:, 2 + order :], 1)
    sum_num = [ld(int(x)) for x in num.sum(axis=0)]
    sum_den = [ld(int(x)) for x in den.sum(axis=0)]
    if smoothing == "floor":
        zeros = (num == 0).sum(axis=0)
        sum_num = [s + ld(epsilon) * ld(int(z)) for s, z in zip(sum_num, zeros)]
    elif smoothing == "add-k":
        sum_num = [s + ld(k) for s in sum_num]
        sum_den = [s + ld(k) for s in sum_den]
    c, r = ld(int(rows[:, 0].sum())), ld(int(rows[:, 1].sum()))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        prec = [a / b for a, b in zip(sum_num, sum_den)]
        log_sum = ld(0)
        for wi, p in zip(w, prec):
            log_sum += ld(wi) * np.log(p)
        bp = ld(1) if c > r else np.exp(ld(1) - r / c)
        score = bp * np.exp(log_sum)
    if c == 0:
        score = ld(0)  # the package: NaN for empty against empty; 0 (BP = 0) otherwise
    return float(score), [float(p) for p in prec], float(bp) if c else 0.0, sum_num, sum_den


def _check_options(smoothing: Any, epsilon: Any, k: Any) -> int:
    if smoothing not in SMOOTHINGS:
        raise InvalidOptionError(f"smoothing must be None, 'floor' or 'add-k', got {smoothing!r}")
    if not isinstance(epsilon, (int, float)) or isinstance(epsilon, bool):
        raise InvalidOptionError(f"epsilon must be a number, got {epsilon!r}")
    if not isinstance(k, (int, float)) or isinstance(k, bool) or not math.isfinite(k):
        raise InvalidOptionError(f"k must be a number, got {k!r}")
    return int(k)  # the package passes k to C++ as int


def corpus_score(
    references: Any,
    candidates: Any,
    n: int = 4,
    weights: Sequence[float] | None = None,
    smoothing: str | None = None,
    epsilon: float = 0.1,
    k: float = 1,
) -> BleuResult:
    """:func:`bleu_corpus_ids` as rapidbleu's :class:`~rapidbleu.BleuResult`.

    Example:
        >>> r = corpus_score([[[1, 2, 3]]], [[1, 2, 3]], n=2)
        >>> r.score, r.signature
        (1.0, 'BLEU|dialect:sacrebleu-r|weights:0.5,0.5|smooth:none|ref:closest-first')
    """
    w = _weights(n, weights)
    k_int = _check_options(smoothing, epsilon, k)
    refs, cands = _corpus_inputs(references, candidates)
    if not cands:
        rows = np.zeros((0, 2 + 2 * len(w)), dtype=np.int64)
    else:
        rows, _ = token_statistics(
            cands, refs, max_order=len(w), ref_len_rule="closest-first", per_segment=True
        )
    score, prec, bp, num, den = _score(rows, w, smoothing, float(epsilon), k_int)
    smooth = {None: "none", "floor": f"floor(epsilon={epsilon})", "add-k": f"add-k(k={k_int})"}
    sig = DialectSignature(
        "sacrebleu-r",
        weights=",".join(f"{float(x):.9g}" for x in w),
        smooth=smooth[smoothing],
        ref="closest-first",
    )
    return BleuResult(
        score=score,
        precisions=tuple(prec),
        brevity_penalty=bp,
        hyp_len=int(rows[:, 0].sum()),
        ref_len=int(rows[:, 1].sum()),
        counts=tuple(float(x) for x in num),
        totals=tuple(float(x) for x in den),
        signature=str(sig),
        scale="unit",
    )


def bleu_corpus_ids(
    references: Any,
    candidates: Any,
    n: int = 4,
    weights: Sequence[float] | None = None,
    smoothing: str | None = None,
    epsilon: float = 0.1,
    k: float = 1,
) -> float:
    """Corpus BLEU of ID vectors, as the R package's ``bleu_corpus_ids``.

    Args:
        references: One list of reference ID vectors per candidate.
        candidates: One ID vector per candidate (lists, NumPy arrays, torch tensors).
        n: Highest n-gram order, ignored when ``weights`` is given.
        weights: Weight of each order (default ``1/n`` each).
        smoothing: ``None``, ``"floor"`` or ``"add-k"``.
        epsilon: The floor smoothing's epsilon.
        k: The add-k smoothing's k (an integer in the package).

    Returns:
        The score on the 0..1 scale.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``n`` not a positive integer, bad smoothing.
        rapidbleu.errors.LengthMismatchError: Candidates and references differ in number.
        rapidbleu.errors.InputTypeError: Non-numeric input.

    Example:
        >>> bleu_corpus_ids([[[1, 2, 3, 4]]], [[1, 2, 3, 4]])
        1.0
    """
    return corpus_score(references, candidates, n, weights, smoothing, epsilon, k).score


def bleu_sentence_ids(
    references: Any,
    candidate: Any,
    n: int = 4,
    weights: Sequence[float] | None = None,
    smoothing: str | None = None,
    epsilon: float = 0.1,
    k: float = 1,
) -> float:
    """Sentence BLEU of one ID vector against its references (``bleu_sentence_ids``).

    Example:
        >>> round(bleu_sentence_ids([[1, 2, 3], [2, 3, 4]], [1, 2, 3], n=2), 12)
        1.0
    """
    return bleu_corpus_ids([references], [candidate], n, weights, smoothing, epsilon, k)


def _encode_refs(references: Any, tokenizer: Any) -> list[list[list[int]]]:
    out = []
    for i, rs in enumerate(references):
        if isinstance(rs, str) or not isinstance(rs, Sequence):
            raise InputTypeError(f"references[{i}] must be a list of str")
        out.append(encode(rs, tokenizer, add_special_tokens=True))
    return out


def bleu_corpus(
    references: Any,
    candidates: Any,
    tokenizer: Any = "bert-base-cased",
    n: int = 4,
    weights: Sequence[float] | None = None,
    smoothing: str | None = None,
    epsilon: float = 0.1,
    k: float = 1,
) -> float:
    """Corpus BLEU of text, encoded to IDs with ``tokenizer`` (the package's ``bleu_corpus``).

    As in the package, text becomes ``tokenizer.encode(x).ids`` (special tokens included).
    ``tokenizer`` is a ``tokenizers.Tokenizer``, the path of a local ``tokenizer.json`` or a
    ``tiktoken.Encoding``; rapidbleu never downloads, so the package's default hub name
    ``"bert-base-cased"`` works only as a local file path.

    Example:
        >>> bleu_corpus([["ab c"]], ["ab c"], tokenizer=lambda s: [ord(c) for c in s], n=2)
        1.0
    """
    if isinstance(candidates, str) or not isinstance(candidates, Sequence):
        raise InputTypeError("candidates must be a list of str")
    cands = encode(candidates, tokenizer, add_special_tokens=True)
    return bleu_corpus_ids(
        _encode_refs(references, tokenizer), cands, n, weights, smoothing, epsilon, k
    )


def bleu_sentence(
    references: Any,
    candidate: str,
    tokenizer: Any = "bert-base-cased",
    n: int = 4,
    weights: Sequence[float] | None = None,
    smoothing: str | None = None,
    epsilon: float = 0.1,
    k: float = 1,
) -> float:
    """Sentence BLEU of text (the package's ``bleu_sentence``); see :func:`bleu_corpus`.

    Example:
        >>> bleu_sentence(["a b"], "a b", tokenizer=lambda s: [ord(c) for c in s], n=3)
        1.0
    """
    if not isinstance(candidate, str):
        raise InputTypeError(f"candidate must be a str, not {type(candidate).__name__}")
    return bleu_corpus([references], [candidate], tokenizer, n, weights, smoothing, epsilon, k)
