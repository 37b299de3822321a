"""Words as BLEU's tokenizer splits them: the unit of the report's word-level views.

Reference lengths (for buckets), matched n-grams (the n-gram difference table) and the
highlighted words of the segment view are all counted in the words BLEU counts: the line is
lowercased when BLEU lowercases, stripped on the right, tokenized by BLEU's tokenizer
(:func:`rapidbleu._core.tokenize`, or the Python tokenizer for MeCab and SentencePiece through
:meth:`BLEU.engine_inputs <rapidbleu.metrics.BLEU.engine_inputs>`) and split on whitespace,
as sacreBLEU's ``BLEU._preprocess_segment`` and ``extract_all_word_ngrams`` do. This lives above
the Metric seam: it uses only BLEU's public members, whatever metrics the report shows.

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> Words(BLEU()).split(["Hello, world!", None])
    [['Hello', ',', 'world', '!'], []]
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidbleu import _core
from rapidbleu.metrics.bleu import BLEU

__all__ = ["Words", "spans"]


class Words:
    """Splits lines into BLEU's words.

    Args:
        bleu: The BLEU whose tokenizer and case the words follow (the report builds it from
            the command's BLEU options, so ``-tok`` and ``-lc`` apply).
    """

    def __init__(self, bleu: BLEU) -> None:
        self._bleu = bleu
        self.tokenizer = bleu.tokenizer_signature
        self.lowercase = bool(bleu.lowercase)

    def split(self, lines: Sequence[str | None]) -> list[list[str]]:
        """The words of each line (``[]`` for a missing reference).

        Args:
            lines: Lines of text; ``None`` for a missing reference.

        Returns:
            One list of words per line.
        """
        present = [line for line in lines if line is not None]
        # engine_inputs runs a Python tokenizer (MeCab, SentencePiece) and lowercases for it;
        # a Rust tokenizer is left to _core.tokenize below.
        prepared, _ = self._bleu.engine_inputs(present, None)
        lowercase, name = self._bleu.options.lowercase, self._bleu.options.tokenizer
        words = iter(
            _core.tokenize(name, (line.lower() if lowercase else line).rstrip()).split()
            for line in prepared
        )
        return [[] if line is None else next(words) for line in lines]


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
