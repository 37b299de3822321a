"""The Metric template: sacreBLEU's ``Metric`` (``sacrebleu/metrics/base.py``), and its seam.

Every metric is one subclass of :class:`Metric`. Its shape is sacreBLEU's, so its users
recognise it (``corpus_score``, ``sentence_score``, ``get_signature``, cached references),
and it adds a **public statistics surface** that everything above the metrics uses:
significance tests, per-item scoring, streaming of big files, pairwise matrices, the
distributed engine, the command's tables and the report. None of them touches a metric's
private members.

The surface, in the order data flows:

- :attr:`~Metric.layout`: what the columns of a statistics row mean.
- :meth:`~Metric.statistics`: one int64 row per segment (the Rust core does the work);
  :meth:`~Metric.chunk_statistics`: the same for a chunk of lines read from files.
- :meth:`~Metric.total`: the corpus statistics of rows (their sum, for additive metrics).
- :meth:`~Metric.score_totals`: corpus statistics -> a :class:`Score` (sacreBLEU's
  ``_compute_score_from_stats``), float64.
- :meth:`~Metric.score_rows` / :meth:`~Metric.sentence_scores`: every segment's score at once.
- :meth:`~Metric.resample_scores`: scores of bootstrap resamples with sacreBLEU's float32
  arithmetic; :meth:`~Metric.randomization_sums` / :meth:`~Metric.randomization_scores`:
  approximate randomisation.

A subclass implements :attr:`~Metric.layout`, :meth:`~Metric.score_totals` and
``_statistics``; everything else has a default that reproduces sacreBLEU's generic code
(e.g. ``_compute_score_from_stats`` on NumPy float32 rows for the bootstrap), and the built-in
metrics override the defaults with batched Rust paths that give the same numbers.

Example (a complete toy metric: unigram matches over hypothesis length)::

    class UnigramPrecision(Metric):
        cli_name = "uniprec"
        layout = RowLayout(("matched", "hyp_len"))

        def _statistics(self, hypotheses, references, per_segment):
            ...  # one [matched, hyp_len] row per segment; sets self.num_refs
        def score_totals(self, totals):
            return Score("UniPrec", 100 * totals[0] / max(totals[1], 1))

See ``docs/architecture.md``, "Adding a metric".
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar

from rapidbleu import _config, _core
from rapidbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
)
from rapidbleu.io.tokens import TokenLayout, is_pretokenized
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.nesting import check_shape
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.score import Score, Signature

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Metric", "RowLayout", "Rows", "Score", "Signature", "add_sums", "metric_classes"]

logger = logging.getLogger("rapidbleu")

# NumPy is imported where it is used, not here: the command's corpus path runs without it.
Scores: TypeAlias = "npt.NDArray[Any]"
#: The score type a metric returns (``BLEUScore`` for BLEU).
S = TypeVar("S", bound=Score)


def metric_classes() -> dict[str, type[Metric[Any]]]:
    """Every metric class defined so far that has a command-line name (``-m``), by that name.

    A subclass of :class:`Metric` with a ``cli_name`` is found here as soon as it is defined;
    nothing else registers it.

    Example:
        >>> import rapidbleu
        >>> "bleu" in metric_classes()
        True
    """
    found: dict[str, type[Metric[Any]]] = {}
    todo: list[type[Metric[Any]]] = list(Metric.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls.cli_name:
            found.setdefault(cls.cli_name, cls)
        todo.extend(cls.__subclasses__())
    return found


def check_streams(references: Any) -> Sequence[Any]:
    """``references`` as reference streams, or a clear error (sacreBLEU's layout).

    Example:
        >>> check_streams("a b")
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InputTypeError: references must be a sequence of reference streams, ...
    """
    if isinstance(references, (str, bytes)) or not (
        isinstance(references, Sequence) or is_pretokenized(references)
    ):
        raise InputTypeError(
            "references must be a sequence of reference streams, each a sequence of str with "
            "one entry per hypothesis, e.g. [[ref1_seg1, ref1_seg2], [ref2_seg1, ref2_seg2]]"
            f"; got a {type(references).__name__} (generators and iterators are read only "
            "once, sets have no order: pass list(...) of them)"
        )
    if len(references) == 0:
        raise EmptyInputError(
            "no reference streams: references is empty; give at least one stream, "
            "e.g. [[ref_seg1, ref_seg2, ...]]"
        )
    return references  # type: ignore[no-any-return]


def check_flag(value: Any, name: str) -> bool:
    """An on/off option: its Python truth value, as sacreBLEU's ``if self.lowercase:`` takes it.

    ``None``, ``0`` and ``""`` are off; ``2`` and ``"yes"`` (and ``"no"``) are on, as in
    sacreBLEU. Only a value without a truth value (a NumPy array of several entries) is
    refused.

    Example:
        >>> import numpy as np
        >>> check_flag(np.True_, "lowercase"), check_flag(0, "force"), check_flag(None, "force")
        (True, False, False)
        >>> check_flag("yes", "lowercase")
        True
    """
    try:
        return bool(value)
    except Exception as e:  # NumPy's "truth value of an array ... is ambiguous", or a bug
        raise InvalidOptionError(
            f"{name} takes a truth value (True or False), got {value!r}: {e}"
        ) from None


def add_sums(totals: list[Any], sums: list[list[int]]) -> list[Any]:
    """Each system's running totals plus a chunk's column sums (``None``: no totals yet).

    For :meth:`Metric.accumulate_chunk` of additive metrics whose core sums a chunk: Python
    ints, added exactly, with no NumPy.

    Example:
        >>> add_sums([None, [1, 2]], [[3, 4], [5, 6]])
        [[3, 4], [6, 8]]
    """
    check_totals(totals, len(sums))
    return [s if t is None else [a + b for a, b in zip(t, s)] for t, s in zip(totals, sums)]


def check_totals(totals: list[Any], num_systems: int) -> None:
    """Raises unless ``totals`` has one entry per system of a chunk (none may be dropped).

    Example:
        >>> check_totals([None], 2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.LengthMismatchError: totals has 1 entries but the chunk has 2 systems; ...
    """
    if isinstance(totals, (str, bytes)) or not isinstance(totals, Sequence):
        raise InputTypeError(
            "totals must be a list with one running total per system (None before its first "
            f"chunk), not {type(totals).__name__}"
        )
    if len(totals) != num_systems:
        raise LengthMismatchError(
            f"totals has {len(totals)} entries but the chunk has {num_systems} systems; give "
            "one running total per system (None before its first chunk)"
        )


def check_sentence_references(references: Any) -> None:
    """Raises unless ``references`` is a non-empty sequence (one hypothesis' references).

    Example:
        >>> check_sentence_references([])
        Traceback (most recent call last):
        ...
        rapidbleu.errors.EmptyInputError: no references given for the hypothesis
    """
    if type(references) is not list and (
        isinstance(references, (str, bytes))
        or not (isinstance(references, Sequence) or is_pretokenized(references))
    ):
        raise InputTypeError("references must be a sequence of str (the references)")
    if len(references) == 0:
        raise EmptyInputError("no references given for the hypothesis")


def check_hypotheses(hypotheses: Any) -> Sequence[Any]:
    """``hypotheses`` as a non-empty sequence of segments, or a clear error."""
    if is_pretokenized(hypotheses):  # token sequences or IDs: see rapidbleu.io.tokens
        return hypotheses  # type: ignore[no-any-return]
    if isinstance(hypotheses, (str, bytes)) or not isinstance(hypotheses, Sequence):
        raise InputTypeError(
            "hypotheses must be a sequence (e.g. a list) of str, one per segment, "
            f"not {type(hypotheses).__name__}"
        )
    if len(hypotheses) == 0:
        raise EmptyInputError("no hypotheses to score: the hypothesis list is empty")
    return hypotheses


class Metric(ABC, Generic[S]):
    """The template of every metric (sacreBLEU's ``Metric``), with rapidbleu's public seam.

    Args:
        num_threads: Threads for the Rust core; ``None`` reads ``$RAPIDBLEU_NUM_THREADS``
            (else all cores); ``1`` runs on the calling thread.

    Attributes:
        num_threads: The thread count in use (0: all cores).
        num_refs: References per segment of the last corpus seen (-1: it varies), as in
            sacreBLEU; the signature needs it.
    """

    #: The metric's name on the command line (``-m``); a subclass that sets it is listed by
    #: :func:`metric_classes`.
    cli_name: ClassVar[str] = ""
    #: Whether a higher score is better (TER: lower is better).
    higher_is_better: ClassVar[bool] = True
    #: Whether the corpus statistics are the column sums of the rows (BLEU, chrF). TER sums
    #: float reference lengths in segment order and says False.
    additive: ClassVar[bool] = True
    #: The metric's options on the command line.
    CLI_OPTIONS: ClassVar[tuple[CliOption, ...]] = ()
    _SIGNATURE_TYPE: ClassVar[type[Signature]] = Signature

    def __init__(self, *, num_threads: int | None = None) -> None:
        # sacreBLEU's Metric.__init__ fields (the signature reads them from __dict__).
        self._ref_cache: Any = None
        self._ref_shape: tuple[int, ...] = ()  # the cached streams' lengths (nesting check)
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self.num_threads = _config.num_threads(num_threads)

    @classmethod
    def from_command_line(
        cls, options: dict[str, Any], *, trg_lang: str = "", sentence_level: bool = False
    ) -> Metric[Any]:
        """The metric the command line asks for.

        Args:
            options: Values of :attr:`CLI_OPTIONS`, by constructor keyword.
            trg_lang: The target language of ``-l SRC-TRG`` ("" without it).
            sentence_level: Sentence-level scores are asked for (``-sl``, ``--per-item``).

        Returns:
            The metric (the default ignores ``trg_lang`` and ``sentence_level``).
        """
        return cls(**options)

    # -- what a metric implements ----------------------------------------------------------

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
        self.num_refs = _num_refs(references)
        return references

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
                :func:`rapidbleu.metrics.bleu_tokens.token_statistics`).
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
            raise EmptyInputError(
                "no references: pass references=..., or give them to the metric "
                "(references=... or cache_references(...)) to cache them"
            )
        return rows

    def corpus_statistics(
        self,
        hypotheses: Sequence[Any],
        references: Any = None,
        *,
        pad_id: int | None = None,
        lengths: Sequence[int] | None = None,
        ref_lengths: Sequence[Sequence[int] | None] | None = None,
    ) -> Rows:
        """:meth:`statistics` with reference streams (rapidbleu's name since its first release).

        ``pad_id``, ``lengths`` and ``ref_lengths`` are :meth:`statistics`'.

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> BLEU().corpus_statistics(["a b c"], [["a b d"]]).tolist()
            [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0]]
        """
        return self.statistics(
            hypotheses, references, pad_id=pad_id, lengths=lengths, ref_lengths=ref_lengths
        )

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
            >>> [r[:, :2].tolist() for r in Metric.chunk_statistics(BLEU(), chunk)]
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
            >>> [t[:2].tolist() for t in Metric.accumulate_chunk(BLEU(), [None, None], chunk)]
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

    def _pass_sentence_scores(
        self, hypotheses: Sequence[Any], references: Any, per_segment: bool
    ) -> Scores | None:
        """Sentence scores made in the core's parallel pass (no rows), or ``None``: none here.

        ``hypotheses`` and ``references`` are as the caller gave them (not checked yet).
        """
        return None

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> Scores:
        """Scores of bootstrap resamples, with sacreBLEU's arithmetic.

        sacreBLEU scores ``np.array(rows, 'float32')[idxs].sum(1)`` row by row with
        ``_compute_score_from_stats``; the scores keep the dtype its arithmetic gives (float64
        for BLEU, float32 for chrF and TER under NumPy 2).

        Args:
            rows: The statistics rows.
            idxs: ``(n_samples, n)`` resample indices.
            sums: The exact int64 sums ``rows[idxs].sum(1)`` when already known.
        """
        import numpy as np

        from rapidbleu.metrics.resampling import exact_sums, f32_sums

        if sums is None:
            sums = exact_sums(rows, idxs, self.num_threads)
        f32 = f32_sums(sums, rows, idxs)
        return np.array([self.score_totals(row).score for row in f32])

    def randomization_sums(
        self, baseline: Rows, system: Rows, masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        """SacreBLEU's shuffled pseudo-systems of approximate randomisation.

        ``(masks @ baseline + ~masks @ system, ~masks @ baseline + masks @ system)``, exact.
        """
        import numpy as np

        return _core.ar_sums(
            np.ascontiguousarray(baseline, dtype=np.int64),
            np.ascontiguousarray(system, dtype=np.int64),
            masks,
            self.num_threads,
        )

    def randomization_scores(self, sums: Any) -> Scores:
        """Scores of shuffled sums (sacreBLEU's ``_aggregate_and_compute`` of each row)."""
        return self.score_rows(sums)

    def pairwise_matrices(
        self, groups: Sequence[tuple[Sequence[Any], Sequence[Any]]]
    ) -> list[npt.NDArray[np.float64]]:
        """Per group ``(hypotheses, references)``, the ``N x M`` matrix of sentence scores.

        Entry ``[i, j]`` equals ``sentence_score(hypotheses[i], [references[j]]).score``. The
        default scores every pair in one batched :meth:`sentence_scores` call per group.

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> BLEU(effective_order=True).pairwise_matrices([(["a b", "c"], ["a b"])])[0].tolist()
            [[100.00000000000004], [0.0]]
        """
        import numpy as np

        out = []
        for hyps, refs in groups:
            n, m = len(hyps), len(refs)
            if n == 0 or m == 0:
                out.append(np.zeros((n, m)))
                continue
            pair_hyps = [h for h in hyps for _ in range(m)]
            pair_refs = [[r] for _ in range(n) for r in refs]
            scores = self.sentence_scores(pair_hyps, pair_refs, per_segment=True)
            out.append(np.asarray(scores, dtype=np.float64).reshape(n, m))
        return out

    def score_fields(self, score: Score, divisor: float = 1.0) -> dict[str, Any]:
        """A score as JSON fields (``--jsonl`` output): ``{cli_name: score / divisor}``.

        Metrics add their details (BLEU: precisions, brevity penalty, lengths, counts).

        Example:
            >>> from rapidbleu.metrics import BLEU
            >>> Metric.score_fields(BLEU(), Score("BLEU", 50.0), 100.0)  # the default
            {'bleu': 0.5}
        """
        return {self.cli_name: score.score / divisor}

    # -- sacreBLEU's template ----------------------------------------------------------------

    def corpus_score(
        self,
        hypotheses: Sequence[Any],
        references: Any,
        n_bootstrap: int = 1,
        *,
        pad_id: int | None = None,
        lengths: Sequence[int] | None = None,
        ref_lengths: Sequence[Sequence[int] | None] | None = None,
    ) -> S:
        """The corpus score of ``hypotheses`` against reference streams.

        Args:
            hypotheses: One segment per entry.
            references: Reference streams, each with one entry (str, or ``None`` for a missing
                reference) per segment; ``None`` uses the cached references.
            n_bootstrap: With more than 1, also estimate the mean and 95% confidence interval
                from ``n_bootstrap`` bootstrap resamples (seed ``$SACREBLEU_SEED``, default
                12345), as sacreBLEU does; the signature then shows ``bs:`` and ``seed:``.
                At most :data:`rapidbleu._config.MAX_RESAMPLES`.
            pad_id: Token IDs only: the padding ID (see :meth:`statistics`).
            lengths: Token IDs only: the row lengths of a 2-D ``hypotheses`` array.
            ref_lengths: Token IDs only: the row lengths of each 2-D reference stream.

        Returns:
            The score.
        """
        n = _config_int(n_bootstrap, "n_bootstrap")
        if n > _config.MAX_RESAMPLES:
            raise InvalidOptionError(
                f"n_bootstrap must be at most {_config.MAX_RESAMPLES:,} (0 or 1: no resampling), "
                f"got {n_bootstrap!r}"
            )
        rows = self.statistics(
            hypotheses, references, pad_id=pad_id, lengths=lengths, ref_lengths=ref_lengths
        )
        score = self.score_totals(self.total(rows))
        if n > 1:
            # sacreBLEU's Metric.corpus_score: resample, then record n and seed for the signature.
            seed_text, seed = _config.seed()
            self.n_bootstrap = n
            self.seed = seed_text
            from rapidbleu.metrics.resampling import bootstrap_indices

            idxs = bootstrap_indices(seed, n, len(rows))
            score.estimate_ci(list(self.resample_scores(rows, idxs)))
        return score

    def sentence_score(
        self,
        hypothesis: Any,
        references: Sequence[Any],
        *,
        pad_id: int | None = None,
        ref_lengths: Sequence[int] | None = None,
    ) -> S:
        """The score of one hypothesis against its references (any number).

        Args:
            hypothesis: The hypothesis.
            references: Its references (``None`` entries are skipped); token IDs may be one
                2-D array, one row per reference.
            pad_id: Token IDs only: the padding ID, dropped from every sequence.
            ref_lengths: Token IDs only: the row lengths of a 2-D ``references`` array.

        Returns:
            The score.
        """
        check_sentence_references(references)
        layout = TokenLayout(pad_id, None, None if ref_lengths is None else [ref_lengths])
        if layout:
            rows = self._token_statistics([hypothesis], [references], True, layout)
        else:
            rows = self._statistics([hypothesis], [references], True)
        return self.score_totals(self.total(rows))

    def get_signature(self) -> Signature:
        """The signature of this metric (known once references have been seen)."""
        return self._SIGNATURE_TYPE(self.__dict__)

    # -- tokenized-input warning (sacreBLEU's Metric._extract_corpus_statistics) ------------

    def warn_tokenized(self, count: int, name: str = "") -> None:
        """Warns, as sacreBLEU does, when ``count`` (>= 100) hypotheses end in ``" ."``.

        sacreBLEU checks this for metrics built with ``force=False`` (only BLEU has the option);
        such a metric calls this from ``_statistics``, and the command calls it once per system
        when it streams a file in chunks.
        """
        if count < 100:
            return
        where = f"{name}: that's" if name else "That's"
        logger.warning(f"{where} 100 lines that end in a tokenized period ('.')")
        logger.warning(
            "It looks like you forgot to detokenize your test data, which may hurt your score."
        )
        logger.warning(
            "If you insist your data is detokenized, or don't care, you can suppress this "
            "message with the `force` parameter."
        )

    # -- sacreBLEU's private names, for code written against sacreBLEU -----------------------

    def _extract_corpus_statistics(self, hypotheses: Sequence[Any], references: Any) -> Rows:
        return self.statistics(hypotheses, references)

    def _compute_score_from_stats(self, stats: Any) -> S:
        return self.score_totals(stats)

    def _aggregate_and_compute(self, stats: Any) -> S:
        import numpy as np

        return self.score_totals(self.total(np.asarray(stats)))


def count_tokenized(hypotheses: Sequence[Any]) -> int:
    """How many hypotheses end in ``" ."`` (sacreBLEU's test for tokenized input).

    Example:
        >>> count_tokenized(["a .", "b.", 3])
        1
    """
    return sum(1 for h in hypotheses if isinstance(h, str) and h.endswith(" ."))


def _num_refs(references: Sequence[Any]) -> int:
    """SacreBLEU's ``num_refs`` of reference streams: non-None entries per segment (-1: varies)."""
    counts = {sum(r is not None for r in seg) for seg in zip(*references)}
    return counts.pop() if len(counts) == 1 else -1


def _config_int(value: Any, what: str) -> int:
    """An integer option (ints and NumPy integers; not bools)."""
    n = _config.integer(value)
    if n is None:
        raise InvalidOptionError(f"{what} must be an int, got {value!r}")
    return n
