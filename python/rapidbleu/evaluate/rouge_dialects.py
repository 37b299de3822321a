"""evaluate's ``rouge`` over ROUGE's dialects: ``dialect=``, ``lang=``, ``tokenizer="unicode"``.

evaluate's ``rouge`` script is rouge-score's. rapidbleu's :func:`rapidbleu.evaluate.rouge`
takes the script's arguments and, beyond them, reaches ROUGE's dialects
(docs/rouge_dialects.md) with evaluate's keys (``rouge1`` ...) and its two shapes of value
(aggregated, or one list per type with ``use_aggregator=False``):

- ``dialect="pltrdy"`` (the ``rouge`` package) or ``"chinese"`` (``rouge-chinese``): each type's
  ``f`` of the package's ``Rouge(metrics=...).get_scores(predictions, references, avg=...)``
  (``rouge1`` is its ``rouge-1``, ``rougeL`` its ``rouge-l``). Aggregated is the package's own
  mean (``avg=True``), not a bootstrap: it is what the package reports;
- ``dialect="xlsum"``, or any ``lang=``: evaluate's script with XL-Sum's
  ``multilingual_rouge.rouge_scorer.RougeScorer(rouge_types, lang=lang, use_stemmer=...)`` in
  place of rouge-score's, and its ``BootstrapAggregator`` (the same draws from NumPy's global
  generator);
- ``tokenizer="unicode"``: rouge-score's scorer on rapidbleu's own Unicode tokenizer
  (:class:`~rapidbleu.metrics.rouge.ROUGE`, ``tokenizer="unicode"``).

Example:
    >>> from rapidbleu.evaluate import rouge
    >>> rouge(["the cat sat"], ["the cat sat down"], dialect="pltrdy", rouge_types=["rouge1"])
    {'rouge1': 0.8571428522448981}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import InputError, InvalidOptionError

__all__ = ["DIALECTS", "dialect_rouge"]

#: ``dialect=`` values; ``"rouge-score"`` is evaluate's own.
DIALECTS = ("rouge-score", "pltrdy", "chinese", "xlsum")

# evaluate's key -> the rouge package's metric name.
_PLTRDY = {f"rouge{n}": f"rouge-{n}" for n in range(1, 6)} | {"rougeL": "rouge-l"}


def _one_reference_each(references: Sequence[Any], dialect: str) -> list[Any]:
    if isinstance(references[0], list):
        raise InputError(
            f"dialect={dialect!r} takes one reference (a str) per prediction: its package has "
            "no score_multi"
        )
    return list(references)


def _pltrdy(
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Sequence[str],
    use_aggregator: bool,
    chinese: bool,
) -> dict[str, Any]:
    from rapidbleu.metrics.rouge import chinese as chinese_module
    from rapidbleu.metrics.rouge import pltrdy

    unknown = [t for t in rouge_types if t not in _PLTRDY]
    if unknown:
        raise InvalidOptionError(
            f"rouge types {unknown} are not the rouge package's; it has " + ", ".join(_PLTRDY)
        )
    refs = _one_reference_each(references, "chinese" if chinese else "pltrdy")
    keys = list(dict.fromkeys(rouge_types))
    rouge_cls = chinese_module.Rouge if chinese else pltrdy.Rouge
    scorer = rouge_cls(metrics=[_PLTRDY[t] for t in keys], stats=["f"])
    if use_aggregator:
        mean = scorer.get_scores(list(predictions), refs, avg=True)
        return {t: mean[_PLTRDY[t]]["f"] for t in keys}
    items = scorer.get_scores(list(predictions), refs)
    return {t: [item[_PLTRDY[t]]["f"] for item in items] for t in keys}


def _xlsum(
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Sequence[str],
    use_aggregator: bool,
    use_stemmer: bool,
    lang: str | None,
) -> dict[str, Any]:
    import numpy as np

    from rapidbleu.metrics.rouge.scoring import BootstrapAggregator
    from rapidbleu.metrics.rouge.xlsum import RougeScorer

    refs = _one_reference_each(references, "xlsum")
    scorer = RougeScorer(list(rouge_types), lang=lang, use_stemmer=use_stemmer)
    # Unequal lengths raise (LengthMismatchError), as rapidbleu's evaluate rouge does.
    scores = scorer.score_batch(refs, list(predictions))
    if not use_aggregator:
        return {key: [s[key].fmeasure for s in scores] for key in scores[0]}
    aggregator = BootstrapAggregator()
    aggregator.add_arrays({key: np.array([tuple(s[key]) for s in scores]) for key in scores[0]})
    return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}


def dialect_rouge(
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Sequence[str] | None,
    use_aggregator: bool,
    use_stemmer: bool,
    tokenizer: Any,
    dialect: str,
    lang: str | None,
) -> dict[str, Any]:
    """The ``rouge`` dict of evaluate, computed as ``dialect`` does (see the module).

    Raises:
        rapidbleu.errors.InvalidOptionError: An unknown dialect, or an option the dialect
            does not take (``use_stemmer``, ``tokenizer`` or ``lang`` with ``pltrdy``).
        rapidbleu.errors.InputError: A list of references per prediction (none of these
            packages has ``score_multi``).

    Example:
        >>> dialect_rouge(["a b"], ["a b"], ["rouge1"], False, False, None, "xlsum", None)
        {'rouge1': [1.0]}
    """
    if lang is not None and dialect == "rouge-score":
        dialect = "xlsum"
    if dialect not in DIALECTS[1:]:
        raise InvalidOptionError(f"unknown dialect {dialect!r}; allowed: {', '.join(DIALECTS)}")
    if tokenizer is not None:
        raise InvalidOptionError(
            f"dialect={dialect!r} tokenizes as its package does; tokenizer= is not allowed"
        )
    if dialect == "xlsum":
        types = ["rouge1", "rouge2", "rougeL", "rougeLsum"] if rouge_types is None else rouge_types
        return _xlsum(predictions, references, types, use_aggregator, use_stemmer, lang)
    if use_stemmer or lang is not None:
        raise InvalidOptionError(
            f"dialect={dialect!r} has no stemmer and no language; use_stemmer and lang are "
            "not allowed"
        )
    types = ["rouge1", "rouge2", "rougeL"] if rouge_types is None else rouge_types
    return _pltrdy(predictions, references, types, use_aggregator, dialect == "chinese")
