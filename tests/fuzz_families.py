"""The fuzzed metrics and their oracles, one entry per metric (shared by the fuzz tests).

:data:`METRICS` lists every sacreBLEU metric rapidbleu has, each with its oracle class and a
strategy of valid options. The differential, hostile-shape, state-machine and concurrency
tests loop over it, so **adding a metric to the fuzzing is one entry here**. chrF and TER
join by themselves once ``rapidbleu.metrics`` exports ``CHRF`` / ``TER`` (their entries are
below, guarded by ``hasattr``).

:func:`classify` turns one call of rapidbleu and one of its oracle into the outcome that
:func:`fuzzstats.record` counts, with the rules of the reliability issue:

- rapidbleu raises a :class:`rapidbleu.errors.RapidBleuError` where the input is not allowed
  (its message says why), never another exception (``crashed``);
- where the oracle gives a result and the input is allowed, rapidbleu gives the same
  (compared with ``==``) or the input is ``differed``;
- a lone surrogate is not text in rapidbleu (``InvalidTextError``), whatever the oracle does.

Example:
    >>> [m.name for m in METRICS][:1]
    ['bleu']
    >>> classify(("value", 1.0), ("value", 1.0), surrogate=False)
    'ok'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sacrebleu
from hypothesis import strategies as st

import rapidbleu.metrics
from rapidbleu import errors

__all__ = ["METRICS", "MetricFamily", "classify", "outcome", "with_surrogate"]


@dataclass(frozen=True)
class MetricFamily:
    """A metric to fuzz: rapidbleu's class, the oracle's, and its valid options.

    Attributes:
        name: The family's name in the tally (``bleu``, ``chrf``, ``ter``).
        ours: rapidbleu's metric class.
        oracle: sacreBLEU's metric class (same constructor arguments).
        options: Keyword arguments both accept.
        extra: rapidbleu's own keyword arguments (e.g. ``num_threads``), for the tests that
            vary them; the oracle never sees them.
    """

    name: str
    ours: Callable[..., Any]
    oracle: Callable[..., Any]
    options: st.SearchStrategy[dict[str, Any]]
    extra: st.SearchStrategy[dict[str, Any]] = st.just({})  # noqa: RUF009 (immutable)


_BLEU_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "tokenize": st.sampled_from(["13a", "intl", "zh", "char", "none"]),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["exp", "floor", "add-k", "none"]),
        "smooth_value": st.sampled_from([0.0, 0.1, 1.0, 2]),
        "max_ngram_order": st.integers(1, 6),
        "effective_order": st.booleans(),
    },
)

METRICS: list[MetricFamily] = [
    MetricFamily(
        "bleu",
        rapidbleu.metrics.BLEU,
        sacrebleu.BLEU,
        _BLEU_OPTIONS,
        st.fixed_dictionaries({"num_threads": st.sampled_from([0, 1, 2, 3])}),
    ),
]

# chrF and TER: one entry each, active as soon as rapidbleu has the metric.
if hasattr(rapidbleu.metrics, "CHRF"):
    METRICS.append(
        MetricFamily(
            "chrf",
            rapidbleu.metrics.CHRF,
            sacrebleu.CHRF,
            st.fixed_dictionaries(
                {},
                optional={
                    "char_order": st.integers(1, 7),
                    "word_order": st.integers(0, 3),
                    "beta": st.integers(0, 3),
                    "lowercase": st.booleans(),
                    "whitespace": st.booleans(),
                    "eps_smoothing": st.booleans(),
                },
            ),
        )
    )
if hasattr(rapidbleu.metrics, "TER"):
    METRICS.append(
        MetricFamily(
            "ter",
            rapidbleu.metrics.TER,
            sacrebleu.TER,
            st.fixed_dictionaries(
                {},
                optional={
                    "normalized": st.booleans(),
                    "no_punct": st.booleans(),
                    "asian_support": st.booleans(),
                    "case_sensitive": st.booleans(),
                },
            ),
        )
    )


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """``("value", result)`` or ``("raised", exception)`` of ``call()``."""
    try:
        return "value", call()
    except Exception as e:  # every exception is an outcome to classify
        return "raised", e


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def classify(ours: tuple[str, Any], oracle: tuple[str, Any] | None, surrogate: bool) -> str:
    """The tally outcome of one input (see the module documentation).

    Args:
        ours: rapidbleu's :func:`outcome`.
        oracle: The oracle's :func:`outcome`, or ``None`` where there is no oracle (then a
            result is ``ok`` and only the kind of exception is judged).
        surrogate: The input holds a lone surrogate (rapidbleu must refuse it).
    """
    kind, value = ours
    if kind == "raised":
        if not isinstance(value, errors.RapidBleuError) or isinstance(value, errors.InternalError):
            return "crashed"
        if surrogate and not isinstance(value, errors.InvalidTextError):
            return "differed"
        if oracle is not None and oracle[0] == "value" and not surrogate:
            return "differed"  # the oracle scores what rapidbleu refuses
        return "refused"
    if surrogate:
        return "differed"  # a lone surrogate was scored
    if oracle is None:
        return "ok"
    if oracle[0] == "raised":
        return "differed"
    return "ok" if _same(value, oracle[1]) else "differed"


def with_surrogate(text: str, where: int) -> str:
    """``text`` with a lone surrogate inserted at ``where`` (modulo its length + 1)."""
    i = where % (len(text) + 1)
    return text[:i] + "\ud800" + text[i:]
