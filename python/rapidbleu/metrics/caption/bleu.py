"""COCO BLEU-1..n: pycocoevalcap 1.2's ``pycocoevalcap.bleu.bleu.Bleu``, scored by the core.

Its rules (``bleu_scorer.py``), all kept: captions split by ``str.split()``; per image the
closest reference length (ties to the shorter, ``option="closest"``); ``tiny = 1e-15`` added to
every match count and ``small = 1e-9`` to every n-gram count and reference length; the brevity
penalty ``exp(1 - 1/ratio)`` per image and for the corpus; the corpus statistics summed over the
images. ``compute_score`` prints the corpus statistics and the length ratio as pycocoevalcap
prints them (``verbose=1``, its default); ``verbose=0`` prints nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rapidbleu import _core
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.caption.inputs import threads

__all__ = ["Bleu"]

TINY = 1e-15
SMALL = 1e-9


class Bleu:
    """pycocoevalcap's ``Bleu(n)``: BLEU-1..n of tokenized captions, equal with ``==``.

    Args:
        n: The highest order (1 to 4; pycocoevalcap counts n-grams up to 4, so a larger ``n``
            fails there, and here, with ``IndexError``).

    Example:
        >>> gts = {1: ["a cat sits on the mat"], 2: ["a dog runs"]}
        >>> res = {1: ["a cat sits on a mat"], 2: ["the dog runs"]}
        >>> score, scores = Bleu(2).compute_score(gts, res, verbose=0)
        >>> [round(s, 6) for s in score], len(scores), len(scores[0])
        ([0.777778, 0.666667], 2, 2)
    """

    def __init__(self, n: int = 4) -> None:
        self._n = n
        # pycocoevalcap's attributes, unused by its compute_score.
        self._hypo_for_image: dict[Any, Any] = {}
        self.ref_for_image: dict[Any, Any] = {}

    def compute_score(
        self, gts: Mapping[Any, Any], res: Mapping[Any, Any], verbose: int = 1
    ) -> tuple[list[float], list[list[float]]]:
        """The corpus BLEU-1..n and, per order, every image's BLEU in ``gts``'s order.

        Args:
            gts: Image id -> list of reference captions (tokenized text).
            res: Image id -> list of one caption.
            verbose: 1 prints the corpus statistics and the ratio (pycocoevalcap's default);
                0 prints nothing (2, every image's statistics, is pycocoevalcap's only).

        Returns:
            ``(score, scores)``: ``n`` floats, and ``n`` lists of one float per image.

        Raises:
            rapidbleu.errors.InvalidOptionError: ``n`` outside 1..4, or ``verbose > 1`` (the
                accelerator mode then runs pycocoevalcap's own Bleu).
            AssertionError: Mismatched keys, a result that is not a list of one caption, or
                an image without references (pycocoevalcap's checks).

        Example:
            >>> Bleu(1).compute_score({0: ["a b"]}, {0: ["a b"]}, verbose=0)
            ([0.9999999990000008], [[0.9999999990000008]])
        """
        n = self._n
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
            # pycocoevalcap counts n-grams up to 4: Bleu(5) fails there with IndexError. In
            # the accelerator mode this error hands the call to pycocoevalcap itself.
            raise InvalidOptionError(
                f"COCO BLEU's n must be 1, 2, 3 or 4 (pycocoevalcap counts n-grams up to 4), "
                f"not {n!r}"
            )
        if verbose > 1:
            raise InvalidOptionError(
                "verbose=2 prints every image's statistics, which only pycocoevalcap's Bleu "
                "does; use verbose=0 or 1"
            )
        options = _core.CocoBleuOptions(n)
        # The dictionaries are read and checked in the core (as images() checks them).
        totals, scores = options.compute_score(gts, res, threads())
        score = options.scores(totals)
        if verbose > 0:
            # BleuScorer.compute_score: print(totalcomps); print("ratio:", ratio)
            testlen, reflen = totals[0], totals[1]
            totalcomps = {
                "testlen": testlen,
                "reflen": reflen,
                "guess": totals[2 : 2 + n],
                "correct": totals[2 + n :],
            }
            print(totalcomps)
            print("ratio:", (testlen + TINY) / (reflen + SMALL))
        return score, scores

    def method(self) -> str:
        """``"Bleu"``, as pycocoevalcap names it.

        Example:
            >>> Bleu().method()
            'Bleu'
        """
        return "Bleu"
