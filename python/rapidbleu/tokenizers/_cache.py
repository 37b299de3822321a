"""The line cache behind the batches of the MeCab and SentencePiece tokenizers.

:class:`LineCache` (``rapidbleu._core.LineCache``) reduces a batch to its distinct lines that
are not cached yet, hands those to the tokenizer in one call, and keeps the results (up to a
bound, oldest first out) for the next batch: the references scored against several systems,
and lines repeated across systems, are tokenized once. Tokenization is a pure function of the
line, so the cache changes speed, never output. It lives in Rust because in a cold ja-mecab
BLEU its Python loops were the largest part of the distance to MeCab's own parse.

:class:`CachedBatches` is what both tokenizers build on it.

Example:
    >>> from rapidbleu.tokenizers._cache import LineCache
    >>> cache = LineCache(2)
    >>> cache.run(["a b", "c", "a b"], lambda todo: [s.upper() for s in todo])
    ['A B', 'C', 'A B']
    >>> cache.run(["c", "d"], lambda todo: [s * 2 for s in todo])  # "c" is cached
    ['C', 'dd']
    >>> cache.run(["A ", None], lambda todo: todo, lowercase=True, rstrip=True, allow_none=True)
    ['a', None]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rapidbleu._core import LineCache

__all__ = ["CachedBatches", "LineCache"]


class CachedBatches:
    """A tokenizer whose batches go through a :class:`LineCache` to ``_many``.

    Subclasses set ``_batches`` (the cache) and ``_many`` (``_many(lines, num_threads)``:
    one tokenized string per line of a list of distinct lines).
    """

    _batches: LineCache
    _many: Callable[[list[str], int], list[str]]

    def preprocess_batch(
        self, lines: Sequence[str | None], lowercase: bool = False, num_threads: int = 0
    ) -> list[str | None]:
        """Every line as sacreBLEU's ``BLEU._preprocess_segment`` makes it, as one batch.

        Each line is lowercased if asked and ``rstrip()``-ed, then tokenized; ``None`` (a
        missing reference) stays.

        Args:
            lines: The segments (str or ``None``).
            lowercase: Lowercase first (``str.lower()``).
            num_threads: Threads (0: all cores); the output does not depend on it.

        Raises:
            rapidbleu.errors.InputTypeError: A line is neither str nor ``None``.
            rapidbleu.errors.InvalidTextError: A line holds a lone surrogate.
        """
        return self._batches.run(
            lines,
            lambda todo: self._many(todo, num_threads),
            lowercase=lowercase,
            rstrip=True,
            allow_none=True,
        )
