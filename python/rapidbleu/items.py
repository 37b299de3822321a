"""The per-item API: each item is a candidate and its own list of references.

This is the shape of evaluation data in LLM work (``{"candidate": ..., "references": [...]}``,
any number of references per item). :func:`bleu` scores all items as one corpus;
:func:`bleu_per_item` returns every item's sentence BLEU as a NumPy array in one batched call.
Scores are on the 0..1 scale by default (``scale="percent"`` for sacreBLEU's 0..100); they are
sacreBLEU's scores divided by 100, so a perfect match gives ``1.0000000000000004`` exactly as
sacreBLEU gives ``100.00000000000004``.

Items may also be an Arrow table (or struct array, or stream of record batches: pyarrow,
polars, a Hugging Face dataset's ``.data.table``) with a candidate column of text and a
references column of lists of text (or of text); the core reads it in place (see
``crates/rapidbleu-py/src/arrow_items.rs``).

Example:
    >>> import rapidbleu
    >>> items = [
    ...     {"candidate": "The cat sat on the mat.", "references": ["The cat is on the mat."]},
    ...     {"candidate": "Hello world", "references": ["Hello world", "Hi world"]},
    ... ]
    >>> r = rapidbleu.bleu(items)
    >>> round(r.score, 4), r.hyp_len, r.ref_len
    (0.502, 9, 9)
    >>> rapidbleu.bleu_per_item(items).round(4)
    array([0.4889, 1.    ])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

import rapidbleu._core as _core
from rapidbleu.dialects.result import BleuResult
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.bleu import BLEU, MAX_NGRAM_ORDER
from rapidbleu.metrics.statistics import S

__all__ = [
    "CANDIDATE_KEYS",
    "REFERENCE_KEYS",
    "BleuResult",
    "bleu",
    "bleu_per_item",
    "item_inputs",
    "score_each_item",
    "score_items",
    "split_items",
]

#: Names of an item's candidate field, in order of preference (the first present is used).
CANDIDATE_KEYS = ("candidate", "prediction", "hypothesis", "actual_output")
#: Names of an item's references field (a list of str, or one str), in order of preference.
REFERENCE_KEYS = ("references", "reference", "expected_output")

#: Divisor of sacreBLEU's 0..100 scores: dividing (not multiplying by 0.01) gives exactly
#: ``sacrebleu_score / 100``.
_SCALES = {"unit": 100.0, "percent": 1.0}


def split_items(items: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """Candidates and per-item reference lists of items (mappings or pairs), read in Rust.

    Example:
        >>> split_items([{"prediction": "a", "reference": "b"}, ("c", ["d", "e"])])
        (['a', 'c'], [['b'], ['d', 'e']])
    """
    return _core.split_items(items)


def item_inputs(items: Iterable[Any]) -> tuple[Any, Any, bool]:
    """The candidates and references of items, as a metric's ``statistics`` takes them.

    Python items give per-item reference lists (``per_segment``); Arrow items give reference
    streams, stream ``j`` holding every item's reference ``j`` (``None`` where an item has
    fewer), which every metric scores as it scores the lists.

    Returns:
        ``(candidates, references, per_segment)``.

    Example:
        >>> import pyarrow as pa
        >>> table = pa.table({"candidate": ["a", "c"], "references": [["b"], ["d", "e"]]})
        >>> cands, streams, per_segment = item_inputs(table)
        >>> list(cands), [list(s) for s in streams], per_segment
        (['a', 'c'], [['b', 'd'], [None, 'e']], False)
    """
    arrow = _core.split_arrow_items(items)
    if arrow is not None:
        return arrow[0], arrow[1], False
    candidates, references = split_items(items)
    return candidates, references, True


def score_items(items: Iterable[Any], metric: Metric[S]) -> S:
    """The corpus score of items under any metric (sacreBLEU's 0..100 scale).

    Args:
        items: As for :func:`bleu`.
        metric: The metric, e.g. ``BLEU()`` or ``CHRF(word_order=2)``.

    Returns:
        The metric's score of the items as one corpus.

    Example:
        >>> score_items([("a b c d", ["a b c d"])], BLEU()).score
        100.00000000000004
    """
    candidates, references, per_segment = item_inputs(items)
    return metric.score_totals(
        metric.total(metric.statistics(candidates, references, per_segment=per_segment))
    )


def score_each_item(items: Iterable[Any], metric: Metric[Any]) -> npt.NDArray[np.float64]:
    """Every item's sentence score under any metric, in one batched call (0..100).

    Example:
        >>> score_each_item([("a b", ["a b"]), ("a b", ["c d"])], BLEU(effective_order=True))
        array([100.,   0.])
    """
    candidates, references, per_segment = item_inputs(items)
    return np.asarray(
        metric.sentence_scores(candidates, references, per_segment=per_segment), dtype=np.float64
    )


def _metric(
    tokenize: str | None,
    trg_lang: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: float | None,
    max_ngram_order: int,
    effective_order: bool,
    num_threads: int | None,
    scale: str,
) -> tuple[BLEU, float]:
    if scale not in _SCALES:
        raise InvalidOptionError(f"unknown scale {scale!r}; allowed: " + ", ".join(_SCALES))
    metric = BLEU(
        lowercase=lowercase,
        force=True,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=effective_order,
        trg_lang=trg_lang,
        num_threads=num_threads,
    )
    return metric, _SCALES[scale]


def bleu(
    items: Iterable[Any],
    *,
    tokenize: str | None = None,
    trg_lang: str = "",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    effective_order: bool = False,
    scale: str = "unit",
    num_threads: int | None = None,
) -> BleuResult:
    """Corpus BLEU of items, each a candidate with its own references.

    The options are :class:`rapidbleu.BLEU`'s; the result equals sacreBLEU's ``corpus_bleu``
    on the same segments (references aligned per item, ``nrefs:var`` when items have
    different numbers of references).

    Args:
        items: Mappings ``{"candidate": str, "references": [str, ...]}`` or pairs
            ``(candidate, references)``; a single reference may be a plain str. Mappings may
            name the fields with the aliases in :data:`CANDIDATE_KEYS` (``prediction``,
            ``hypothesis``, ``actual_output``) and :data:`REFERENCE_KEYS` (``reference``,
            ``expected_output``). Or an Arrow table with such columns (text, and lists of
            text or text), read in place.
        tokenize: Tokenizer name; ``None`` chooses from ``trg_lang`` (default ``13a``).
        trg_lang: Target language code.
        lowercase: Lowercase first.
        smooth_method: ``exp``, ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` / ``add-k``.
        max_ngram_order: Highest n-gram order.
        effective_order: Truncate the geometric mean at the last order with n-grams.
        scale: ``unit`` (0..1, default) or ``percent`` (0..100).
        num_threads: Threads for the core (``None``: all cores).

    Returns:
        The corpus score with its precisions, brevity penalty, lengths and signature.

    Example:
        >>> r = bleu([{"candidate": "a b c d", "references": ["a b c d", "a c"]}])
        >>> r.score, r.signature.split("|version")[0]
        (1.0000000000000004, 'nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp')
    """
    metric, divisor = _metric(
        tokenize,
        trg_lang,
        lowercase,
        smooth_method,
        smooth_value,
        max_ngram_order,
        effective_order,
        num_threads,
        scale,
    )
    s = score_items(items, metric)
    return BleuResult(
        score=s.score / divisor,
        precisions=tuple(p / divisor for p in s.precisions),
        brevity_penalty=s.bp,
        hyp_len=s.sys_len,
        ref_len=s.ref_len,
        counts=tuple(s.counts),
        totals=tuple(s.totals),
        signature=metric.get_signature().format(),
        scale=scale,
    )


def bleu_per_item(
    items: Iterable[Any],
    *,
    tokenize: str | None = None,
    trg_lang: str = "",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    effective_order: bool = True,
    scale: str = "unit",
    num_threads: int | None = None,
) -> npt.NDArray[np.float64]:
    """Sentence BLEU of every item, in one batched call.

    Element ``i`` equals sacreBLEU's ``sentence_bleu(candidate_i, references_i).score``
    (divided by 100 on the ``unit`` scale). ``effective_order`` defaults to on, as in
    ``sentence_bleu``.

    Args:
        items: As for :func:`bleu`.
        tokenize: Tokenizer name; ``None`` chooses from ``trg_lang`` (default ``13a``).
        trg_lang: Target language code.
        lowercase: Lowercase first.
        smooth_method: ``exp``, ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` / ``add-k``.
        max_ngram_order: Highest n-gram order.
        effective_order: Truncate the geometric mean (default on).
        scale: ``unit`` (0..1, default) or ``percent`` (0..100).
        num_threads: Threads for the core (``None``: all cores).

    Returns:
        A float64 array with one score per item.

    Example:
        >>> bleu_per_item([("a b c", ["a b c"]), ("a b c", ["x y z"])], scale="percent")
        array([100.,   0.])
    """
    metric, divisor = _metric(
        tokenize,
        trg_lang,
        lowercase,
        smooth_method,
        smooth_value,
        max_ngram_order,
        effective_order,
        num_threads,
        scale,
    )
    scores = score_each_item(items, metric)
    return scores / divisor if divisor != 1.0 else scores
