"""What a distributed run returns: scores beside the number of rows they cover.

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> bleu = BLEU()
    >>> score = bleu.corpus_score(["a b c d"], [["a b c d"]])
    >>> print(CorpusResult(score, 1, 1, bleu.get_signature()))  # doctest: +ELLIPSIS
    BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:... = 100.00 ... [1 rows, 1 blocks]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy.typing as npt

from rapidbleu.analysis.significance import Result
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.score import Score, Signature

__all__ = ["CorpusResult", "PairedResult", "signature_of"]


def signature_of(
    metric: Metric[Any], num_refs: int, n_samples: int = 0, seed_text: str = ""
) -> Signature:
    """The metric's signature for a distributed run.

    ``nrefs`` comes from the blocks; a Poisson bootstrap shows ``poisson:N|seed:S`` instead of
    sacreBLEU's ``bs:N|seed:S`` (it is another draw).

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> signature_of(BLEU(), 2, 1000, "12345").format(short=True)  # doctest: +ELLIPSIS
        '#:2|poisson:1000|rs:12345|c:mixed|e:no|tok:13a|s:exp|v:...'
    """
    metric.num_refs = num_refs
    sig = metric.get_signature()
    # A bootstrap run in this process earlier leaves n_bootstrap/seed on the metric: not ours.
    sig.update("bs", None)
    sig.update("seed", None)
    if n_samples:
        # Where sacreBLEU writes bs:N|seed:S (right after nrefs), so the two read alike.
        info: dict[str, Any] = {}
        for key, value in sig.info.items():
            info[key] = value
            if key == "bs":
                info["poisson"] = n_samples
        info["seed"] = seed_text
        sig.info = info
    return sig


@dataclass
class CorpusResult:
    """One system's corpus score over a distributed dataset.

    Attributes:
        score: The metric's score, equal (``==``) to the single-machine score of the same rows;
            with a Poisson bootstrap, its mean and 95% half-width are set (``score.format()``
            shows ``μ = ... ± ...``).
        num_rows: Rows scored (every row of the dataset: none is skipped).
        num_blocks: Blocks the dataset was scored in.
        signature: The metric's signature.
        resampled: The Poisson-bootstrap scores, one per resample (``None`` without).
        seed: The bootstrap's seed (drawn when ``seed=None`` was asked for).
    """

    score: Score
    num_rows: int
    num_blocks: int
    signature: Signature
    resampled: npt.NDArray[Any] | None = None
    seed: int | None = None

    def format(self, width: int = 2) -> str:
        """The score line, as sacreBLEU prints it, then the rows and blocks scored."""
        line = self.score.format(width=width, signature=self.signature.format())
        return f"{line} [{self.num_rows:,} rows, {self.num_blocks:,} blocks]"

    def __str__(self) -> str:
        return self.format()


@dataclass
class PairedResult:
    """A paired Poisson bootstrap of several systems against the first (the baseline).

    Attributes:
        systems: The systems' column names, the baseline first.
        results: One sacreBLEU ``Result`` per system (score, p-value against the baseline,
            bootstrap mean and 95% half-width); the baseline has no p-value.
        scores: Each system's Score (``results[i].score`` is ``scores[i].score``).
        num_rows: Rows scored (per system).
        num_blocks: Blocks the dataset was scored in.
        signature: The metric's signature (with ``poisson:N|seed:S``).
        seed: The bootstrap's seed.
    """

    systems: Sequence[str]
    results: list[Result]
    scores: list[Score]
    num_rows: int
    num_blocks: int
    signature: Signature
    seed: int

    def format(self, width: int = 2) -> str:
        """A small table: system, score, μ ± CI, p-value."""
        lines = [f"{self.scores[0].name}|{self.signature.format()}"]
        name_width = max(len(s) for s in self.systems)
        for name, r in zip(self.systems, self.results):
            p = "" if r.p_value is None else f"  (p = {r.p_value:.4f})"
            lines.append(
                f"{name:<{name_width}}  {r.score:.{width}f}  "
                f"(μ = {r.mean:.{width}f} ± {r.ci:.{width}f}){p}"
            )
        lines.append(f"[{self.num_rows:,} rows, {self.num_blocks:,} blocks]")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()
