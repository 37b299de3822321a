"""sacreBLEU's functional chrF API (``corpus_chrf``, ``sentence_chrf`` in ``sacrebleu/compat.py``).

Same arguments and defaults as sacreBLEU's: ``remove_whitespace`` (the inverse of
:class:`~rapidbleu.metrics.CHRF`'s ``whitespace``) and no ``lowercase``. ``sentence_chrf`` is
called once per sentence in loops, so it reuses one :class:`~rapidbleu.metrics.CHRF` per option
set instead of building one per call as sacreBLEU does (same scores; far less overhead).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rapidbleu.metrics.chrf import CHRF
from rapidbleu.metrics.chrf_score import CHRFScore

__all__ = ["corpus_chrf", "sentence_chrf"]


def _make(
    char_order: int, word_order: int, beta: int | float, remove_whitespace: bool, eps: bool
) -> CHRF:
    return CHRF(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        whitespace=not remove_whitespace,
        eps_smoothing=eps,
    )


@lru_cache(maxsize=64)
def _cached(
    char_order: int, word_order: int, beta: int | float, remove_whitespace: bool, eps: bool
) -> CHRF:
    return _make(char_order, word_order, beta, remove_whitespace, eps)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF against one or more reference streams (sacreBLEU's ``corpus_chrf``).

    Args:
        hypotheses: One str per segment.
        references: Reference streams, each with one str per segment.
        char_order: Character n-gram order.
        word_order: Word n-gram order (2 is chrF++).
        beta: The weight of recall against precision.
        remove_whitespace: Drop whitespace before extracting character n-grams.
        eps_smoothing: chrF++.py's epsilon smoothing instead of the effective order.

    Returns:
        The score.

    Example:
        >>> import rapidbleu
        >>> print(rapidbleu.corpus_chrf(["The cat sat on the mat."], [["The cat is on the mat."]]))
        chrF2 = 67.17
    """
    metric = _make(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """ChrF of one hypothesis against its references (sacreBLEU's ``sentence_chrf``).

    Args:
        hypothesis: The hypothesis.
        references: Its references (the best one counts).
        char_order: Character n-gram order.
        word_order: Word n-gram order (2 is chrF++).
        beta: The weight of recall against precision.
        remove_whitespace: Drop whitespace before extracting character n-grams.
        eps_smoothing: chrF++.py's epsilon smoothing instead of the effective order.

    Returns:
        The score.

    Example:
        >>> round(sentence_chrf("The cat sat.", ["The cat sat on the mat."]).score, 4)
        49.2607
    """
    key = (char_order, word_order, beta, remove_whitespace, eps_smoothing)
    try:
        metric = _cached(*key)
    except TypeError:  # an unhashable argument: build the metric (it raises the error)
        metric = _make(*key)
    return metric.sentence_score(hypothesis, references)
