"""The caption metrics' scores and signatures on the template.

A corpus value is pycocoevalcap's (0..1 for BLEU and ROUGE-L, CIDEr-D's own scale), kept exact
in the score's ``value``; ``score`` is 100 times it, on sacreBLEU's scale, for the tables (as
papers report CIDEr-D: 112.0 for 1.120).
"""

from __future__ import annotations

from typing import Any

from rapidbleu.metrics.score import Score, Signature

__all__ = ["CaptionScore", "CaptionSignature"]


class CaptionSignature(Signature):
    """A caption metric's signature: ``nrefs|metric's options|tok:split|version``.

    Example:
        >>> s = CaptionSignature({"num_refs": 5}, {"n": 4})
        >>> str(s).split("|version:")[0]
        'nrefs:5|n:4|tok:split'
    """

    def __init__(self, args: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"n": "n", "sigma": "s", "beta": "b", "tok": "t"})
        self.info.update(options)
        self.info["tok"] = "split"


class CaptionScore(Score):
    """A corpus caption score.

    Attributes:
        value: pycocoevalcap's value (BLEU-n, the mean ROUGE-L, the mean CIDEr-D).
        score: ``100 * value``.
        values: BLEU's every order (BLEU-1..n); ``[value]`` for the others.

    Example:
        >>> str(CaptionScore("CIDEr", 1.5))
        'CIDEr = 150.00'
    """

    def __init__(self, name: str, value: float, values: list[float] | None = None) -> None:
        self.value = value
        self.values = [value] if values is None else values
        super().__init__(name, 100 * value)
