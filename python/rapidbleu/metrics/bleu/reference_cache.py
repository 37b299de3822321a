"""BLEU's cached references (``BLEU(references=...)``), picklable as sacreBLEU's ``_ref_cache``.

The core's ``BleuReferenceCache`` holds the references tokenized and counted in Rust, which
pickle cannot carry. sacreBLEU's cache is a list of dicts, so its ``BLEU(references=...)``
pickles and deep-copies (a ``spawn`` pool sends it to every worker); this wrapper keeps the
references it was built from and rebuilds the core's cache from them when unpickled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rapidbleu._core as _core

__all__ = ["ReferenceCache"]


class ReferenceCache:
    """The core's ``BleuReferenceCache``, rebuilt from its references when unpickled.

    Args:
        refs: Reference streams (already tokenized for a Python tokenizer).
        options: The core's BLEU options they are counted with.
        num_threads: Threads for the core.

    Example:
        >>> import copy, pickle
        >>> cache = ReferenceCache([["a b c"]], _core.BleuOptions(), 1)
        >>> copy.deepcopy(cache).totals(["a b c"])[0] == cache.totals(["a b c"])[0]
        True
        >>> pickle.loads(pickle.dumps(cache)).num_refs
        1
    """

    __slots__ = ("_cache", "_options", "_refs", "_threads")

    def __init__(
        self, refs: Sequence[Sequence[str | None]], options: _core.BleuOptions, num_threads: int
    ) -> None:
        self._refs = [list(r) for r in refs]
        self._options = options
        self._threads = num_threads
        self._cache = _core.BleuReferenceCache(self._refs, options, num_threads)

    def __reduce__(self) -> tuple[type[ReferenceCache], tuple[Any, ...]]:
        return (ReferenceCache, (self._refs, self._options, self._threads))

    @property
    def num_refs(self) -> int:
        """SacreBLEU's ``num_refs`` (-1: variable)."""
        return self._cache.num_refs

    def __len__(self) -> int:
        return len(self._cache)

    def statistics(self, hyps: Sequence[str], num_threads: int = 0) -> tuple[Any, int]:
        """Rows of ``hyps`` against the references, and the ``" ."`` count."""
        return self._cache.statistics(hyps, num_threads)

    def totals(self, hyps: Sequence[str], num_threads: int = 0) -> tuple[list[int], int]:
        """The rows summed (no row array), and the ``" ."`` count."""
        return self._cache.totals(hyps, num_threads)
