"""Scores and signatures: sacreBLEU's ``Score`` and ``Signature`` (``sacrebleu/metrics/base.py``).

The formatting code follows sacreBLEU 2.6.0 line by line, because the text and JSON output must
be byte-identical to sacreBLEU's; the only deliberate difference is the signature's ``version``
field (see :data:`rapidbleu.version.SIGNATURE_VERSION`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import InputError, InvalidOptionError
from rapidbleu.version import SIGNATURE_VERSION

__all__ = ["Score", "Signature"]


class Score:
    """A metric's score, as sacreBLEU's ``Score``.

    Args:
        name: The metric's name, e.g. ``"BLEU"``.
        score: The score.

    Example:
        >>> Score("BLEU", 42.1234).format(width=1)
        'BLEU = 42.1'
    """

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        # Statistical test related fields (set by estimate_ci).
        self._mean = -1.0
        self._ci = -1.0
        # More info printed after the score.
        self._verbose_text = ""

    @property
    def _verbose(self) -> str:
        """Text printed after the score (sacreBLEU's ``Score._verbose``)."""
        return self._verbose_text

    @_verbose.setter
    def _verbose(self, text: str) -> None:
        self._verbose_text = text

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """Returns sacreBLEU's text (or JSON) representation of the score.

        Args:
            width: Number of decimals.
            score_only: Only the number.
            signature: The signature string to include.
            is_json: A JSON object (``json.dumps(indent=1)``) instead of a line of text.

        Returns:
            The formatted score.
        """
        d: dict[str, Any] = {
            "name": self.name,
            "score": float(f"{self.score:.{width}f}"),
            "signature": signature,
        }
        sc = f"{self.score:.{width}f}"
        if self._mean > 0:
            confidence_mean = f"{self._mean:.{width}f}"
            confidence_var = f"{self._ci:.{width}f}"
            confidence_str = f"μ = {confidence_mean} ± {confidence_var}"
            sc += f" ({confidence_str})"
            if is_json:
                d["confidence_mean"] = float(confidence_mean)
                d["confidence_var"] = float(confidence_var)
                d["confidence"] = confidence_str
        full_score = f"{self.name}|{signature}" if signature else self.name
        full_score = f"{full_score} = {sc}"
        if self._verbose:
            full_score += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            import json  # here, not at the top: a score printed as JSON is rare, imports are not

            return json.dumps(d, indent=1, ensure_ascii=False)
        return full_score

    @property
    def confidence(self) -> tuple[float, float] | None:
        """``(mean, half-width)`` of the 95% bootstrap interval; ``None`` when not estimated.

        What ``-ci`` prints as ``μ = mean ± half-width`` (set by :meth:`estimate_ci`).

        Example:
            >>> s = Score("BLEU", 2.0)
            >>> s.confidence is None
            True
            >>> s.estimate_ci([1.0, 2.0, 3.0, 4.0])
            >>> s.confidence
            (2.5, 1.5)
        """
        if self._mean > 0:  # sacreBLEU's own test for "estimated" (Score.format)
            return float(self._mean), float(self._ci)
        return None

    def scaled(self, divisor: float) -> Score:
        """A copy with the score divided by ``divisor`` (``--scale unit``: 0..1 instead of 0..100).

        Subclasses divide their other 0..100 values too (BLEU's precisions). A bootstrap
        estimate (``-ci``'s mean and half-width) is divided alike: it is on the score's scale.

        Example:
            >>> Score("BLEU", 50.0).scaled(100.0).score
            0.5
        """
        out = copy.copy(self)
        out.score = self.score / divisor
        # float64: chrF's and TER's bootstrap estimates are float32, as in sacreBLEU.
        out._mean, out._ci = float(self._mean) / divisor, float(self._ci) / divisor
        return out

    def estimate_ci(self, scores: Sequence[Score | float]) -> None:
        """Stores the mean and the 95% confidence half-width of bootstrap ``scores``.

        Args:
            scores: Scores of bootstrap resamples (``Score`` objects or plain floats), at
                least one.

        Raises:
            rapidbleu.errors.InvalidOptionError: ``scores`` is empty (sacreBLEU: ``IndexError``).
        """
        # Plain floats, NumPy floats (float32 for chrF and TER under NumPy 2) or Score objects:
        # the values keep their type, as in sacreBLEU, so the mean is computed alike.
        raw_scores = sorted(x.score if isinstance(x, Score) else x for x in scores)
        n = len(raw_scores)
        if n == 0:
            raise InvalidOptionError("estimate_ci needs at least one resampled score, got none")
        lower_idx = n // 40
        upper_idx = n - lower_idx - 1
        lower, upper = raw_scores[lower_idx], raw_scores[upper_idx]
        self._ci = 0.5 * (upper - lower)
        # Imported here: `statistics` loads `fractions` and `decimal`, a tenth of the command's
        # start-up, and only resampling needs it.
        import statistics

        self._mean = statistics.mean(raw_scores)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """A reproducibility signature, as sacreBLEU's ``Signature``.

    Args:
        args: The metric's attributes (``num_refs`` must be known).

    Raises:
        rapidbleu.errors.InputError: The number of references is not known yet (score a corpus
            first, or pass ``references`` to the metric).
    """

    def __init__(self, args: dict[str, Any]) -> None:
        self._abbr = {
            "version": "v",
            "nrefs": "#",
            "test": "t",
            "lang": "l",
            "subset": "S",
            "origlang": "o",
            "bs": "bs",
            "ar": "ar",
            "seed": "rs",
        }
        if "num_refs" not in args:
            raise InputError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        if num_refs == -1:
            num_refs = "var"
        self.info: dict[str, Any] = {
            "version": SIGNATURE_VERSION,
            "nrefs": num_refs,
            "bs": args.get("n_bootstrap", None),
            "ar": None,
            "seed": args.get("seed", None),
            "test": args.get("test_set", None),
            "lang": args.get("langpair", None),
            "origlang": args.get("origlang", None),
            "subset": args.get("subset", None),
        }

    def format(self, short: bool = False) -> str:
        """Returns the signature string (``key:value`` pairs joined by ``|``, version last).

        Args:
            short: Use the abbreviated keys (``#:1|c:mixed|...``).

        Returns:
            The signature.
        """
        pairs = []
        keys = [k for k in self.info if k != "version"] + ["version"]
        for name in keys:
            value = self.info[name]
            if value is not None:
                if isinstance(value, bool):
                    value = "yes" if value else "no"
                # A field sacreBLEU has no abbreviation for (e.g. rapidbleu's ``poisson``)
                # keeps its name in the short form instead of failing.
                final_name = self._abbr.get(name, name) if short else name
                pairs.append(f"{final_name}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Adds or replaces a field."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()
