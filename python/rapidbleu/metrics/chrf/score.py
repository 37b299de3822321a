"""ChrF's score, signature and row layout (sacreBLEU's ``CHRFScore``, ``CHRFSignature``).

:func:`f_score` is sacreBLEU's ``CHRF._compute_f_score`` line by line, in Python, for the rows
the Rust core does not take (NumPy 1's float32 sums); the core scores every other row with the
same float operations in the same order.
"""

from __future__ import annotations

from typing import Any

from rapidbleu.metrics.layout import RowLayout
from rapidbleu.metrics.score import Score, Signature

__all__ = ["CHRFScore", "CHRFSignature", "chrf_layout", "f_score"]


class CHRFSignature(Signature):
    """ChrF's signature: ``nrefs|case|eff|nc|nw|space|version`` (sacreBLEU's ``CHRFSignature``).

    Example:
        >>> from rapidbleu.metrics import CHRF
        >>> chrf = CHRF(word_order=2)
        >>> _ = chrf.corpus_score(["a b c"], [["a b c"]])
        >>> chrf.get_signature().format(short=True).split("|v:")[0]
        '#:1|c:mixed|e:yes|nc:6|nw:2|s:no'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if not args["eps_smoothing"] else "no",
                "nc": args["char_order"],
                "nw": args["word_order"],
                "space": "yes" if args["whitespace"] else "no",
            }
        )


class CHRFScore(Score):
    """A chrF score (sacreBLEU's ``CHRFScore``), on the 0..100 scale.

    Named ``chrF{beta}`` plus one ``+`` per word order: ``chrF2``, ``chrF2++``, and ``chrF2.0``
    for ``beta=2.0``, as in sacreBLEU.

    Attributes:
        score: The chrF (chrF++) score.
        char_order: The character n-gram order.
        word_order: The word n-gram order (2: chrF++).
        beta: The weight of recall against precision.

    Example:
        >>> str(CHRFScore(61.25, 6, 2, 2))
        'chrF2++ = 61.25'
    """

    def __init__(self, score: float, char_order: int, word_order: int, beta: int | float) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{self.beta}" + "+" * self.word_order, score)


def chrf_layout(char_order: int, word_order: int) -> RowLayout:
    """``[hyp, ref, match]`` per character order (``c1..``), then per word order (``w1..``).

    Example:
        >>> chrf_layout(1, 1).columns
        ('hyp_c1', 'ref_c1', 'match_c1', 'hyp_w1', 'ref_w1', 'match_w1')
    """
    orders = [f"c{n}" for n in range(1, char_order + 1)] + [
        f"w{n}" for n in range(1, word_order + 1)
    ]
    columns = tuple(f"{kind}_{o}" for o in orders for kind in ("hyp", "ref", "match"))
    width = 3 * len(orders)
    groups = {
        "hyp": slice(0, width, 3),
        "ref": slice(1, width, 3),
        "match": slice(2, width, 3),
        "char": slice(0, 3 * char_order),
        "word": slice(3 * char_order, width),
    }
    return RowLayout(columns, groups)


def f_score(statistics: list[Any], beta: Any, order: int, eps_smoothing: Any) -> Any:
    """SacreBLEU's ``CHRF._compute_f_score`` of one row, line by line, on the row's own types.

    Args:
        statistics: ``[hyp, ref, match]`` per order, as Python or NumPy numbers.
        beta: The weight of recall against precision.
        order: Character plus word orders.
        eps_smoothing: The mean of per-order F scores instead of the effective order.

    Returns:
        The score, of the type sacreBLEU's arithmetic gives.

    Example:
        >>> f_score([2, 2, 1], 2, 1, False)
        50.0
    """
    eps = 1e-16
    score: Any = 0.0
    effective_order = 0
    factor = beta**2
    avg_prec: Any = 0.0
    avg_rec: Any = 0.0
    for i in range(order):
        n_hyp, n_ref, n_match = statistics[3 * i : 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else eps
        rec = n_match / n_ref if n_ref > 0 else eps
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100 * score / order
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0
