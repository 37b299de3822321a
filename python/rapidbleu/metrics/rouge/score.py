"""ROUGE's corpus score and signature, and rouge-score's arithmetic of one statistics triple."""

from __future__ import annotations

from typing import Any

from rapidbleu.metrics.rouge.scoring import Score as RougeTypeScore
from rapidbleu.metrics.score import Score, Signature

__all__ = ["LCS_TYPES", "ROUGEScore", "ROUGESignature", "type_score"]


#: The rouge types scored by LCS: rouge-score's ``_score_lcs`` and ``_summary_level_lcs`` return
#: ``Score(precision=0, recall=0, fmeasure=0)``, int zeros, when a side has no tokens.
LCS_TYPES = frozenset({"rougeL", "rougeLsum"})


def type_score(hits: int, pred: int, target: int, lcs: bool = False) -> RougeTypeScore:
    """rouge-score's score of one triple, in its Python arithmetic (see ``score_arrays``).

    ``lcs``: a type of :data:`LCS_TYPES`, whose empty side gives rouge-score's int zeros.

    Example:
        >>> type_score(1, 2, 4)
        Score(precision=0.5, recall=0.25, fmeasure=0.3333333333333333)
        >>> type_score(0, 0, 3, lcs=True)
        Score(precision=0, recall=0, fmeasure=0)
    """
    if lcs and (pred == 0 or target == 0):
        return RougeTypeScore(0, 0, 0)
    precision = hits / max(pred, 1)
    recall = hits / max(target, 1)
    if precision + recall > 0:
        return RougeTypeScore(precision, recall, 2 * precision * recall / (precision + recall))
    return RougeTypeScore(precision, recall, 0.0)


class ROUGESignature(Signature):
    """The signature: rouge types, stemmer, sentence splitting and tokenizer.

    Example:
        >>> from rapidbleu.metrics import ROUGE
        >>> r = ROUGE(["rouge1"], use_stemmer=True)
        >>> _ = r.corpus_score(["a b"], [["a b"]])
        >>> r.get_signature().format(short=True).split("|v:")[0]
        '#:1|t:rouge1|stem:yes|split:no|tok:default'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"types": "t", "stem": "stem", "split": "split", "tok": "tok"})
        self.info.update(
            {
                "types": "+".join(args["rouge_types"]),
                "stem": args["use_stemmer"],
                "split": args["split_summaries"],
                "tok": "unicode"
                if args.get("unicode")
                else "default"
                if not args["tokenizer"]
                else type(args["tokenizer"]).__name__,
            }
        )


class ROUGEScore(Score):
    """A corpus ROUGE score: the mean per-item scores of each rouge type.

    Args:
        scores: Rouge type -> mean ``(precision, recall, fmeasure)`` (0..1).

    Attributes:
        score: 100 times the mean F-measure of the first rouge type.
        scores: Rouge type -> mean :class:`~rapidbleu.metrics.rouge.scoring.Score`.

    Example:
        >>> s = ROUGEScore({"rouge1": RougeTypeScore(0.5, 0.5, 0.5)})
        >>> s.format(), s.scores["rouge1"].fmeasure
        ('ROUGE = 50.00 rouge1 P 50.00 R 50.00 F 50.00', 0.5)
    """

    def __init__(self, scores: dict[str, RougeTypeScore]) -> None:
        first = next(iter(scores.values()))
        super().__init__("ROUGE", 100 * first.fmeasure)
        self.scores = scores
        self._verbose = " ".join(
            f"{t} P {100 * s.precision:.2f} R {100 * s.recall:.2f} F {100 * s.fmeasure:.2f}"
            for t, s in scores.items()
        )
