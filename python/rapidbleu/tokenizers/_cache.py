"""The line cache behind ``tokenize_batch`` of the MeCab and SentencePiece tokenizers.

A batch is reduced to its distinct lines that are not cached yet, those go to the tokenizer in
one call, and the results are kept (up to a bound, oldest first out) for the next batch: the
references scored against several systems, and lines repeated across systems, are tokenized
once. Tokenization is a pure function of the line, so the cache changes speed, never output.

Example:
    >>> from rapidbleu.tokenizers._cache import LineCache
    >>> cache = LineCache(2)
    >>> cache.run(["a b", "c", "a b"], lambda todo: [s.upper() for s in todo])
    ['A B', 'C', 'A B']
    >>> cache.run(["c", "d"], lambda todo: [s * 2 for s in todo])  # "c" is cached
    ['C', 'dd']
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import islice
from typing import Callable

__all__ = ["LineCache"]


class LineCache:
    """Tokenized lines, bounded to ``size`` entries; safe to share between threads.

    Args:
        size: The most lines kept; the oldest go first.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._lines: dict[str, str] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._lines)

    def run(self, lines: Sequence[str], tokenize: Callable[[list[str]], list[str]]) -> list[str]:
        """``tokenize`` applied to each line, calling it once for the lines not cached yet.

        Args:
            lines: The lines, in order, repeats allowed.
            tokenize: Tokenizes a list of distinct lines; returns one string per line.

        Returns:
            One tokenized string per line of ``lines``.
        """
        known: dict[str, str] = {}
        todo: list[str] = []
        cached = self._lines.get  # dict.get is atomic under the GIL; no lock needed to read
        for line in dict.fromkeys(lines):
            hit = cached(line)
            if hit is None:
                todo.append(line)
            else:
                known[line] = hit
        if todo:
            fresh = dict(zip(todo, tokenize(todo)))
            known.update(fresh)
            self._keep(fresh)
        return [known[line] for line in lines]

    def _keep(self, fresh: dict[str, str]) -> None:
        """Adds ``fresh`` and drops the oldest entries beyond the bound."""
        with self._lock:
            self._lines.update(fresh)
            excess = len(self._lines) - self._size
            if excess > 0:
                for old in list(islice(self._lines, excess)):
                    del self._lines[old]
