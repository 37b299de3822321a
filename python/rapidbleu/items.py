"""The per-item API: each item is a candidate and its own list of references.

This is the shape of evaluation data in LLM work (``{"candidate": ..., "references": [...]}``,
any number of references per item). :func:`bleu` scores all items as one corpus;
:func:`bleu_per_item` returns every item's sentence BLEU as a NumPy array in one batched call.
Scores are on the 0..1 scale by default (``scale="percent"`` for sacreBLEU's 0..100); they are
sacreBLEU's scores divided by 100, so a perfect match gives ``1.0000000000000004`` exactly as
sacreBLEU gives ``100.00000000000004``.

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
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu import _core
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.bleu import BLEU, MAX_NGRAM_ORDER

__all__ = ["CANDIDATE_KEYS", "REFERENCE_KEYS", "BleuResult", "bleu", "bleu_per_item"]

#: Names of an item's candidate field, in order of preference (the first present is used).
CANDIDATE_KEYS = ("candidate", "prediction", "hypothesis", "actual_output")
#: Names of an item's references field (a list of str, or one str), in order of preference.
REFERENCE_KEYS = ("references", "reference", "expected_output")

#: Divisor of sacreBLEU's 0..100 scores: dividing (not multiplying by 0.01) gives exactly
#: ``sacrebleu_score / 100``.
_SCALES = {"unit": 100.0, "percent": 1.0}


@dataclass(frozen=True)
class BleuResult:
    """A corpus BLEU over items.

    Attributes:
        score: BLEU, on the chosen scale (0..1 for ``unit``, 0..100 for ``percent``).
        precisions: n-gram precisions, same scale.
        brevity_penalty: The brevity penalty (0..1 on both scales).
        hyp_len: Candidate length in tokens.
        ref_len: Effective reference length in tokens.
        counts: Matched n-grams per order.
        totals: Candidate n-grams per order.
        signature: sacreBLEU's signature string of the options used.
        scale: ``unit`` or ``percent``.
    """

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    hyp_len: int
    ref_len: int
    counts: tuple[float, ...]
    totals: tuple[float, ...]
    signature: str
    scale: str

    @property
    def length_ratio(self) -> float:
        """``hyp_len / ref_len`` (0 when ``ref_len`` is 0)."""
        return self.hyp_len / self.ref_len if self.ref_len else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"bleu": ..., "precisions": [...], ...}``.

        Example:
            >>> bleu([("a b c d", ["a b c d"])]).to_dict()["bleu"]
            1.0000000000000004
        """
        return {
            "bleu": self.score,
            "precisions": list(self.precisions),
            "brevity_penalty": self.brevity_penalty,
            "length_ratio": self.length_ratio,
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "signature": self.signature,
            "scale": self.scale,
        }


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
            ``expected_output``).
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
    candidates, references = _core.split_items(items)
    stats = metric._item_statistics(candidates, references)
    s = metric._compute_score_from_stats(stats.sum(axis=0))
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
    candidates, references = _core.split_items(items)
    scores = metric._sentence_scores(candidates, references, per_segment=True)
    return scores / divisor if divisor != 1.0 else scores
