"""The result type every BLEU dialect returns, and the dialects' signatures.

A dialect counts n-grams with the one engine
(:func:`rapidbleu.metrics.bleu.tokens.token_statistics`, with its reference-length rule) and
turns the summed rows into a :class:`BleuResult` with its own formula; the per-item API
returns the same type for sacreBLEU's BLEU.

Example:
    >>> str(DialectSignature("nltk", weights="0.5,0.5", smooth="method0", auto_reweigh="no"))
    'BLEU|dialect:nltk|weights:0.5,0.5|smooth:method0|auto_reweigh:no'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rapidbleu.metrics.score import Signature

__all__ = ["BleuResult", "DialectSignature"]


class DialectSignature(Signature):
    """A dialect's signature: ``BLEU|dialect:NAME|key:value|...`` in the order given.

    Dialects have no sacreBLEU version or reference count to report; their options say which
    formula computed the number.

    Args:
        dialect: The dialect's name (``nltk``, ``sacrebleu-r``, ``hf-evaluate``).
        **fields: The options that decide the number, in display order.
    """

    def __init__(self, dialect: str, **fields: Any) -> None:
        self._abbr = {}
        self.info = {"dialect": dialect, **fields}

    def format(self, short: bool = False) -> str:
        """The signature string (``short`` changes nothing: the keys are already short)."""
        return "BLEU|" + "|".join(f"{k}:{v}" for k, v in self.info.items())


@dataclass(frozen=True)
class BleuResult:
    """A corpus BLEU with its parts: the per-item API's and every dialect's result.

    Attributes:
        score: BLEU, on the chosen scale (0..1 for ``unit``, 0..100 for ``percent``).
        precisions: n-gram precisions, same scale.
        brevity_penalty: The brevity penalty (0..1 on both scales).
        hyp_len: Candidate length in tokens.
        ref_len: Effective reference length in tokens.
        counts: Matched n-grams per order.
        totals: Candidate n-grams per order.
        signature: The signature string of the options used.
        scale: ``unit`` or ``percent``.
    """

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    hyp_len: int
    ref_len: int
    counts: tuple[float, ...]
    totals: tuple[float, ...]
    signature: str
    scale: str

    @property
    def length_ratio(self) -> float:
        """``hyp_len / ref_len`` (0 when ``ref_len`` is 0)."""
        return self.hyp_len / self.ref_len if self.ref_len else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"bleu": ..., "precisions": [...], ...}``.

        Example:
            >>> from rapidbleu import bleu
            >>> bleu([("a b c d", ["a b c d"])]).to_dict()["bleu"]
            1.0000000000000004
        """
        return {
            "bleu": self.score,
            "precisions": list(self.precisions),
            "brevity_penalty": self.brevity_penalty,
            "length_ratio": self.length_ratio,
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "signature": self.signature,
            "scale": self.scale,
        }
