"""The fuzzed metrics and their oracles, one entry per metric (shared by the fuzz tests).

:data:`METRICS` lists the metrics fuzzed against their oracle, each with the oracle class (of
sacreBLEU's metric shape: ``corpus_score``, ``sentence_score``) and a strategy of valid
options. The differential, hostile-shape, state-machine and concurrency tests loop over it, so
**adding a metric to the fuzzing is one entry here**; ``tests/fuzz/test_fuzz_families.py``
checks that every metric of :data:`rapidbleu.metrics.declarations.DECLARATIONS` has one, or is
named in :data:`FUZZED_ELSEWHERE` with the test that fuzzes it instead. ROUGE's oracle is
rouge-score's ``RougeScorer.score_multi`` per item with ROUGE's corpus rule on top
(:class:`RougeScoreCorpus`).

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
from rouge_score import rouge_scorer

import rapidbleu.metrics
from rapidbleu import errors
from rapidbleu.metrics.rouge.score import ROUGEScore
from rapidbleu.metrics.rouge.scoring import Score as RougeTypeScore

__all__ = [
    "FUZZED_ELSEWHERE",
    "METRICS",
    "MetricFamily",
    "RougeScoreCorpus",
    "classify",
    "outcome",
    "with_surrogate",
]


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
        against: The oracle's name in the tally (``<name>-vs-<against>``).
        surrogates_are_text: Whether a lone surrogate is text the metric scores as its oracle
            does (ROUGE: rouge-score's tokenizer reads it as a separator), instead of an
            ``InvalidTextError``.
    """

    name: str
    ours: Callable[..., Any]
    oracle: Callable[..., Any]
    options: st.SearchStrategy[dict[str, Any]]
    extra: st.SearchStrategy[dict[str, Any]] = st.just({})  # noqa: RUF009 (immutable)
    against: str = "sacrebleu"
    surrogates_are_text: bool = False


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


class RougeScoreCorpus:
    """rouge-score on sacreBLEU's metric shape, with ROUGE's documented corpus rule on top.

    Each item is rouge-score's ``score_multi(references, hypothesis)`` (the reference with the
    best F-measure, missing references left out); the corpus score is each type's mean
    precision, recall and F-measure, summed in item order. Input rouge-score cannot take (no
    item, no reference for an item, streams of another length) raises, as ROUGE refuses it.
    """

    def __init__(self, rouge_types: Any, use_stemmer: bool = False) -> None:
        self._scorer = rouge_scorer.RougeScorer(rouge_types, use_stemmer=use_stemmer)

    def corpus_score(self, hypotheses: list[str], references: list[list[str | None]]) -> Any:
        if not hypotheses or any(len(stream) != len(hypotheses) for stream in references):
            raise ValueError("no item, or reference streams of another length")
        sums: dict[str, list[float]] = {}
        for i, hypothesis in enumerate(hypotheses):
            targets = [stream[i] for stream in references if stream[i] is not None]
            if not targets:
                raise ValueError(f"item {i} has no reference")
            for rouge_type, score in self._scorer.score_multi(targets, hypothesis).items():
                acc = sums.setdefault(rouge_type, [0.0, 0.0, 0.0])
                for k in range(3):
                    acc[k] += score[k]
        n = len(hypotheses)
        return ROUGEScore({t: RougeTypeScore(*(x / n for x in acc)) for t, acc in sums.items()})

    def sentence_score(self, hypothesis: str, references: list[str]) -> Any:
        return self.corpus_score([hypothesis], [[r] for r in references])


_ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]

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


METRICS.append(
    MetricFamily(
        "rouge",
        rapidbleu.metrics.ROUGE,
        RougeScoreCorpus,
        st.fixed_dictionaries(
            {
                "rouge_types": st.lists(
                    st.sampled_from(_ROUGE_TYPES), min_size=1, max_size=3, unique=True
                )
            },
            optional={"use_stemmer": st.booleans()},
        ),
        against="rouge-score",
        surrogates_are_text=True,
    )
)

#: Metrics fuzzed by another test than those looping over :data:`METRICS` (name -> the test).
FUZZED_ELSEWHERE = {
    "meteor": "tests/meteor/test_meteor_parity.py::test_tokens_equal_nltk",
}


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
