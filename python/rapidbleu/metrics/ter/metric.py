"""TER with sacreBLEU's API (``sacrebleu/metrics/ter.py``), computed by the Rust core.

Scores, edit counts, reference lengths and signatures equal sacreBLEU 2.6.0's with ``==`` (the
signature's version field says ``2.6.0+rapidbleu.X.Y.Z``). The Tercom tokenizer, the beam edit
distance and the shift search run in Rust, in parallel over segments with the GIL released.

Rows are ``[num_edits, ref_len_sum, num_refs]`` (:attr:`TER.layout`): sacreBLEU's row is
``[num_edits, ref_len_sum / num_refs]``, and its float term is kept as two exact integers.
**TER is not additive**: sacreBLEU sums the float terms one after the other in segment order
(``sum_of_lists``), and another order changes the last digits with three references. So
:meth:`TER.accumulate` continues that sequential sum chunk by chunk (streams and splits fold
their rows in segment order), and the significance tests use sacreBLEU's own float arithmetic:
float32 sums in segment order for the bootstrap, float64 matrix products for approximate
randomisation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.checks import check_flag, check_sentence_references
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.live_options import Rebuilds, built, refuse
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.score import Score, Signature
from rapidbleu.tokenizers.tokenizer_ter import TercomTokenizer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    import rapidbleu._core as _core

__all__ = ["TER", "TERScore", "TERSignature"]


class TERSignature(Signature):
    """SacreBLEU's ``TERSignature``: ``case``, ``tok``, ``norm``, ``punct`` and ``asian``.

    Example:
        >>> ter = TER(normalized=True)
        >>> _ = ter.corpus_score(["a b"], [["a b"]])
        >>> ter.get_signature().format(short=True).split("|v:")[0]
        '#:1|c:lc|t:tercom|nr:yes|pn:yes|as:no'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update(
            {
                "case": "mixed" if args["case_sensitive"] else "lc",
                "tok": args["tokenizer_signature"],
                "norm": args["normalized"],
                "punct": not args["no_punct"],
                "asian": args["asian_support"],
            }
        )


class TERScore(Score):
    """SacreBLEU's ``TERScore``.

    Args:
        score: The TER score (0..100 and above: edits can exceed the reference length).
        num_edits: The total number of edits (kept as ``int(num_edits)``).
        ref_length: The summed average reference lengths.

    Example:
        >>> s = TERScore(25.0, 1, 4.0)
        >>> s.format(), s.num_edits, s.ref_length
        ('TER = 25.00', 1, 4.0)
    """

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


def _ter(edits: Any, ref_length: Any) -> Any:
    """``TER._compute_score_from_stats``'s ratio, in the arithmetic of its operands' types."""
    if ref_length > 0:
        return edits / ref_length
    if edits > 0:
        return 1.0  # empty reference(s) and a non-empty hypothesis
    return 0.0  # both empty


