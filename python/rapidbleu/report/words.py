"""Words as a metric counts them: the unit of the report's word-level views.

Reference lengths (for buckets), matched n-grams (the n-gram difference table) and the
highlighted words of the segment view are all counted in the words of one metric, asked
through the Metric seam (:meth:`Metric.words <rapidbleu.metrics.Metric.words>`): BLEU's are
the line lowercased when BLEU lowercases, stripped on the right, tokenized by BLEU's tokenizer
and split on whitespace, as sacreBLEU's ``BLEU._preprocess_segment`` and
``extract_all_word_ngrams`` do.

Example:
    >>> from rapidbleu.metrics import BLEU, CHRF
    >>> Words(word_metric([CHRF(), BLEU()])).split(["Hello, world!", None])
    [['Hello', ',', 'world', '!'], []]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric

__all__ = ["Words", "spans", "word_metric"]


def word_metric(metrics: Iterable[Metric[Any]]) -> Metric[Any] | None:
    """The first of ``metrics`` that counts words, or ``None`` if none does.

    Example:
        >>> from rapidbleu.metrics import CHRF, TER
        >>> word_metric([CHRF(), TER()]) is None
        True
    """
    return next((m for m in metrics if m.words([]) is not None), None)


class Words:
    """Splits lines into the words a metric counts.

    Args:
        metric: A metric that counts words (:meth:`Metric.words
            <rapidbleu.metrics.Metric.words>`); the command builds it from its own options,
            so BLEU's ``-tok`` and ``-lc`` apply.

    Attributes:
        tokenizer: The metric's ``tokenizer_signature``, which names the words in the report.
        lowercase: Whether the words are lowercased.

    Raises:
        rapidbleu.errors.InvalidOptionError: The metric counts no words.
    """

    def __init__(self, metric: Metric[Any]) -> None:
        if metric.words([]) is None:
            raise InvalidOptionError(
                f"{type(metric).__name__} counts no words; the report's word views need a "
                "metric that does (BLEU)"
            )
        self._metric = metric
        # Read as signatures read them (the metric's __dict__, sacreBLEU's attribute names),
        # which a metric that counts words has (Metric.words).
        fields = vars(metric)
        self.tokenizer: str = fields["tokenizer_signature"]
        self.lowercase = bool(fields["lowercase"])

    def split(self, lines: Sequence[str | None]) -> list[list[str]]:
        """The words of each line (``[]`` for a missing reference).

        Args:
            lines: Lines of text; ``None`` for a missing reference.

        Returns:
            One list of words per line.
        """
        words = self._metric.words(lines)
        assert words is not None  # checked in __init__
        return words


def spans(text: str, words: Sequence[str], lowercase: bool = False) -> list[tuple[int, int]]:
    """Where each word lies in ``text``: ``(start, end)``, or ``(-1, -1)`` if it is not there.

    Tokenizers insert spaces and 13a unescapes ``&quot;`` and friends, so the words are
    searched in order in the original line; a word the tokenizer rewrote is not found and is
    shown unhighlighted rather than shifting every later word.

    Args:
        text: The original line.
        words: Its words (from :meth:`Words.split`).
        lowercase: The words were lowercased.

    Returns:
        One ``(start, end)`` per word.

    Example:
        >>> spans("Hi, you.", ["Hi", ",", "you", "."])
        [(0, 2), (2, 3), (4, 7), (7, 8)]
        >>> spans("A &quot;b&quot;", ["A", '"', "b", '"'])
        [(0, 1), (-1, -1), (8, 9), (-1, -1)]
    """
    haystack = text.lower() if lowercase else text
    out: list[tuple[int, int]] = []
    pos = 0
    for word in words:
        at = haystack.find(word, pos)
        # Only the next few characters: a word found far ahead is a different occurrence.
        if at < 0 or at - pos > 8 + len(word):
            out.append((-1, -1))
            continue
        out.append((at, at + len(word)))
        pos = at + len(word)
    return out
