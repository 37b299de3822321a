"""METEOR's score and signature.

The corpus value is evaluate's ``meteor``: ``np.mean`` of NLTK's sentence scores (0..1),
kept exact in :attr:`METEORScore.meteor`; :attr:`METEORScore.score` is 100 times it, on
sacreBLEU's scale, for the tables.
"""

from __future__ import annotations

from typing import Any

from rapidbleu.metrics.score import Score, Signature

__all__ = ["METEORScore", "METEORSignature"]


class METEORSignature(Signature):
    """METEOR's signature: ``nrefs|case|stem|wordnet|a|b|g|tok|version``.

    Example:
        >>> from rapidbleu.metrics.meteor import METEOR
        >>> m = METEOR(wordnet=False)
        >>> _ = m.corpus_score(["a b"], [["a b"]])
        >>> m.get_signature().format(short=True).split("|v:")[0]
        '#:1|c:lc|s:porter|wn:no|a:0.9|b:3.0|g:0.5|t:split'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update(
            {
                "case": "c",
                "stem": "s",
                "wordnet": "wn",
                "alpha": "a",
                "beta": "b",
                "gamma": "g",
                "tok": "t",
            }
        )
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "stem": "porter" if args["stem"] else "no",
                "wordnet": "3.0" if args["wordnet"] else "no",
                "alpha": args["alpha"],
                "beta": args["beta"],
                "gamma": args["gamma"],
                "tok": args.get("tokenize", "split"),
            }
        )


class METEORScore(Score):
    """A corpus METEOR: the mean of the sentence scores.

    Attributes:
        meteor: The mean of NLTK's sentence scores (0..1), as evaluate's ``meteor`` reports it.
        score: ``100 * meteor``.

    Example:
        >>> str(METEORScore(0.5))
        'METEOR = 50.00'
    """

    def __init__(self, meteor: float) -> None:
        self.meteor = meteor
        super().__init__("METEOR", 100 * meteor)
