"""The thread count and NumPy's logarithms, which the caption scorers hand the core.

pycocoevalcap 1.2's ``gts``/``res`` dictionaries themselves are read and checked in the core
(``crates/rapidbleu-py/src/caption/images.rs``) as every scorer's ``compute_score(gts, res)``
checks them: it asserts ``gts.keys() == res.keys()`` and, per image (in ``gts``'s order), that
the result is a list of one caption and the references a non-empty list; a failed check is the
same ``AssertionError``. Captions are already tokenized strings.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rapidbleu import _config

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["log_table", "threads"]


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
