"""The ``gts``/``res`` dictionaries of pycocoevalcap 1.2's scorers, checked as they check them.

Every scorer's ``compute_score(gts, res)`` asserts ``gts.keys() == res.keys()`` and, per image
(in ``gts``'s order), that the result is a list of one caption and the references a non-empty
list; a failed check is the same ``AssertionError``. Captions are already tokenized strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rapidbleu import _config

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Images", "images", "log_table", "threads"]

#: One caption per image and the image's references, in ``gts``'s order.
Images = tuple[list[str], list[list[str]]]


def images(gts: Mapping[Any, Any], res: Mapping[Any, Any]) -> Images:
    """The hypotheses and references of ``gts``/``res``, checked as pycocoevalcap checks them.

    Args:
        gts: Image id -> list of reference captions.
        res: Image id -> list of one caption.

    Returns:
        ``(hyps, refs)`` in ``gts``'s key order.

    Raises:
        AssertionError: Where pycocoevalcap's ``assert`` fails.

    Example:
        >>> images({1: ["a b"]}, {1: ["a"]})
        (['a'], [['a b']])
    """
    # Bleu/Rouge/Cider.compute_score: assert(gts.keys() == res.keys())
    if gts.keys() != res.keys():
        raise AssertionError
    hyps: list[str] = []
    refs: list[list[str]] = []
    for key in gts.keys():
        hypo = res[key]
        ref = gts[key]
        # assert(type(hypo) is list); assert(len(hypo) == 1); assert(type(ref) is list);
        # assert(len(ref) >= 1)
        if type(hypo) is not list or len(hypo) != 1 or type(ref) is not list or not ref:
            raise AssertionError
        hyps.append(hypo[0])
        refs.append(ref)
    return hyps, refs


def threads() -> int:
    """The core's thread count (``$RAPIDBLEU_NUM_THREADS`` or every core).

    Example:
        >>> threads() >= 0
        True
    """
    return _config.num_threads(None)


@lru_cache(maxsize=8)
def _table(size: int) -> npt.NDArray[np.float64]:
    import numpy as np

    return np.log(np.arange(1, size + 1, dtype=np.float64))


def log_table(count: int) -> npt.NDArray[np.float64]:
    """``np.log(k)`` for ``k = 1..n``, ``n >= count``: NumPy's own logarithms for the core.

    The size is rounded up to a power of two so that a training loop reuses one table.

    Example:
        >>> import numpy as np
        >>> float(log_table(3)[2]) == float(np.log(3.0))
        True
    """
    size = 1
    while size < max(count, 1):
        size *= 2
    return _table(size)
