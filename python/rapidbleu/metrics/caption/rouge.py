"""COCO ROUGE-L: pycocoevalcap 1.2's ``pycocoevalcap.rouge.rouge.Rouge``, scored by the core.

Its rules (``rouge.py``), all kept: tokens of ``str.split(" ")`` (only the space separates, so
an empty caption is one empty token); the LCS with each reference; the best precision and the
best recall over the references taken separately; ``beta = 1.2``; the corpus value is
``np.mean`` of the images' scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rapidbleu import _core
from rapidbleu.metrics.caption.inputs import threads

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Rouge"]


class Rouge:
    """pycocoevalcap's ``Rouge()``: ROUGE-L of tokenized captions, equal with ``==``.

    ``beta`` is an attribute, as there (1.2).

    Example:
        >>> mean, scores = Rouge().compute_score({1: ["a b c"], 2: ["x"]}, {1: ["a c"], 2: ["y"]})
        >>> round(float(mean), 6), scores.tolist()
        (0.386076, [0.7721518987341772, 0.0])
    """

    def __init__(self) -> None:
        self.beta = 1.2

    def compute_score(
        self, gts: Mapping[Any, Any], res: Mapping[Any, Any]
    ) -> tuple[np.float64, npt.NDArray[np.float64]]:
        """The mean ROUGE-L and every image's, in ``gts``'s order.

        Args:
            gts: Image id -> list of reference captions (tokenized text).
            res: Image id -> list of one caption.

        Returns:
            ``(np.mean(scores), scores)``, as pycocoevalcap returns them.

        Raises:
            AssertionError: pycocoevalcap's checks of the dictionaries.

        Example:
            >>> Rouge().compute_score({0: ["a b"]}, {0: ["a b"]})[1].tolist()
            [1.0]
        """
        import numpy as np

        # The dictionaries are read and checked in the core (as images() checks them).
        score = _core.CocoRougeOptions(self.beta).compute_score(gts, res, threads())
        # average_score = np.mean(np.array(score)): NumPy's own mean (and its warning when
        # there is no image).
        average_score = np.float64(np.mean(score))
        return average_score, score

    def method(self) -> str:
        """``"Rouge"``, as pycocoevalcap names it.

        Example:
            >>> Rouge().method()
            'Rouge'
        """
        return "Rouge"
