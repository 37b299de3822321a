"""COCO CIDEr-D: pycocoevalcap 1.2's ``pycocoevalcap.cider.cider.Cider``, scored by the core.

Its rules (``cider_scorer.py``), all kept: n-grams of orders 1..4 of ``str.split()`` tokens;
document frequencies over the images' reference sets (an n-gram counts once per image); the
log of the number of images; TF-IDF vectors, the clipped cosine similarity per order, the
Gaussian length penalty (``sigma = 6``), the mean over orders and over references, times 10;
the corpus value ``np.mean`` of the images' scores. Logarithms are NumPy's own (a table of
``np.log`` of the counts), so every image's score is equal, not close.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rapidbleu import _core
from rapidbleu.errors import InputError
from rapidbleu.metrics.caption.inputs import log_table, threads

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Cider"]


class Cider:
    """pycocoevalcap's ``Cider(n=4, sigma=6.0)``: CIDEr-D of tokenized captions, equal with ``==``.

    Args:
        test: Unused (pycocoevalcap's signature).
        refs: Unused (pycocoevalcap's signature).
        n: Orders averaged (pycocoevalcap counts up to 4; ``n < 4`` fails there).
        sigma: The length penalty's standard deviation.

    Example:
        >>> gts = {1: ["a cat on a mat", "a cat sits"], 2: ["a dog runs", "the dog runs"]}
        >>> res = {1: ["a cat sits on a mat"], 2: ["a dog runs"]}
        >>> mean, scores = Cider().compute_score(gts, res)
        >>> round(float(mean), 6), scores.shape
        (4.837654, (2,))
    """

    def __init__(self, test: Any = None, refs: Any = None, n: int = 4, sigma: float = 6.0) -> None:
        del test, refs
        self._n = n
        self._sigma = sigma

    def compute_score(
        self, gts: Mapping[Any, Any], res: Mapping[Any, Any]
    ) -> tuple[np.float64, npt.NDArray[np.float64]]:
        """The mean CIDEr-D and every image's, in ``gts``'s order.

        Args:
            gts: Image id -> list of reference captions (tokenized text).
            res: Image id -> list of one caption.

        Returns:
            ``(np.mean(scores), scores)``, as pycocoevalcap returns them.

        Raises:
            rapidbleu.errors.InvalidOptionError: ``n < 4`` or ``sigma`` 0 (pycocoevalcap fails
                there too; the accelerator mode runs it).
            AssertionError: pycocoevalcap's checks of the dictionaries.
            ValueError: No reference has a word (pycocoevalcap's ``max()`` of nothing).

        Example:
            >>> Cider().compute_score({0: ["a b"]}, {0: ["a b"]})[1].tolist()
            [0.0]
        """
        import numpy as np

        # Options the core refuses (n < 4, sigma 0) raise InvalidOptionError; the accelerator
        # mode then runs pycocoevalcap's own Cider.
        options = _core.CiderDOptions(self._n, self._sigma)
        try:
            # The dictionaries are read and checked in the core (as images() checks them).
            _, scores = options.compute_score(gts, res, log_table(len(gts)), threads())
        except InputError as e:
            # CiderScorer.compute_score: max(self.document_frequency.values()) of nothing.
            if "no document frequency" in str(e):
                raise ValueError("max() arg is an empty sequence") from e
            raise
        # np.mean(np.array(score)), NumPy's own mean.
        mean = np.float64(np.mean(scores))
        return mean, scores

    def method(self) -> str:
        """``"CIDEr"``, as pycocoevalcap names it.

        Example:
            >>> Cider().method()
            'CIDEr'
        """
        return "CIDEr"
