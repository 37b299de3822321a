"""BLEU's score and signature (sacreBLEU's ``BLEUScore``, ``BLEUSignature``), and ``compute_bleu``.

``compute_bleu`` turns sufficient statistics into a score in the Rust core, with sacreBLEU's
float operations in sacreBLEU's order (``sacrebleu/metrics/bleu.py``); the quirks it copies are
listed in README's "Exactness".
"""

from __future__ import annotations

import math
import operator
import sys
from typing import TYPE_CHECKING, Any

import rapidbleu._core as _core
from rapidbleu.errors import InputError, InputTypeError
from rapidbleu.metrics.checks import check_flag
from rapidbleu.metrics.layout import RowLayout
from rapidbleu.metrics.score import Score, Signature

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MAX_NGRAM_ORDER",
    "NEUMAIER",
    "SMOOTH_DEFAULTS",
    "BLEUScore",
    "BLEUSignature",
    "compute_bleu",
    "score_fields",
    "score_of_counts",
    "truncated_addk_scores",
]

#: Default maximum n-gram order.
MAX_NGRAM_ORDER = 4
#: Smoothing methods and their default values (sacreBLEU's ``BLEU.SMOOTH_DEFAULTS``).
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: CPython 3.12 made sum() of floats compensated (Neumaier); sacreBLEU's final sum() of log
#: precisions, and hence the last bit of its score, depends on the interpreter it runs on.
NEUMAIER = sys.version_info >= (3, 12)


