"""The line cache behind the batches of the MeCab and SentencePiece tokenizers.

:class:`LineCache` (``rapidbleu._core.LineCache``) reduces a batch to its distinct lines that
are not cached yet, hands those to the tokenizer in one call, and keeps the results (up to a
bound, oldest first out) for the next batch: the references scored against several systems,
and lines repeated across systems, are tokenized once. Tokenization is a pure function of the
line, so the cache changes speed, never output. It lives in Rust, and so do its results (a
:class:`~rapidbleu._core.TokenizedLines`, read as a sequence of ``str``): in a cold ja-mecab
BLEU its Python loops, and MeCab's output made into Python strings and back, were the largest
part of the distance to MeCab's own parse.

:class:`CachedBatches` is what both tokenizers build on it.

Example:
    >>> from rapidbleu.tokenizers._cache import LineCache
    >>> cache = LineCache(2)
    >>> list(cache.run(["a b", "c", "a b"], lambda todo: [s.upper() for s in todo]))
    ['A B', 'C', 'A B']
    >>> list(cache.run(["c", "d"], lambda todo: [s * 2 for s in todo]))  # "c" is cached
    ['C', 'dd']
    >>> list(cache.run(["A ", None], lambda t: t, lowercase=True, rstrip=True, allow_none=True))
    ['a', None]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rapidbleu._core import LineCache, MecabModel, TokenizedLines

__all__ = ["CachedBatches", "LineCache"]

Sequence.register(TokenizedLines)


class CachedBatches:
    """A tokenizer whose batches go through a :class:`LineCache`.

    Subclasses set ``_batches`` (the cache), ``_many`` (``_many(lines, num_threads)``: one
    tokenized string per line of a list of distinct lines) and ``_engine`` (MeCab's model,
    which the cache runs itself, or ``None`` to call ``_many``).
    """

    _batches: LineCache
    _many: Callable[[list[str], int], list[str]]
    _engine: MecabModel | None = None

    def _tokenizer(self, num_threads: int) -> MecabModel | Callable[[list[str]], list[str]]:
        if self._engine is not None:
            return self._engine
        return lambda todo: self._many(todo, num_threads)

    def _tokenize_batch(self, lines: Sequence[str], num_threads: int) -> list[str]:
        """``tokenize_batch``: the lines tokenized, as a list of ``str``."""
        done = self._batches.run(lines, self._tokenizer(num_threads), num_threads=num_threads)
        return list(done)  # type: ignore[arg-type]

    def preprocess_batch(
        self, lines: Sequence[str | None], lowercase: bool = False, num_threads: int = 0
    ) -> TokenizedLines:
        """Every line as sacreBLEU's ``BLEU._preprocess_segment`` makes it, as one batch.

        Each line is lowercased if asked and ``rstrip()``-ed, then tokenized; ``None`` (a
        missing reference) stays. The result is a sequence of ``str`` (and ``None``) that the
        core reads without making Python strings.

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
            self._tokenizer(num_threads),
            num_threads=num_threads,
            lowercase=lowercase,
            rstrip=True,
            allow_none=True,
        )
