"""Self-BLEU: how similar the samples of a set are to each other (a diversity measure).

Each sample is scored against all the other samples as its references. Three conventions:

``"sacrebleu"`` (default)
    The usual recipe with sacreBLEU: ``sacrebleu.corpus_bleu([s_i], [[s_j] for j != i]).score``
    per sample, i.e. a one-segment corpus with N - 1 reference streams, sacreBLEU's corpus
    defaults (``13a`` tokenizer, ``exp`` smoothing, ``effective_order=False``), 0..100.
    Every BLEU option can be changed (``tokenize=``, ``smooth_method=``, ...).
``"nltk"``
    ``nltk.translate.bleu_score.sentence_bleu(others, s_i, weights, smoothing_function)`` per
    sample: NLTK's formula and float arithmetic (``math.fsum`` of ``w * log(p)``), 0..1,
    tokens split on whitespace (or given as lists). ``smoothing="method0"`` (NLTK's default:
    none) or ``"method1"`` (epsilon 0.1).
``"fast-bleu-fixed"``
    fast-bleu 0.0.90's ``SelfBLEU(samples, weights, smoothing_func).get_score()`` with its
    out-of-bounds read fixed: NLTK's formula as its C++ computes it, which differs from NLTK in
    the last bits: weights are float32, each ``w * log(num / den)`` and the running sum are x87
    ``long double`` (reproduced with ``numpy.longdouble``), ``method0`` uses
    ``log(LDBL_MIN)`` instead of ``log(DBL_MIN)``, and ``method1`` is ``1 / (10 * den)``. Its
    default smoothing is ``method1``. (fast-bleu joins tokens with spaces to form n-grams, so
    tokens that contain spaces can collide there; here they never do.)

    Why not ``"fast-bleu"``: fast-bleu's ``SELF_BLEU_CPP::get_score`` gives ``corpus_bleu`` the
    number of *all* samples with the array of the *others'* lengths, so
    ``closest_ref_length`` reads one ``int`` past its end, uninitialised stack memory (0, 33,
    48, 59, ... in probes, depending on the number of samples and on what ran before). When
    that stray value is closer to a sample's length than the others' lengths (short samples
    most often), fast-bleu's brevity penalty is not a function of the samples, so no library
    can give its number; everywhere else this convention equals it with ``==`` (444 of
    22,053 samples of random sets of 2 to 9 differed, each one explained by a stray length).
    ``convention="fast-bleu"`` is refused with that explanation.

The statistics of every sample against the others are counted in Rust in one pass over all
n-grams (for each n-gram, its two largest counts over the samples give "the largest count
among the others"), so self-BLEU of N samples costs O(N) rather than O(N^2) sentence scores.
The NLTK convention scores those statistics with the NLTK dialect's formula
(:func:`rapidbleu.dialects.nltk.score_rows`); fast-bleu's arithmetic is reproduced here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu.dialects import nltk
from rapidbleu.errors import InputTypeError, InvalidOptionError
from rapidbleu.metrics.bleu import BLEU

__all__ = ["CONVENTIONS", "self_bleu", "self_bleu_scores"]

#: The conventions :func:`self_bleu_scores` knows.
CONVENTIONS = ("sacrebleu", "nltk", "fast-bleu-fixed")

#: A convention that is refused, with the reason (see the module documentation).
_REFUSED = {
    "fast-bleu": (
        "fast-bleu's SelfBLEU reads one reference length from uninitialised memory (its "
        "get_score passes all samples' count with the others' lengths), so its brevity penalty "
        "for short samples cannot be reproduced; convention='fast-bleu-fixed' is its arithmetic "
        "with that read left out, equal to it wherever the stray value is not the closest length"
    ),
}


def _token_texts(samples: Sequence[Any]) -> list[str]:
    """Samples as whitespace-separated text: strings as given, token lists via token ids."""
    if all(isinstance(s, str) for s in samples):
        return list(samples)
    vocab: dict[str, int] = {}
    out = []
    for i, s in enumerate(samples):
        if isinstance(s, str) or not isinstance(s, Sequence):
            raise InputTypeError(
                f"samples[{i}] is {type(s).__name__}; give all samples as str or all as lists "
                "of tokens"
            )
        # Ids instead of the tokens themselves: a token may contain whitespace.
        out.append(" ".join(f"{vocab.setdefault(str(t), len(vocab))}" for t in s))
    return out


_LDBL_MIN_LOG = np.log(np.finfo(np.longdouble).smallest_normal)


def _fast_bleu_scores(
    stats: npt.NDArray[np.int64], weights: Sequence[float], method1: bool
) -> list[float]:
    """fast-bleu's ``corpus_bleu`` (``cpp_sources/sources/nltk.cpp``) of every statistics row.

    Vectorised over the samples with ``numpy.longdouble`` (its ``log`` is the C library's
    ``logl``, as in fast-bleu's ``log(long double)``); the brevity penalty and the final
    ``exp`` are double-precision ``math.exp``, as fast-bleu's ``exp(double)``.
    """
    ld = np.longdouble
    k = len(weights)
    nums = stats[:, 2 : 2 + k]
    dens = np.maximum(stats[:, 2 + k : 2 + 2 * k], 1)  # max(1, denominator)
    zero = nums == 0
    if method1:  # smooth_1: numerator 1, denominator * 10
        n_, d_ = np.where(zero, 1, nums), np.where(zero, dens * 10, dens)
        logs = np.log(n_.astype(ld) / d_.astype(ld))
    else:  # smooth_0: log(numeric_limits<long double>::min())
        logs = np.where(zero, _LDBL_MIN_LOG, np.log(np.where(zero, 1, nums).astype(ld) / dens))
    # vector<float> weights, cast to double, times a long double.
    w = np.asarray(weights, dtype=np.float32).astype(np.float64).astype(ld)
    terms = w * logs
    s = np.zeros(len(stats), dtype=np.float64)
    for j in range(k):
        s = (s.astype(ld) + terms[:, j]).astype(np.float64)  # `double s; s += long double`
    out = []
    for hyp_len, ref_len, first, sj in zip(
        stats[:, 0].tolist(), stats[:, 1].tolist(), nums[:, 0].tolist(), s.tolist()
    ):
        if first == 0:
            out.append(0.0)
            continue
        if hyp_len > ref_len:
            bp = 1.0
        elif hyp_len == 0:
            bp = 0.0
        else:
            bp = math.exp(1 - ref_len / hyp_len)
        out.append(bp * math.exp(sj))
    return out


def self_bleu_scores(
    samples: Sequence[Any],
    convention: str = "sacrebleu",
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    smoothing: str | None = None,
    auto_reweigh: bool = False,
    **options: Any,
) -> npt.NDArray[np.float64]:
    """Self-BLEU of every sample against all the other samples.

    Args:
        samples: At least two samples: str (all conventions) or token lists (``nltk`` and
            ``fast-bleu-fixed``).
        convention: ``"sacrebleu"`` (0..100), ``"nltk"`` or ``"fast-bleu-fixed"`` (0..1); see
            the module documentation.
        weights: n-gram weights (``nltk``/``fast-bleu-fixed``); their number is the highest
            order.
        smoothing: ``"method0"`` or ``"method1"`` (``nltk``/``fast-bleu-fixed``; default: the
            convention's default, ``method0`` for NLTK and ``method1`` for fast-bleu).
        auto_reweigh: NLTK's ``auto_reweigh`` (``nltk`` only: fast-bleu ignores it).
        **options: :class:`~rapidbleu.metrics.BLEU` options (``sacrebleu`` convention).

    Returns:
        One score per sample, float64.

    Example:
        >>> samples = ["the cat sat", "the cat sat", "a dog ran"]
        >>> self_bleu_scores(samples, effective_order=True).tolist()
        [100.00000000000004, 100.00000000000004, 0.0]
    """
    if convention in _REFUSED:
        raise InvalidOptionError(_REFUSED[convention])
    if convention not in CONVENTIONS:
        raise InvalidOptionError(
            f"unknown convention {convention!r}; allowed: " + ", ".join(CONVENTIONS)
        )
    if isinstance(samples, (str, bytes)) or not isinstance(samples, Sequence):
        raise InputTypeError("samples must be a sequence (e.g. a list) of str or token lists")
    if convention == "sacrebleu":
        metric = BLEU(**options)
        return metric.score_rows(metric.self_statistics(samples))
    if options:
        raise InvalidOptionError(
            f"the {convention} convention takes weights, smoothing and auto_reweigh only, not "
            + ", ".join(sorted(options))
        )
    if len(weights) < 1:
        raise InvalidOptionError("weights must hold at least one weight")
    if smoothing is None:
        smoothing = "method1" if convention == "fast-bleu-fixed" else "method0"
    if smoothing not in ("method0", "method1"):
        raise InvalidOptionError(f"unknown smoothing {smoothing!r}; allowed: method0, method1")
    if convention == "fast-bleu-fixed" and auto_reweigh:
        raise InvalidOptionError(
            "fast-bleu ignores auto_reweight (its constructor never stores it); use the nltk "
            "convention for auto_reweigh"
        )
    stats = BLEU(tokenize="none", max_ngram_order=len(weights)).self_statistics(
        _token_texts(samples)
    )
    method1 = smoothing == "method1"
    if convention == "fast-bleu-fixed":
        return np.array(_fast_bleu_scores(stats, weights, method1), dtype=np.float64)
    # NLTK's default SmoothingFunction(epsilon=0.1): method1 adds 0.1 to a zero numerator.
    method = 1 if method1 else 0
    return nltk.score_rows(stats, [tuple(weights)], method, auto_reweigh=auto_reweigh)[:, 0]


def self_bleu(samples: Sequence[Any], convention: str = "sacrebleu", **kwargs: Any) -> float:
    """Mean self-BLEU of a set of samples: ``sum(scores) / len(scores)`` (Python's ``sum``).

    Args:
        samples: At least two samples.
        convention: ``"sacrebleu"``, ``"nltk"`` or ``"fast-bleu-fixed"`` (see the module docs).
        **kwargs: As for :func:`self_bleu_scores`.

    Returns:
        The mean of :func:`self_bleu_scores`.

    Example:
        >>> self_bleu(["a b c d", "a b c d", "w x y z"], convention="nltk")
        0.6666666666666666
    """
    scores = self_bleu_scores(samples, convention, **kwargs).tolist()
    return float(sum(scores)) / len(scores)
