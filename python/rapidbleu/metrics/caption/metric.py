"""The caption metrics on the Metric template: ``-m coco_bleu``, ``-m rouge_l``, ``-m cider``.

COCO BLEU, COCO ROUGE-L and CIDEr-D as template metrics, so the command, per-item scores,
confidence intervals, paired tests and Ray take them as any metric.

Rows: COCO BLEU's ``[testlen, reflen, guess_1..n, correct_1..n]`` add (the corpus score is
the score of their sums, as ``BleuScorer.compute_score`` computes it); ROUGE-L's ``[lcs_p,
hyp_len, lcs_r, ref_len]`` give each image's score, and the corpus value is their
``np.mean``. CIDEr-D's row is the image's score itself (its float64 bits in an int64): an
image's CIDEr-D depends on the document frequencies of every image's references, so they are
computed once from the whole set given to :meth:`statistics` (as pycocoevalcap does), and a
resample (bootstrap, paired test) is the mean of the resampled images' scores under those same
frequencies, never frequencies recounted per resample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError, UsageError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.caption.inputs import log_table
from rapidbleu.metrics.caption.score import CaptionScore, CaptionSignature
from rapidbleu.metrics.layout import RowLayout, Rows

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["COCOBLEU", "CIDErD", "COCORougeL"]


def _per_image(references: Any, per_segment: bool, count: int) -> list[list[str]]:
    """Per image, its references (streams transposed), ``None`` entries left out."""
    if per_segment:
        return [[r for r in refs if r is not None] for refs in references]
    return [[s[i] for s in references if s[i] is not None] for i in range(count)]


def _item_values(values: npt.NDArray[np.float64], divisor: float) -> list[float]:
    """``--jsonl --per-item``'s values from pycocoevalcap's 0..1 floats ``values``.

    At ``divisor`` 100 (the 0..1 scale) the floats themselves (``100 * v / 100`` is not always
    ``v``), else ``100 * v / divisor``.
    """
    if divisor == 100.0:
        return [float(v) for v in values.tolist()]
    return [100 * float(v) / divisor for v in values.tolist()]


class _MeanOfImages(Metric[CaptionScore]):
    """What ROUGE-L and CIDEr-D share: totals are image scores in order, the value their mean."""

    additive = False
    in_default_report = False
    _NAME = ""

    def _image_scores(self, rows: Rows) -> npt.NDArray[np.float64]:
        raise NotImplementedError

    def accumulate(self, totals: Any, rows: Rows) -> list[float]:
        """``totals`` (the image scores so far) with those of ``rows`` appended, in order.

        Example:
            >>> m = COCORougeL()
            >>> rows = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.accumulate(None, rows)
            [1.0, 0.0]
        """
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return [*([] if totals is None else totals), *self._image_scores(rows).tolist()]

    def score_totals(self, totals: Any) -> CaptionScore:
        """``np.mean`` of the image scores (NaN for none, as NumPy gives).

        Example:
            >>> COCORougeL().score_totals([1.0, 0.5]).value
            0.75
        """
        import numpy as np

        if len(totals) == 0:
            return CaptionScore(self._NAME, float("nan"))
        return CaptionScore(self._NAME, float(np.mean(np.asarray(totals, dtype=np.float64))))

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Each image's score, ``100 *`` pycocoevalcap's (the scale of ``score``).

        Example:
            >>> m = COCORougeL()
            >>> m.score_rows(m.statistics(["a b", "x"], [["a b", "y"]])).tolist()
            [100.0, 0.0]
        """
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return 100 * self._image_scores(rows)

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[np.float64]:
        """Each resample's ``100 *`` mean of its images' scores (NumPy's mean, index order).

        Example:
            >>> import numpy as np
            >>> m = COCORougeL()
            >>> rows = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.resample_scores(rows, np.array([[0, 0], [0, 1]])).tolist()
            [100.0, 50.0]
        """
        import numpy as np

        scores = self._image_scores(
            np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        )
        return np.asarray(100 * np.mean(scores[np.asarray(idxs)], axis=1), dtype=np.float64)

    def randomization_sums(
        self, baseline: Rows, system: Rows, masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        """Shuffled pseudo-systems' mean image scores (on the 0..100 scale).

        Example:
            >>> import numpy as np
            >>> m = COCORougeL()
            >>> a = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.randomization_sums(a, a, np.array([[True, False]]))[0].tolist()
            [50.0]
        """
        bl, sy = self.score_rows(baseline), self.score_rows(system)
        neg = ~masks
        n = max(len(bl), 1)
        return (masks @ bl + neg @ sy) / n, (neg @ bl + masks @ sy) / n

    def randomization_scores(self, sums: Any) -> npt.NDArray[np.float64]:
        """The means of :meth:`randomization_sums`, as they are.

        Example:
            >>> COCORougeL().randomization_scores([50.0]).tolist()
            [50.0]
        """
        import numpy as np

        return np.asarray(sums, dtype=np.float64)

    def item_values(
        self, hypotheses: Sequence[Any], references: Sequence[Any], divisor: float = 1.0
    ) -> list[float]:
        """Each image's score divided by ``divisor``; pycocoevalcap's own float at 100.

        Example:
            >>> COCORougeL().item_values(["a b", "x"], [["a b"], ["y"]], 100.0)
            [1.0, 0.0]
        """
        import numpy as np

        rows = self.statistics(hypotheses, references, per_segment=True)
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return _item_values(self._image_scores(rows), divisor)

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """A corpus score as JSON fields: pycocoevalcap's value under the metric's name.

        Example:
            >>> m = COCORougeL()
            >>> m.score_fields(m.corpus_score(["a b"], [["a b"]]))
            {'rouge_l': 1.0}
        """
        return {self.cli_name: score.value}


class COCOBLEU(Metric[CaptionScore]):
    """COCO BLEU-n as pycocoevalcap 1.2's ``Bleu(n)`` computes it, on the template.

    Args:
        n: The highest order (1..4); the score is BLEU-n, every order in ``values``.
        references: Reference streams to keep for later calls.
        num_threads: Threads for the Rust core (``None``: ``$RAPIDBLEU_NUM_THREADS`` or all).

    Example:
        >>> s = COCOBLEU(2).corpus_score(["a b c"], [["a b d"]])
        >>> [round(v, 6) for v in s.values]
        [0.666667, 0.57735]
    """

    cli_name = "coco_bleu"
    in_default_report = False
    CLI_OPTIONS = ()

    def __init__(
        self,
        n: int = 4,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
            raise InvalidOptionError(f"COCO BLEU's n must be 1, 2, 3 or 4, not {n!r}")
        self.n = n
        self._options = _core.CocoBleuOptions(n)
        self._layout = RowLayout(
            (
                "testlen",
                "reflen",
                *(f"guess_{k}" for k in range(1, n + 1)),
                *(f"correct_{k}" for k in range(1, n + 1)),
            )
        )
        if references is not None:
            self.cache_references(references)

    @property
    def layout(self) -> RowLayout:
        """``[testlen, reflen, guess_1..n, correct_1..n]``.

        Example:
            >>> COCOBLEU(1).layout.columns
            ('testlen', 'reflen', 'guess_1', 'correct_1')
        """
        return self._layout

    @property
    def options(self) -> _core.CocoBleuOptions:
        """The core's options (``rapidbleu._core.CocoBleuOptions``).

        Example:
            >>> COCOBLEU().options.n
            4
        """
        return self._options

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        rows, self.num_refs = self._options.statistics(
            hypotheses, references, self.num_threads, per_segment=per_segment
        )
        return rows

    def score_totals(self, totals: Any) -> CaptionScore:
        """BLEU-1..n of summed rows (``BleuScorer.compute_score``'s corpus formula).

        Example:
            >>> COCOBLEU(1).score_totals([2, 2, 2, 2]).value
            0.9999999990000008
        """
        values = self._options.scores([int(v) for v in totals])
        return CaptionScore(f"COCO-BLEU-{self.n}", values[-1], values)

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Each image's BLEU-n, ``100 *`` pycocoevalcap's.

        Example:
            >>> m = COCOBLEU(1)
            >>> m.score_rows(m.statistics(["a b"], [["a b"]])).tolist()
            [99.99999990000008]
        """
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return np.ascontiguousarray(100 * self._options.image_scores(rows)[:, -1])

    def item_values(
        self, hypotheses: Sequence[Any], references: Sequence[Any], divisor: float = 1.0
    ) -> list[float]:
        """Each image's BLEU-n divided by ``divisor``; pycocoevalcap's own float at 100.

        Example:
            >>> COCOBLEU(1).item_values(["a b"], [["a b"]], 100.0)
            [0.9999999990000008]
        """
        import numpy as np

        rows = self.statistics(hypotheses, references, per_segment=True)
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return _item_values(self._options.image_scores(rows)[:, -1], divisor)

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[np.float64]:
        """Each resample's ``100 *`` BLEU-n of its exact integer row sums.

        Example:
            >>> import numpy as np
            >>> m = COCOBLEU(1)
            >>> rows = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.resample_scores(rows, np.array([[0, 0]])).tolist()
            [99.99999995000005]
        """
        import numpy as np

        return 100 * self._options.bootstrap_scores(
            np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width),
            np.ascontiguousarray(idxs, dtype=np.int64),
            self.num_threads,
        )

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """JSON fields: BLEU-1..n as pycocoevalcap's ``eval`` names them.

        Example:
            >>> m = COCOBLEU(2)
            >>> m.score_fields(m.corpus_score(["a b"], [["a b"]]))
            {'Bleu_1': 0.9999999990000008, 'Bleu_2': 0.9999999987500011}
        """
        return {f"Bleu_{k + 1}": v for k, v in enumerate(score.values)}

    def get_signature(self) -> CaptionSignature:
        """The signature (known once references have been seen).

        Example:
            >>> m = COCOBLEU()
            >>> _ = m.corpus_score(["a"], [["a"]])
            >>> str(m.get_signature()).split("|version:")[0]
            'nrefs:1|n:4|tok:split'
        """
        return CaptionSignature(self.__dict__, {"n": self.n})


class COCORougeL(_MeanOfImages):
    """COCO ROUGE-L as pycocoevalcap 1.2's ``Rouge()`` computes it, on the template.

    Example:
        >>> COCORougeL().corpus_score(["a c"], [["a b c"]]).value
        0.7721518987341772
    """

    cli_name = "rouge_l"
    CLI_OPTIONS = ()
    _NAME = "ROUGE-L"
    _LAYOUT = RowLayout(("lcs_p", "hyp_len", "lcs_r", "ref_len"))

    def __init__(
        self,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        self._options = _core.CocoRougeOptions()
        if references is not None:
            self.cache_references(references)

    @property
    def layout(self) -> RowLayout:
        """``[lcs_p, hyp_len, lcs_r, ref_len]``.

        Example:
            >>> COCORougeL().layout.width
            4
        """
        return self._LAYOUT

    @property
    def options(self) -> _core.CocoRougeOptions:
        """The core's options (``rapidbleu._core.CocoRougeOptions``).

        Example:
            >>> COCORougeL().options.beta
            1.2
        """
        return self._options

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        rows, self.num_refs = self._options.statistics(
            hypotheses, references, self.num_threads, per_segment=per_segment
        )
        return rows

    def _image_scores(self, rows: Rows) -> npt.NDArray[np.float64]:
        return self._options.image_scores(rows)

    def get_signature(self) -> CaptionSignature:
        """The signature (known once references have been seen).

        Example:
            >>> m = COCORougeL()
            >>> _ = m.corpus_score(["a"], [["a"]])
            >>> str(m.get_signature()).split("|version:")[0]
            'nrefs:1|beta:1.2|tok:split'
        """
        return CaptionSignature(self.__dict__, {"beta": 1.2})


class _Pending:
    """A system's captions read by the command, not scored yet.

    CIDEr-D's document frequencies need every image's references first, so the chunks are
    kept and scored at the end.
    """

    def __init__(self) -> None:
        self.hyps: list[str] = []
        self.refs: list[list[str]] = []


class CIDErD(_MeanOfImages):
    """CIDEr-D as pycocoevalcap 1.2's ``Cider()`` computes it, on the template.

    The document frequencies are those of the references given to one :meth:`statistics`
    call (the whole set, as pycocoevalcap counts them); see the module documentation for
    resampling.

    Args:
        n: Orders averaged (4 or more).
        sigma: The length penalty's standard deviation.
        references: Reference streams to keep for later calls.
        num_threads: Threads for the Rust core.

    Example:
        >>> m = CIDErD()
        >>> round(m.corpus_score(["a b", "c d"], [["a b", "c e"]]).value, 6)
        3.125
    """

    cli_name = "cider"
    whole_set = True
    CLI_OPTIONS = ()
    _NAME = "CIDEr-D"
    _LAYOUT = RowLayout(("score_bits",))

    def __init__(
        self,
        n: int = 4,
        sigma: float = 6.0,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        self.n = n
        self.sigma = sigma
        self._cider = _core.CiderDOptions(n, sigma)
        if references is not None:
            self.cache_references(references)

    @property
    def layout(self) -> RowLayout:
        """One column: the image's CIDEr-D, its float64 bits as an int64.

        Example:
            >>> CIDErD().layout.columns
            ('score_bits',)
        """
        return self._LAYOUT

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        from rapidbleu.metrics.checks import num_refs

        refs = _per_image(references, per_segment, len(hypotheses))
        if per_segment:
            counts = {len(r) for r in refs}
            self.num_refs = counts.pop() if len(counts) == 1 else -1
        else:
            self.num_refs = num_refs(references)
        _, scores = self._cider.compute(
            list(hypotheses), refs, log_table(len(refs)), self.num_threads
        )
        return scores.view("int64").reshape(-1, 1)

    def _image_scores(self, rows: Rows) -> npt.NDArray[np.float64]:
        import numpy as np

        return np.ascontiguousarray(rows, dtype=np.int64).reshape(-1).view(np.float64)

    def accumulate_chunk(self, totals: list[Any], chunk: _core.TextChunk) -> list[Any]:
        """Keeps a chunk of the command's files, scored in :meth:`score_totals`.

        Scored once every image's references are known (the document frequencies of the
        whole set).
        """
        out = []
        streams = chunk.references()
        for i in range(chunk.num_systems):
            t = totals[i] if totals[i] is not None else _Pending()
            t.hyps.extend(chunk.hypotheses(i))
            out.append(t)
        refs = _per_image(streams, False, len(streams[0]) if streams else 0)
        for t in out:
            t.refs.extend(refs)
        return out

    def chunk_statistics(self, chunk: _core.TextChunk) -> list[Rows]:
        """Refused: a chunk's rows would use the chunk's document frequencies, not the set's.

        The command's ``-sl`` keeps every chunk and calls :meth:`statistics` once
        (:attr:`whole_set`), so this is reached only by a caller scoring one chunk alone.

        Raises:
            rapidbleu.errors.UsageError: Always.
        """
        raise UsageError(
            "CIDEr-D scores no chunk alone (its document frequencies come from every image's "
            "references); give the whole set to statistics() or sentence_scores()"
        )

    def score_totals(self, totals: Any) -> CaptionScore:
        """``np.mean`` of the image scores (or of the command's kept captions, scored now).

        Example:
            >>> CIDErD().score_totals([1.0, 2.0]).value
            1.5
        """
        if isinstance(totals, _Pending):
            rows = self.statistics(totals.hyps, totals.refs, per_segment=True)
            totals = self.total(rows)
        return super().score_totals(totals)

    def get_signature(self) -> CaptionSignature:
        """The signature (known once references have been seen).

        Example:
            >>> m = CIDErD()
            >>> _ = m.corpus_score(["a"], [["a"]])
            >>> str(m.get_signature()).split("|version:")[0]
            'nrefs:1|n:4|sigma:6.0|tok:split'
        """
        return CaptionSignature(self.__dict__, {"n": self.n, "sigma": self.sigma})