class BLEUSignature(Signature):
    """BLEU's signature: ``nrefs|case|eff|tok|smooth|version`` (sacreBLEU's ``BLEUSignature``).

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> bleu = BLEU()
        >>> _ = bleu.corpus_score(["a b c d"], [["a b c d"]])
        >>> str(bleu.get_signature()).split("|version")[0]
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth_str = args["smooth_method"]
        smooth_def = SMOOTH_DEFAULTS[smooth_str]
        if smooth_def is not None:
            smooth_val = args["smooth_value"]
            if smooth_val is None:
                smooth_val = smooth_def
            smooth_str += f"[{smooth_val:.2f}]"
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if args["effective_order"] else "no",
                "tok": args["tokenizer_signature"],
                "smooth": smooth_str,
            }
        )


class BLEUScore(Score):
    """A BLEU score and its parts (sacreBLEU's ``BLEUScore``), on the 0..100 scale.

    Attributes:
        score: BLEU.
        counts: Matched n-grams per order (with add-k smoothing, including the added k).
        totals: Hypothesis n-grams per order (likewise).
        precisions: Precision per order, 0..100.
        bp: Brevity penalty.
        sys_len: Hypothesis length in tokens.
        ref_len: Effective reference length in tokens.
        ratio: ``sys_len / ref_len`` (0 if ``ref_len`` is 0).

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> s = BLEU().corpus_score(["the cat sat"], [["the cat sat down"]])
        >>> s.counts, s.totals, round(s.bp, 4)
        ([3, 2, 1, 0], [3, 2, 1, 0], 0.7165)
    """

    def __init__(
        self,
        score: float,
        counts: list[Any],
        totals: list[Any],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        # Score.__init__ inlined, and the verbose text built only when printed: a sentence score
        # in a loop (sentence_bleu) should cost no string formatting.
        self.name = "BLEU"
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose_text = ""
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.ratio = self.sys_len / self.ref_len if self.ref_len else 0

    @property
    def prec_str(self) -> str:
        """The precisions as ``66.4/43.5/31.1/22.7`` (sacreBLEU's attribute; assignable)."""
        text = self.__dict__.get("_prec_str_text")
        return "/".join([f"{p:.1f}" for p in self.precisions]) if text is None else text

    @prec_str.setter
    def prec_str(self, text: str) -> None:
        # sacreBLEU's `prec_str` is a plain attribute: a program may set it (its printed
        # text, `_verbose`, was made when the score was, so it does not change).
        if not self._verbose_text:
            self._verbose_text = self._verbose
        self.__dict__["_prec_str_text"] = text

    @property
    def _verbose(self) -> str:
        if self._verbose_text:
            return self._verbose_text
        return (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    @_verbose.setter
    def _verbose(self, text: str) -> None:
        self._verbose_text = text

    def scaled(self, divisor: float) -> BLEUScore:
        """A copy with the score and precisions divided by ``divisor`` (``--scale unit``).

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> BLEU().corpus_score(["a b c d"], [["a b c d"]]).scaled(100.0).score
            1.0000000000000004
        """
        if divisor == 1.0:
            return self
        out = BLEUScore(
            self.score / divisor,
            self.counts,
            self.totals,
            [p / divisor for p in self.precisions],
            self.bp,
            self.sys_len,
            self.ref_len,
        )
        out._mean, out._ci = float(self._mean) / divisor, float(self._ci) / divisor
        return out


def compute_bleu(
    correct: list[int],
    total: list[int],
    sys_len: int,
    ref_len: int,
    smooth_method: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_ngram_order: int = MAX_NGRAM_ORDER,
) -> BLEUScore:
    """BLEU from sufficient statistics (sacreBLEU's ``BLEU.compute_bleu``).

    As in sacreBLEU, the default smoothing here is ``none``, and ``add-k`` adds ``k`` to the
    given ``correct`` and ``total`` lists in place (orders 2..N), which the score reports.

    Args:
        correct: Matched n-grams per order.
        total: Hypothesis n-grams per order.
        sys_len: Hypothesis length.
        ref_len: Effective reference length.
        smooth_method: ``none``, ``floor``, ``add-k`` or ``exp``.
        smooth_value: Value for ``floor`` / ``add-k`` (``None``: 0.1 / 1).
        effective_order: Truncate at the last order with hypothesis n-grams.
        max_ngram_order: Number of orders.

    Returns:
        The score.

    Example:
        >>> compute_bleu([4, 3, 2, 1], [4, 3, 2, 1], 4, 4).score
        100.00000000000004
    """
    options = _core.BleuOptions(
        max_order=max_ngram_order,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=check_flag(effective_order, "effective_order"),
        neumaier=NEUMAIER,
    )
    return score_of_counts(options, smooth_value, correct, total, sys_len, ref_len)


def score_of_counts(
    options: _core.BleuOptions,
    smooth_value: float | None,
    correct: list[int],
    total: list[int],
    sys_len: int,
    ref_len: int,
) -> BLEUScore:
    """:func:`compute_bleu` with checked ``options``; ``smooth_value`` as the caller gave it.

    Example:
        >>> score_of_counts(_core.BleuOptions(), None, [4, 3, 2, 1], [4, 3, 2, 1], 4, 4).score
        100.00000000000004
    """
    try:
        # The core takes integers only (ints, NumPy integers: anything with __index__).
        score, precisions, bp, addk_orders = options.compute(correct, total, sys_len, ref_len)
    except TypeError:
        raise InputTypeError("correct, total, sys_len and ref_len must be integer counts") from None
    except OverflowError:
        raise InputError(
            "correct, total, sys_len and ref_len must fit in 64-bit integers"
        ) from None
    sys_len, ref_len = operator.index(sys_len), operator.index(ref_len)
    if addk_orders:
        # sacreBLEU mutates the caller's lists (compute_bleu, `correct[n - 1] += ...`), adding
        # the value as given (an int stays an int: SMOOTH_DEFAULTS["add-k"] is 1).
        if not isinstance(correct, list):
            correct = list(correct)
        if not isinstance(total, list):
            total = list(total)
        k: Any = SMOOTH_DEFAULTS["add-k"] if smooth_value is None else smooth_value
        for n in range(2, addk_orders + 2):
            correct[n - 1] += k
            total[n - 1] += k
    return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)


def truncated_addk_scores(
    sums: Any, options: _core.BleuOptions, layout: RowLayout
) -> npt.NDArray[np.float64] | None:
    """Scores of int64 rows with a fractional add-k value, as sacreBLEU's int64 rows give them.

    sacreBLEU's approximate randomisation scores int64 shuffled sums with
    ``_aggregate_and_compute``, which adds k into the int64 row (``correct[n - 1] +=
    smooth_value``) and so truncates: the counts become floor(c + k). That is the score of no
    smoothing on those counts, except that a row without matches stays 0 (checked before
    adding). Any other option scores the rows as they are: ``None``.

    Example:
        >>> import numpy as np
        >>> opts = _core.BleuOptions(max_order=2, smooth_method="add-k", smooth_value=0.5)
        >>> rows = np.array([[2, 2, 1, 0, 2, 1]])
        >>> truncated_addk_scores(rows, opts, RowLayout.of(["h", "r"], correct=2, total=2))
        array([0.])
    """
    k = options.smooth_value
    if options.smooth_method != "add-k" or k is None or float(k) == math.floor(k):
        return None
    import numpy as np

    no_match = ~layout.group(sums, "correct").any(axis=1)
    mod = np.array(sums, dtype=np.int64)
    for group in ("correct", "total"):
        cols = layout.group(mod, group)
        cols[:, 1:] = np.floor(cols[:, 1:] + k)
    unsmoothed = _core.BleuOptions(
        max_order=options.max_order,
        smooth_method="none",
        effective_order=options.effective_order,
        neumaier=options.neumaier,
    )
    out = unsmoothed.score_rows(mod)
    out[no_match] = 0.0
    return out


def score_fields(score: BLEUScore, divisor: float = 1.0) -> dict[str, Any]:
    """BLEU and its parts as JSON fields (the per-item API's ``BleuResult.to_dict``).

    Args:
        score: The score.
        divisor: What BLEU and its precisions are divided by (100.0: 0..1).

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> s = BLEU().corpus_score(["a b c d"], [["a b c d"]])
        >>> sorted(score_fields(s, 100.0))[:3]
        ['bleu', 'brevity_penalty', 'counts']
    """
    return {
        "bleu": score.score / divisor,
        "precisions": [p / divisor for p in score.precisions],
        "brevity_penalty": score.bp,
        "length_ratio": score.sys_len / score.ref_len if score.ref_len else 0.0,
        "hyp_len": score.sys_len,
        "ref_len": score.ref_len,
        "counts": list(score.counts),
        "totals": list(score.totals),
    }