def _ter_rows(edits: npt.NDArray[Any], ref_length: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``100 * _ter(e, r)`` element by element, in the arrays' dtype.

    The zero cases give Python's ``100 * 1.0`` and ``100 * 0.0``, which every float dtype
    holds exactly.
    """
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / ref_length
    zero = np.where(edits > 0, 1.0, 0.0).astype(ratio.dtype)
    return 100 * np.where(ref_length > 0, ratio, zero)


class TER(Metric[TERScore]):
    """Translation edit rate (TER), with sacreBLEU's constructor and methods.

    Args:
        normalized: Tercom's normalisation (and the Asian one with ``asian_support``).
        no_punct: Remove punctuation (and CJK punctuation with ``asian_support``).
        asian_support: The Asian rules; only with ``normalized`` and/or ``no_punct``.
        case_sensitive: Do not lowercase.
        references: Reference streams to keep, reused by every call that passes
            ``references=None``.
        num_threads: Threads for the Rust core (rapidbleu's own option); ``None`` uses
            ``$RAPIDBLEU_NUM_THREADS`` or all cores, ``1`` runs on the calling thread.

    Raises:
        rapidbleu.errors.InvalidOptionError: An option has no truth value.

    Example:
        >>> ter = TER()
        >>> print(ter.corpus_score(["d e f g h a b c"], [["a b c d e f g h"]]))
        TER = 12.50
    """

    cli_name = "ter"
    higher_is_better = False
    additive = False
    _SIGNATURE_TYPE = TERSignature
    # sacreBLEU's spellings (its "TER related arguments").
    CLI_OPTIONS = (
        CliOption(("--ter-case-sensitive",), "case_sensitive", bool, False, "do not lowercase"),
        CliOption(("--ter-asian-support",), "asian_support", bool, False, "Asian rules"),
        CliOption(("--ter-no-punct",), "no_punct", bool, False, "remove punctuation"),
        CliOption(("--ter-normalized",), "normalized", bool, False, "Tercom's normalisation"),
    )
    _LAYOUT = RowLayout(("num_edits", "ref_len_sum", "num_refs"))
    # sacreBLEU's TER bakes its options into the tokenizer in `__init__` (setting `normalized`
    # later changes only the signature, there as here) and calls `self.tokenizer` per segment.
    tokenizer = Rebuilds()

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        # The values as given, as sacreBLEU keeps them: its signature prints `norm` and
        # `asian` as they are (`norm:2`; no field for None). The tokenizer takes truth values.
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer = TercomTokenizer(
            normalized=check_flag(normalized, "normalized"),
            no_punct=check_flag(no_punct, "no_punct"),
            asian_support=check_flag(asian_support, "asian_support"),
            case_sensitive=check_flag(case_sensitive, "case_sensitive"),
        )
        self.tokenizer_signature = self.tokenizer.signature()
        self._options: _core.TerOptions = self.tokenizer.options
        if references is not None:
            self.cache_references(references)
        built(self)

    def _rebuild_options(self) -> None:
        """The core's options of a tokenizer set after construction (see :mod:`.live_options`).

        Only rapidbleu's :class:`TercomTokenizer` runs in the core; any other is refused.
        """
        if self._ref_cache is not None:
            refuse(self, "TER's tokenizer changed after references were cached")
        elif isinstance(self.tokenizer, TercomTokenizer):
            self._options = self.tokenizer.options
        else:
            refuse(
                self,
                "TER runs rapidbleu's TercomTokenizer in the core; another tokenizer "
                f"({type(self.tokenizer).__name__}) is not supported",
            )

    @property
    def layout(self) -> RowLayout:
        """``[num_edits, ref_len_sum, num_refs]`` (sacreBLEU's float term as two integers).

        Example:
            >>> TER().layout.columns
            ('num_edits', 'ref_len_sum', 'num_refs')
        """
        return self._LAYOUT

    @property
    def options(self) -> Any:
        """The options the core runs with (``rapidbleu._core.TerOptions``).

        Example:
            >>> TER(no_punct=True).options.no_punct
            True
        """
        return self._options

    # -- statistics ------------------------------------------------------------------------

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        rows, self.num_refs = self._options.statistics(
            hypotheses, references, self.num_threads, per_segment=per_segment
        )
        return rows

    def accumulate(self, totals: Any, rows: Rows) -> list[Any]:
        """Adds ``rows`` (the next segments, in order) to ``[num_edits, ref_length]``.

        The reference lengths are summed one after the other in segment order, continuing the
        running sum, so folding a stream chunk by chunk gives exactly sacreBLEU's
        ``sum_of_lists`` over the whole corpus.

        Example:
            >>> ter = TER()
            >>> rows = ter.statistics(["a b", "a c"], [["a b", "c a"], ["a b", "a b c"]])
            >>> ter.accumulate(ter.accumulate(None, rows[:1]), rows[1:]) == ter.total(rows)
            True
            >>> ter.total(rows)
            [1, 4.5]
        """
        import numpy as np

        edits, ref_length = (0, 0.0) if totals is None else totals
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        if rows.ndim == 1:  # one row
            rows = rows.reshape(1, -1)
        # The core checks the width (3 columns) and the values.
        edits, ref_length = self._options.accumulate(rows, (int(edits), float(ref_length)))
        return [edits, ref_length]

    # -- scores ----------------------------------------------------------------------------

    def score_totals(self, totals: Any) -> TERScore:
        """TER of corpus statistics (sacreBLEU's ``_compute_score_from_stats``).

        ``totals`` is ``[num_edits, ref_length]`` (what :meth:`total` gives) or a row of
        NumPy sums, whose dtype the arithmetic follows as in sacreBLEU.

        Example:
            >>> TER().score_totals([3, 8.0]).score
            37.5
        """
        total_edits, sum_ref_lengths = totals[0], totals[1]
        return TERScore(100 * _ter(total_edits, sum_ref_lengths), total_edits, sum_ref_lengths)

    def sentence_score(
        self,
        hypothesis: Any,
        references: Sequence[Any],
        *,
        pad_id: int | None = None,
        ref_lengths: Sequence[int] | None = None,
    ) -> TERScore:
        """TER of one hypothesis against its references (any number).

        Example:
            >>> TER().sentence_score("a b c", ["a b d"]).score
            33.33333333333333
        """
        if type(hypothesis) is str and pad_id is None and ref_lengths is None:
            # One core call for the totals (no rows array, no accumulate): programs call
            # sentence_ter once per item, where the template's path costs a third more.
            check_sentence_references(references)
            totals, self.num_refs = self._options.totals(
                [hypothesis], [references], self.num_threads, True
            )
            return self.score_totals(totals)
        return super().sentence_score(
            hypothesis, references, pad_id=pad_id, ref_lengths=ref_lengths
        )

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """The TER of each statistics row on its own (sentence TER), as float64.

        Example:
            >>> ter = TER()
            >>> ter.score_rows(ter.statistics(["a b", "x"], [["a b c", ""]])).tolist()
            [33.33333333333333, 100.0]
        """
        import numpy as np

        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        # Python's int / int is correctly rounded, as is float64 division of exact values.
        ref_length = rows[:, 1] / rows[:, 2]
        return _ter_rows(rows[:, 0].astype(np.float64), ref_length)

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[Any]:
        """Bootstrap scores as sacreBLEU computes them: float32 sums, float32 scores.

        sacreBLEU sums ``np.array(stats, 'float32')[idxs[k]]`` row after row (the order
        matters: the terms are not integers), then divides in float32 (NumPy 2). The core adds
        the float32 rows in that order; ``sums`` (exact integer sums) cannot be used.
        """
        import numpy as np

        f32 = self._options.bootstrap_sums_f32(
            np.ascontiguousarray(rows, dtype=np.int64),
            np.ascontiguousarray(idxs, dtype=np.int64),
            self.num_threads,
        )
        scores = _ter_rows(f32[:, 0], f32[:, 1])
        if (f32[:, 1] <= 0).any():
            # sacreBLEU's zero cases are Python floats, and NumPy makes a float64 array of them.
            return scores.astype(np.float64)
        return scores

    def randomization_sums(
        self, baseline: Rows, system: Rows, masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        """SacreBLEU's shuffled pseudo-systems, with its float64 matrix products.

        ``pos_sel @ bl_stats + neg_sel @ sys_stats`` on sacreBLEU's rows ``[edits, avg_ref_len]``
        (float64): the same NumPy operations on the same values give the same sums, whatever
        order the BLAS adds in.
        """
        bl, sy = self._float_rows(baseline), self._float_rows(system)
        neg = ~masks
        return masks @ bl + neg @ sy, neg @ bl + masks @ sy

    def _float_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """SacreBLEU's rows ``[num_edits, ref_len_sum / num_refs]`` as a float64 array."""
        import numpy as np

        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        out = np.empty((len(rows), 2), dtype=np.float64)
        out[:, 0] = rows[:, 0]
        out[:, 1] = rows[:, 1] / rows[:, 2]
        return out

    def randomization_scores(self, sums: Any) -> npt.NDArray[np.float64]:
        """Scores of shuffled float64 sums (sacreBLEU's ``_aggregate_and_compute`` per row)."""
        import numpy as np

        sums = np.asarray(sums, dtype=np.float64)
        return _ter_rows(sums[:, 0], sums[:, 1])

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """TER and its parts as JSON fields (``--jsonl``): ``ter``, ``num_edits``, ``ref_length``.

        Example:
            >>> ter = TER()
            >>> ter.score_fields(ter.corpus_score(["a b"], [["a c"]]), 100.0)
            {'ter': 0.5, 'num_edits': 1, 'ref_length': 2.0}
        """
        return {
            "ter": score.score / divisor,
            "num_edits": score.num_edits,
            "ref_length": float(score.ref_length),
        }

    def get_signature(self) -> TERSignature:
        """The signature of this metric (known once references have been seen).

        Example:
            >>> ter = TER(case_sensitive=True)
            >>> _ = ter.corpus_score(["a"], [["a"]])
            >>> str(ter.get_signature()).split("|version:")[0]
            'nrefs:1|case:mixed|tok:tercom|norm:no|punct:yes|asian:no'
        """
        return TERSignature(self.__dict__)
