"""The statistics half of the Metric template: rows in, corpus statistics and scores out.

:class:`MetricStatistics` is what a metric implements (:attr:`~MetricStatistics.layout`,
``_statistics``, :meth:`~MetricStatistics.score_totals`) and the public surface built on it
that everything above the metrics reads, in the order data flows:

- :meth:`~MetricStatistics.statistics`: one int64 row per segment (the Rust core does the
  work); :meth:`~MetricStatistics.chunk_statistics`: the same for a chunk of lines read from
  files;
- :meth:`~MetricStatistics.accumulate` / :meth:`~MetricStatistics.total`: the corpus
  statistics of rows (their sum, for additive metrics);
- :meth:`~MetricStatistics.score_rows` / :meth:`~MetricStatistics.sentence_scores`: every
  segment's score at once.

Metrics subclass :class:`rapidbleu.metrics.base.Metric`, which adds sacreBLEU's template
(``corpus_score``, ``sentence_score``, ``get_signature``) and the resampling surface on top.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.errors import InputTypeError, InvalidOptionError, NoReferencesError
from rapidbleu.io.tokens import TokenLayout, is_pretokenized
from rapidbleu.metrics.checks import (
    check_hypotheses,
    check_shape,
    check_streams,
    check_totals,
    num_refs,
)
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.score import Score

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["MetricStatistics", "S", "Scores"]

# NumPy is imported where it is used, not here: the command's corpus path runs without it.
Scores: TypeAlias = "npt.NDArray[Any]"
#: The score type a metric returns (``BLEUScore`` for BLEU).
S = TypeVar("S", bound=Score)


class MetricStatistics(ABC, Generic[S]):
    """What a metric implements, and its statistics rows (the base of ``Metric``).

    Args:
        num_threads: Threads for the Rust core; ``None`` reads ``$RAPIDBLEU_NUM_THREADS``
            (else all cores); ``1`` runs on the calling thread.

    Attributes:
        num_threads: The thread count in use (0: all cores).
        num_refs: References per segment of the last corpus seen (-1: it varies), as in
            sacreBLEU; the signature needs it.
    """

    def __init__(self, *, num_threads: int | None = None) -> None:
        self._ref_cache: Any = None
        self._ref_shape: tuple[int, ...] = ()  # the cached streams' lengths (nesting check)
        self.num_threads = _config.num_threads(num_threads)

    # -- what a metric implements ----------------------------------------------------------

    @property
    def options(self) -> _core.MetricOptions[Any, Any, Any] | None:
        """The core's options of this metric (its ``_core`` methods), or ``None``.

        A metric computed in Rust returns its ``_core`` options object, which carries the
        methods every metric shares (``_core.MetricOptions``: statistics, totals, scores of
        rows, resampled sums...); the template calls them. A metric computed in Python
        returns ``None`` and the template's defaults do the work.

        Example:
            >>> from rapidbleu.metrics import TER
            >>> TER().options.row_len
            3
        """
        return None

    @property
    @abstractmethod
    def layout(self) -> RowLayout:
        """What each column of this metric's statistics rows means."""

    @abstractmethod
    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        """One row per segment; sets ``num_refs``.

        ``references`` are streams (``references[k][i]``) or, with ``per_segment``, one list of
        references per hypothesis (``references[i]``).
        """

    @abstractmethod
    def score_totals(self, totals: Any) -> S:
        """The score of corpus statistics (sacreBLEU's ``_compute_score_from_stats``).

        ``totals`` is what :meth:`total` returns, or a row of NumPy sums of any dtype (float32
        rows in sacreBLEU's bootstrap), which the arithmetic must follow as sacreBLEU's does.
        """

    def _cache(self, references: Sequence[Any]) -> Any:
        """Prepares references once (default: keeps them); see :meth:`cache_references`."""
        self.num_refs = num_refs(references)
        return references

    def _counting_key(self) -> Any:
        """The options that prepared references depend on (default: none)."""
        return None

    def _cached_statistics(self, cache: Any, hypotheses: Sequence[Any]) -> Rows:
        """Rows of ``hypotheses`` against the prepared references ``cache``."""
        return self._statistics(hypotheses, cache, False)

    def _token_statistics(
        self, hypotheses: Any, references: Any, per_segment: bool, layout: TokenLayout
    ) -> Rows:
        """Rows of token IDs whose 2-D arrays end as ``layout`` says; the default refuses.

        Metrics that take token IDs (BLEU) implement it.
        """
        raise InvalidOptionError(
            f"{type(self).__name__} does not take token IDs, so pad_id, lengths and "
            "ref_lengths do not apply"
        )

    # -- the public statistics surface -----------------------------------------------------

    def cache_references(self, references: Sequence[Sequence[str | None]]) -> None:
        """Tokenizes and counts ``references`` once, for every later call without references.

        Args:
            references: Reference streams (one entry per segment each).
        """
        streams = check_streams(references)
        check_shape(0, streams)  # a flat list of str (the hypotheses are not known yet)
        self._ref_cache = self._cache(streams)
        self._ref_shape = tuple(len(s) for s in streams)
        # What the cache was prepared with: an option changed after it (live_options) and
        # meant to change the counts cannot apply to it.
        self._ref_cache_key = self._counting_key()

    def words(self, lines: Sequence[str | None]) -> list[list[str]] | None:
        """The words this metric counts n-grams of, per line; ``None`` if it counts no words.

        A metric that counts words (BLEU: its case and tokenizer, then a whitespace split)
        returns them, ``[]`` for a missing line (``None``), and has sacreBLEU's
        ``tokenizer_signature`` and ``lowercase`` attributes. The report's word views (length
        buckets, matched n-grams, highlighted segments) are in these words.

        Example:
            >>> from rapidbleu.metrics import CHRF
            >>> CHRF().words(["a b"]) is None
            True
        """
        return None

    @property
    def has_cached_references(self) -> bool:
        """Whether references are cached (:meth:`cache_references` or ``references=...``)."""
        return self._ref_cache is not None

    def statistics(
        self,
        hypotheses: Sequence[Any],
        references: Any = None,
        *,
        per_segment: bool = False,
        pad_id: int | None = None,
        lengths: Sequence[int] | None = None,
        ref_lengths: Sequence[Sequence[int] | None] | None = None,
    ) -> Rows:
        """Sufficient statistics of every segment: one int64 row each (:attr:`layout`).

        Args:
            hypotheses: One segment per entry (str; token sequences where the metric takes
                them, or a 2-D array of token IDs).
            references: Reference streams (``references[k][i]``); with ``per_segment``, one
                list of references per hypothesis (``references[i]``); ``None``: the cached
                references.
            per_segment: The layout of ``references`` (see above).
            pad_id: Token IDs only: the padding ID, dropped from every sequence (a 2-D array
                needs ``pad_id`` or its lengths; see
                :func:`rapidbleu.metrics.bleu.tokens.token_statistics`).
            lengths: Token IDs only: the row lengths of a 2-D ``hypotheses`` array.
            ref_lengths: Token IDs only: per reference list (stream, or with ``per_segment``
                a segment's references), the row lengths of its 2-D array or ``None``.

        Returns:
            An ``(n, layout.width)`` int64 array; the corpus score is
            ``score_totals(total(rows))``.

        Raises:
            rapidbleu.errors.EmptyInputError: No hypotheses, or no references at all.
            rapidbleu.errors.LengthMismatchError: Hypotheses and references differ in number.
            rapidbleu.errors.InputTypeError: Something other than text (or tokens) in the input.
        """
        hypotheses = check_hypotheses(hypotheses)
        layout = TokenLayout(pad_id, lengths, ref_lengths)
        if layout and not is_pretokenized(hypotheses):
            raise InvalidOptionError(
                "pad_id, lengths and ref_lengths describe token IDs (2-D arrays, lists of "
                "IDs); these hypotheses are text"
            )
        if references is not None:
            if not per_segment:
                check_shape(len(hypotheses), check_streams(references))
            if layout:
                rows = self._token_statistics(hypotheses, references, per_segment, layout)
            else:
                rows = self._statistics(hypotheses, references, per_segment)
        elif layout:
            raise InvalidOptionError(
                "pad_id, lengths and ref_lengths need the references in the same call "
                "(references=...), not cached ones"
            )
        elif self._ref_cache is not None:
            check_shape(len(hypotheses), [range(n) for n in self._ref_shape])
            rows = self._cached_statistics(self._ref_cache, hypotheses)
        else:
            raise NoReferencesError(
                "no references: pass references=..., or give them to the metric "
                "(references=... or cache_references(...)) to cache them"
            )
        return rows

    def _summed(self, hypotheses: Sequence[Any], references: Any) -> Any:
        """Corpus statistics of text without a row array (:meth:`_text_totals`), or ``None``.

        ``None`` where the input is token input or the metric has no such path.
        """
        hypotheses = check_hypotheses(hypotheses)
        if is_pretokenized(hypotheses):
            return None
        streams = check_streams(references)  # Arrow text read once, here
        check_shape(len(hypotheses), streams)
        return self._text_totals(hypotheses, streams)

    def _text_totals(self, hypotheses: Sequence[Any], references: Any) -> Any:
        """Hook: summed statistics of text hypotheses against (checked) reference streams.

        A metric whose core sums rows where it counts them returns the totals (lists of int),
        so that a corpus score makes no row array and imports no NumPy; the default, ``None``,
        has the corpus score sum :meth:`statistics`.
        """
        return None

    def chunk_statistics(self, chunk: _core.TextChunk) -> list[Rows]:
        """Rows of every system of a chunk of lines read from files (the command's stream).

        ``chunk`` (``rapidbleu._core.TextChunk``) holds aligned lines of every system and
        reference stream; its lines stay in Rust until asked for. The default asks for them as
        lists of ``str`` and calls :meth:`statistics`, preparing the chunk's references once
        when there are several systems (as sacreBLEU's ``metric(references=...)`` does for a
        whole corpus). Metrics with a Rust path override it to count the lines where they lie.
        Chunks arrive in file order; fold each system's rows with :meth:`accumulate`.

        Args:
            chunk: The chunk.

        Returns:
            One rows array per system, in order.

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> chunk = _core.TextChunk.from_lists([["a b c"], ["a b"]], [["a b c"]])
            >>> [r[:, :2].tolist() for r in MetricStatistics.chunk_statistics(BLEU(), chunk)]
            [[[3, 3]], [[2, 3]]]
        """
        if not isinstance(chunk, _core.TextChunk):  # the core's functions say the same
            raise InputTypeError(
                "chunk must be a rapidbleu._core.TextChunk (from ChunkReader or "
                f"TextChunk.from_lists), not {type(chunk).__name__}"
            )
        refs = chunk.references()
        if chunk.num_systems == 1:
            return [self.statistics(chunk.hypotheses(0), refs)]
        self.cache_references(refs)
        return [self.statistics(chunk.hypotheses(i)) for i in range(chunk.num_systems)]

    def accumulate_chunk(self, totals: list[Any], chunk: _core.TextChunk) -> list[Any]:
        """Folds a chunk read from files into every system's running corpus statistics.

        ``[accumulate(t, rows) for t, rows in zip(totals, chunk_statistics(chunk))]``: what a
        corpus score of a stream needs. Metrics that can sum a chunk in the core override it,
        so that no per-segment rows are made (the command's corpus path then never imports
        NumPy).

        Args:
            totals: One entry per system of the chunk: its statistics so far (``None``
                before its first chunk).
            chunk: The next chunk.

        Returns:
            The updated statistics, one per system.

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> chunk = _core.TextChunk.from_lists([["a b c"], ["a b"]], [["a b c"]])
            >>> totals = MetricStatistics.accumulate_chunk(BLEU(), [None, None], chunk)
            >>> [t[:2].tolist() for t in totals]
            [[3, 3], [2, 3]]
        """
        rows = self.chunk_statistics(chunk)
        check_totals(totals, len(rows))
        return [self.accumulate(t, r) for t, r in zip(totals, rows)]

    def accumulate(self, totals: Any, rows: Rows) -> Any:
        """Adds ``rows`` (the next segments, in order) to running corpus statistics.

        Streams and distributed blocks fold their rows through this, in segment order; for
        additive metrics it is a column sum (any order gives the same integers).

        Args:
            totals: The statistics so far (``None`` before the first rows).
            rows: The next rows.

        Returns:
            The updated statistics.

        Example:
            >>> import numpy as np
            >>> from rapidbleu.metrics import BLEU
            >>> bleu = BLEU(max_ngram_order=1)
            >>> t = bleu.accumulate(None, np.array([[1, 2, 1, 1]]))
            >>> bleu.accumulate(t, np.array([[3, 3, 2, 3]])).tolist()
            [4, 5, 3, 4]
        """
        import numpy as np

        part = (
            np.asarray(rows, dtype=np.int64)
            .reshape(-1, self.layout.width)
            .sum(axis=0, dtype=np.int64)
        )
        return part if totals is None else totals + part

    def total(self, rows: Rows) -> Any:
        """The corpus statistics of ``rows`` (``accumulate(None, rows)``).

        Example:
            >>> import numpy as np
            >>> from rapidbleu.metrics import BLEU
            >>> BLEU().total(np.array([[1, 2, 0, 0, 0, 0, 0, 0, 0, 0]] * 2)).tolist()[:2]
            [2, 4]
        """
        return self.accumulate(None, rows)

    def score_rows(self, rows: Rows) -> Scores:
        """The score of each row on its own (a sentence score per segment), as float64.

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> bleu = BLEU(effective_order=True)
            >>> bleu.score_rows(bleu.statistics(["a b"], [["a b"]])).tolist()
            [100.00000000000004]
        """
        import numpy as np

        return np.array([float(self.score_totals(r).score) for r in rows], dtype=np.float64)

    def sentence_scores(
        self,
        hypotheses: Sequence[Any],
        references: Any = None,
        *,
        per_segment: bool = False,
        pad_id: int | None = None,
        lengths: Sequence[int] | None = None,
        ref_lengths: Sequence[Sequence[int] | None] | None = None,
    ) -> Scores:
        """Every segment's sentence score in one batched call (float64).

        Equal, element by element, to ``sentence_score(h_i, refs_i).score`` where ``refs_i``
        are the segment's entries in each stream (or, with ``per_segment``,
        ``references[i]``). Metrics whose core scores sentences in its parallel pass (BLEU,
        chrF) do so for given references (:meth:`_pass_sentence_scores`); otherwise, and for
        the cached references or a padded token layout, the statistics rows are scored.

        Args:
            hypotheses: One segment per entry (str, or token sequences, or a 2-D array of IDs).
            references: Reference streams (as in :meth:`corpus_score`); ``None``: the cache.
            per_segment: ``references[i]`` is the list of references of hypothesis ``i``.
            pad_id: Token IDs only: the padding ID (see :meth:`statistics`).
            lengths: Token IDs only: the row lengths of a 2-D ``hypotheses`` array.
            ref_lengths: Token IDs only: the row lengths of each 2-D reference list.

        Returns:
            A float64 array of scores.

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> BLEU(effective_order=True).sentence_scores(["a b", "a x"], [["a b", "a b"]])
            array([100.,  50.])
        """
        layout = TokenLayout(pad_id, lengths, ref_lengths)
        if references is not None and not layout:
            scores = self._pass_sentence_scores(hypotheses, references, per_segment)
            if scores is not None:
                return scores
        return self.score_rows(
            self.statistics(hypotheses, references, per_segment=per_segment, **layout.kwargs())
        )

    def item_values(
        self, hypotheses: Sequence[Any], references: Sequence[Any], divisor: float = 1.0
    ) -> list[float]:
        """Each item's score divided by ``divisor`` (``--jsonl --per-item``'s values).

        ``references[i]`` is item ``i``'s list of references. The default divides
        :meth:`sentence_scores`; a metric whose oracle reports the 0..1 value itself (ROUGE's
        F-measure) returns that float where ``100 * F / 100`` would not be it.

        Example:
            >>> from rapidbleu.metrics import CHRF
            >>> CHRF().item_values(["abc"], [["abc"]], 100.0)
            [1.0]
        """
        scores = self.sentence_scores(hypotheses, references, per_segment=True).tolist()
        return [s / divisor for s in scores]

    def _pass_sentence_scores(
        self, hypotheses: Sequence[Any], references: Any, per_segment: bool
    ) -> Scores | None:
        """Sentence scores made in the core's parallel pass (no rows), or ``None``: none here.

        ``hypotheses`` and ``references`` are as the caller gave them (not checked yet).
        """
        return None
