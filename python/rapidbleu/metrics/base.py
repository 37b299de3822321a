"""The Metric template: sacreBLEU's ``Metric`` (``sacrebleu/metrics/base.py``), and its seam.

Every metric is one subclass of :class:`Metric`. Its shape is sacreBLEU's, so its users
recognise it (``corpus_score``, ``sentence_score``, ``get_signature``, cached references),
and it adds a **public statistics surface** that everything above the metrics uses:
significance tests, per-item scoring, streaming of big files, pairwise matrices, the
distributed engine, the command's tables and the report. None of them touches a metric's
private members.

The surface, in the order data flows:

- :attr:`~Metric.layout`: what the columns of a statistics row mean.
- :meth:`~Metric.statistics`, :meth:`~Metric.chunk_statistics`, :meth:`~Metric.total`,
  :meth:`~Metric.score_rows`, :meth:`~Metric.sentence_scores`: rows and the scores of rows
  (:class:`~rapidbleu.metrics.statistics.MetricStatistics`, the half a metric implements).
- :meth:`~Metric.score_totals`: corpus statistics -> a :class:`Score` (sacreBLEU's
  ``_compute_score_from_stats``), float64.
- :meth:`~Metric.resample_scores`: scores of bootstrap resamples with sacreBLEU's float32
  arithmetic; :meth:`~Metric.randomization_sums` / :meth:`~Metric.randomization_scores`:
  approximate randomisation; :meth:`~Metric.pairwise_matrices`: many-to-many scores.

A subclass implements :attr:`~Metric.layout`, :meth:`~Metric.score_totals` and
``_statistics``; everything else has a default that reproduces sacreBLEU's generic code
(e.g. ``_compute_score_from_stats`` on NumPy float32 rows for the bootstrap), and the built-in
metrics override the defaults with batched Rust paths that give the same numbers. A metric
reaches the command (``-m``) once it is registered (:mod:`rapidbleu.metrics.registry`).

Example (a complete toy metric: unigram matches over hypothesis length)::

    class UnigramPrecision(Metric):
        cli_name = "uniprec"
        layout = RowLayout(("matched", "hyp_len"))

        def _statistics(self, hypotheses, references, per_segment):
            ...  # one [matched, hyp_len] row per segment; sets self.num_refs
        def score_totals(self, totals):
            return Score("UniPrec", 100 * totals[0] / max(totals[1], 1))

    register(UnigramPrecision)  # rapidbleu.metrics.registry: now `rapidbleu -m uniprec`

See ``docs/architecture.md``, "Adding a metric".
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError
from rapidbleu.io.tokens import TokenLayout
from rapidbleu.metrics.checks import check_int, check_sentence_references
from rapidbleu.metrics.layout import Rows
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.score import Score, Signature
from rapidbleu.metrics.statistics import MetricStatistics, S, Scores

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# Score and Signature: sacreBLEU's `sacrebleu.metrics.base` holds them next to Metric.
__all__ = ["Metric", "Score", "Signature"]

logger = logging.getLogger("rapidbleu")


class Metric(MetricStatistics[S]):
    """The template of every metric (sacreBLEU's ``Metric``), with rapidbleu's public seam.

    Args:
        num_threads: Threads for the Rust core; ``None`` reads ``$RAPIDBLEU_NUM_THREADS``
            (else all cores); ``1`` runs on the calling thread.

    Attributes:
        num_threads: The thread count in use (0: all cores).
        num_refs: References per segment of the last corpus seen (-1: it varies), as in
            sacreBLEU; the signature needs it.
    """

    #: The metric's name on the command line (``-m``), its ``--jsonl`` field and its
    #: registry key (:func:`rapidbleu.metrics.registry.register`).
    cli_name: ClassVar[str] = ""
    #: Whether a higher score is better (TER: lower is better).
    higher_is_better: ClassVar[bool] = True
    #: Whether the corpus statistics are the column sums of the rows (BLEU, chrF). TER sums
    #: float reference lengths in segment order and says False.
    additive: ClassVar[bool] = True
    #: Whether ``rapidbleu report`` computes it when ``-m`` is not given (sacreBLEU's metrics
    #: do; a metric of another field, ROUGE, is asked for by name).
    in_default_report: ClassVar[bool] = True
    #: Whether a segment's row depends on every segment given to one ``statistics`` call
    #: (CIDEr-D's document frequencies), so a stream is scored in one call, not per chunk.
    whole_set: ClassVar[bool] = False
    #: The metric's options on the command line.
    CLI_OPTIONS: ClassVar[tuple[CliOption, ...]] = ()
    _SIGNATURE_TYPE: ClassVar[type[Signature]] = Signature

    def __init__(self, *, num_threads: int | None = None) -> None:
        super().__init__(num_threads=num_threads)
        # sacreBLEU's Metric.__init__ fields (the signature reads them from __dict__).
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None

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
            sums = exact_sums(rows, idxs, self.num_threads, self.options)
        f32 = f32_sums(sums, rows, idxs)
        return np.array([self.score_totals(row).score for row in f32])

    def randomization_sums(
        self, baseline: Rows, system: Rows, masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        """SacreBLEU's shuffled pseudo-systems of approximate randomisation.

        ``(masks @ baseline + ~masks @ system, ~masks @ baseline + masks @ system)``, exact.
        """
        import numpy as np

        bl = np.ascontiguousarray(baseline, dtype=np.int64)
        sy = np.ascontiguousarray(system, dtype=np.int64)
        if self.options is None:
            return _core.ar_sums(bl, sy, masks, self.num_threads)
        return self.options.ar_sums(bl, sy, masks, self.num_threads)

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
        n = check_int(n_bootstrap, "n_bootstrap")
        if n > _config.MAX_RESAMPLES:
            raise InvalidOptionError(
                f"n_bootstrap must be at most {_config.MAX_RESAMPLES:,} (0 or 1: no resampling), "
                f"got {n_bootstrap!r}"
            )
        token_layout = TokenLayout(pad_id, lengths, ref_lengths)
        totals = None
        if n <= 1 and references is not None and not token_layout:
            totals = self._summed(hypotheses, references)
        if totals is None:
            rows = self.statistics(
                hypotheses, references, pad_id=pad_id, lengths=lengths, ref_lengths=ref_lengths
            )
            totals = self.total(rows)
        score = self.score_totals(totals)
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

    def _extract_corpus_statistics(self, hypotheses: Sequence[Any], references: Any) -> Any:
        # sacreBLEU returns a list of lists of Python numbers (not an array).
        return self.statistics(hypotheses, references).tolist()

    def _compute_score_from_stats(self, stats: Any) -> S:
        return self.score_totals(stats)

    def _aggregate_and_compute(self, stats: Any) -> S:
        import numpy as np

        return self.score_totals(self.total(np.asarray(stats)))
