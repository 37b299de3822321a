"""BLEU with sacreBLEU's API (``sacrebleu/metrics/bleu.py``), computed by the Rust core.

Scores, statistics and signatures equal sacreBLEU 2.6.0's with ``==`` (the signature's version
field says ``2.6.0+rapidbleu.X.Y.Z``). Deliberate differences, all raising instead of silently
producing a number: hypotheses and reference streams of different lengths, an empty corpus, a
segment without any reference, wrong types and unknown options raise :mod:`rapidbleu.errors`
exceptions.

Rows are sacreBLEU's ``[hyp_len, ref_len, correct_1..N, total_1..N]`` (:attr:`BLEU.layout`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import rapidbleu._core as _core
from rapidbleu.errors import FailedOptionCheckError, InputTypeError
from rapidbleu.io import tokens as _tokens
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.bleu import tokenize as bleu_tokenize
from rapidbleu.metrics.bleu import tokens as _bleu_tokens
from rapidbleu.metrics.bleu.assigned_tokenizer import core_name
from rapidbleu.metrics.bleu.options import CLI_OPTIONS
from rapidbleu.metrics.bleu.recent_references import RecentReferences
from rapidbleu.metrics.bleu.reference_cache import ReferenceCache
from rapidbleu.metrics.bleu.score import (
    MAX_NGRAM_ORDER,
    NEUMAIER,
    SMOOTH_DEFAULTS,
    BLEUScore,
    BLEUSignature,
    compute_bleu,
    score_fields,
    score_of_counts,
    truncated_addk_scores,
)
from rapidbleu.metrics.checks import (
    add_sums,
    check_flag,
    check_hypotheses,
    check_sentence_references,
    check_streams,
    count_tokenized,
)
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.live_options import Rebuilds, built, refuse
from rapidbleu.tokenizers import PythonTokenizer, Tokenizer, get_python_tokenizer, rust_tokenizer
from rapidbleu.tokenizers.registry import TOKENIZERS, is_rust_tokenizer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature"]

logger = logging.getLogger("rapidbleu")
T = TypeVar("T")


def _check_smoothing(smooth_method: Any) -> None:
    """SacreBLEU's ``assert smooth_method in SMOOTH_DEFAULTS`` (an ``AssertionError`` too)."""
    if not isinstance(smooth_method, str) or smooth_method not in SMOOTH_DEFAULTS:
        raise FailedOptionCheckError(
            f"unknown smooth_method {smooth_method!r}; allowed: " + ", ".join(SMOOTH_DEFAULTS)
        )


class BLEU(Metric[BLEUScore]):
    """Computes BLEU, with sacreBLEU's constructor and methods.

    Args:
        lowercase: Lowercase hypotheses and references (Python's ``str.lower``).
        force: Do not warn about hypotheses that look tokenized (ending in ``" ."``).
        tokenize: Tokenizer name (see :data:`TOKENIZERS`); ``None`` picks it from ``trg_lang``
            (``zh``: ``zh``, ``ja``: ``ja-mecab``, ``ko``: ``ko-mecab``, else ``13a``).
        smooth_method: ``exp`` (default), ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` (default 0.1) and ``add-k`` (default 1).
        max_ngram_order: Highest n-gram order (default 4, not in the signature).
        effective_order: Truncate the geometric mean at the last order that has hypothesis
            n-grams (recommended for sentence BLEU).
        trg_lang: Target language code, used to choose the default tokenizer.
        references: Reference streams to tokenize and count once, reused by every call that
            passes ``references=None``.
        num_threads: Threads for the Rust core (rapidbleu's own option); ``None`` uses
            ``$RAPIDBLEU_NUM_THREADS`` or all cores, ``1`` runs on the calling thread.
        spm_model: Path of the SentencePiece model for the ``spm``/``flores*``/``spBLEU-1K``
            tokenizers (rapidbleu's own option; default: sacreBLEU's model cache).

    Raises:
        rapidbleu.errors.InvalidOptionError: An option value is not allowed.

    Example:
        >>> bleu = BLEU()
        >>> print(bleu.corpus_score(["The cat sat on the mat."], [["The cat sat on the mat."]]))
        BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    """

    cli_name = "bleu"
    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = SMOOTH_DEFAULTS
    # sacreBLEU's `BLEU.TOKENIZERS` is `_TOKENIZERS.keys()`: a dict_keys view, in its order.
    TOKENIZERS = dict.fromkeys(TOKENIZERS).keys()
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP: ClassVar[dict[str, str]] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature
    CLI_OPTIONS = CLI_OPTIONS
    # sacreBLEU reads these from `self` at call time: set after construction, they take effect.
    lowercase = Rebuilds()
    smooth_method = Rebuilds()
    smooth_value = Rebuilds()
    max_ngram_order = Rebuilds()
    effective_order = Rebuilds()

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
        spm_model: str | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        # The on/off options are kept as given, as sacreBLEU keeps them (`BLEU(lowercase=2)
        # .lowercase == 2`); what runs takes their truth value.
        on = {
            name: check_flag(value, name)
            for name, value in (("lowercase", lowercase), ("effective_order", effective_order))
        }
        check_flag(force, "force")
        _check_smoothing(smooth_method)
        best_tokenizer = bleu_tokenize.choose_tokenizer(
            tokenize, trg_lang, self.TOKENIZER_DEFAULT, self._TOKENIZER_MAP
        )
        rust_tokenizer = is_rust_tokenizer(best_tokenizer)
        # The core checks every option value, in one place with one message each. MeCab and
        # SentencePiece output reaches the core tokenized and lowercased already.
        self._options = _core.BleuOptions(
            tokenizer=best_tokenizer if rust_tokenizer else "none",
            lowercase=on["lowercase"] and rust_tokenizer,
            max_order=max_ngram_order,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=on["effective_order"],
            neumaier=NEUMAIER,
        )
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = self._options.max_order
        self.effective_order = effective_order
        self._layout = RowLayout.of(
            ["hyp_len", "ref_len"], correct=self.max_ngram_order, total=self.max_ngram_order
        )
        self._py_tokenizer: PythonTokenizer | None = None
        self._recent_refs = RecentReferences()
        self._core_tokenizer = best_tokenizer if rust_tokenizer else "none"
        if rust_tokenizer:
            self.tokenizer_signature = best_tokenizer
        else:
            self._py_tokenizer = get_python_tokenizer(best_tokenizer, spm_model=spm_model)
            self.tokenizer_signature = self._py_tokenizer.signature()
        if references is not None:
            self.cache_references(references)
        built(self)

    def _counting_key(self) -> tuple[Any, ...]:
        """What cached references were prepared with (the case, the n-gram order, the tokenizer)."""
        return (bool(self.lowercase), self.max_ngram_order, self._core_tokenizer)

    def _rebuild_options(self) -> None:
        """The core's options from the attributes as they are now (see :mod:`.live_options`).

        sacreBLEU's ``BLEU`` reads ``lowercase``, ``smooth_method``, ``smooth_value``,
        ``max_ngram_order`` and ``effective_order`` from ``self`` on every call; its tokenizer
        is made once in ``__init__`` (so ``trg_lang`` set later changes nothing, as there).
        """
        if self._ref_cache is not None and self._ref_cache_key != self._counting_key():
            # sacreBLEU's `_ref_cache` keeps the n-grams of the old case and order, and its
            # calls mix them with the hypotheses' new ones: refuse rather than guess.
            refuse(
                self,
                "lowercase, max_ngram_order or the tokenizer changed after references were cached "
                "(BLEU(references=...)); build a new BLEU with the options you want",
            )
            return
        _check_smoothing(self.smooth_method)
        self._options = _core.BleuOptions(
            tokenizer=self._core_tokenizer,
            lowercase=check_flag(self.lowercase, "lowercase") and self._py_tokenizer is None,
            max_order=self.max_ngram_order,
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=check_flag(self.effective_order, "effective_order"),
            neumaier=NEUMAIER,
        )
        n = self._options.max_order
        self._layout = RowLayout.of(["hyp_len", "ref_len"], correct=n, total=n)
        self._recent_refs = RecentReferences()

    @classmethod
    def from_command_line(
        cls, options: dict[str, Any], *, trg_lang: str = "", sentence_level: bool = False
    ) -> BLEU:
        """BLEU as sacreBLEU's ``main`` builds it.

        ``-l``'s target language picks the default tokenizer, and sentence-level BLEU turns
        effective order on.

        Example:
            >>> BLEU.from_command_line({}, trg_lang="zh").tokenizer_signature
            'zh'
        """
        return cls(**options, trg_lang=trg_lang, effective_order=sentence_level)

    @property
    def layout(self) -> RowLayout:
        """``[hyp_len, ref_len, correct_1..N, total_1..N]`` (sacreBLEU's row).

        Example:
            >>> BLEU(max_ngram_order=2).layout.columns
            ('hyp_len', 'ref_len', 'correct_1', 'correct_2', 'total_1', 'total_2')
        """
        return self._layout

    # -- preprocessing ---------------------------------------------------------------------

    def engine_inputs(self, hyps: Sequence[str], refs: Any) -> tuple[Any, Any]:
        """What the core's tokenizer sees: text, or text a Python tokenizer already split.

        With a Python tokenizer (MeCab, SentencePiece) the lines are tokenized (and
        lowercased) here, and the core's options say ``tokenizer="none"`` and no lowercasing.
        ``refs`` is a list of lists of str (streams or per-segment lists: both work).

        Returns:
            ``(hypotheses, references)`` for the core.
        """
        tok = self._py_tokenizer
        if tok is None:
            return hyps, refs
        lowercase, threads = bool(self.lowercase), self.num_threads
        if refs is not None:
            refs = [tok.preprocess_batch(r, lowercase, threads) for r in refs]
        return tok.preprocess_batch(hyps, lowercase, threads), refs

    @property
    def tokenizer(self) -> Tokenizer:
        """The tokenizer object, as sacreBLEU's ``BLEU.tokenizer``: ``tok(line) -> str``.

        Assignable, as sacreBLEU's: the next call tokenizes with the assigned object when it is
        one of the core's tokenizers (:mod:`.assigned_tokenizer`), else refuses (the signature's
        ``tok:`` field, made when the metric was built, stays, as in sacreBLEU).

        Example:
            >>> BLEU().tokenizer("Hello, world!")
            'Hello , world !'
        """
        assigned = self.__dict__.get("tokenizer")
        if assigned is not None:
            return assigned  # type: ignore[no-any-return]
        if self._py_tokenizer is not None:
            return self._py_tokenizer
        return rust_tokenizer(self.tokenizer_signature)

    @tokenizer.setter
    def tokenizer(self, value: Any) -> None:
        # Kept in the instance's dict, where sacreBLEU keeps it (the accelerator gives it to
        # the real twin of a refused call).
        self.__dict__["tokenizer"] = value
        name = core_name(value)
        if name is None:
            refuse(
                self,
                f"a tokenizer object of class {type(value).__name__} was assigned to "
                "BLEU.tokenizer; rapidbleu runs its own tokenizers only "
                f"({', '.join(TOKENIZERS)}): pass tokenize=NAME instead",
            )
            return
        self._core_tokenizer, self._py_tokenizer = name, None
        self._rebuild_options()

    @property
    def options(self) -> _core.BleuOptions:
        """The options the core runs with (checked once, when the metric was built).

        Example:
            >>> BLEU(tokenize="intl").options.tokenizer
            'intl'
        """
        return self._options

    def words(self, lines: Sequence[str | None]) -> list[list[str]]:
        """BLEU's words of each line (``[]`` for ``None``); see :func:`.bleu_tokenize.words`.

        Example:
            >>> BLEU().words(["Hello, world!", None])
            [['Hello', ',', 'world', '!'], []]
        """
        return bleu_tokenize.words(lines, self._options, lambda x: self.engine_inputs(x, None)[0])

    # -- statistics ------------------------------------------------------------------------

    def _cache(self, references: Sequence[Any]) -> ReferenceCache:
        _, refs = self.engine_inputs([], references)
        cache = ReferenceCache(refs, self._options, self.num_threads)
        self.num_refs = cache.num_refs
        return cache

    def _cached_statistics(self, cache: Any, hypotheses: Sequence[Any]) -> Rows:
        hyps, _ = self.engine_inputs(hypotheses, None)
        stats, periods = cache.statistics(hyps, self.num_threads)
        self._check_periods(hypotheses, periods)
        return stats  # type: ignore[no-any-return]

    def _token_statistics(
        self, hypotheses: Any, references: Any, per_segment: bool, layout: _tokens.TokenLayout
    ) -> Rows:
        # Token sequences / IDs skip the tokenizer; same engine, same rows (bleu_tokens).
        stats, _ = _bleu_tokens.token_statistics(
            hypotheses,
            references,
            max_order=self.max_ngram_order,
            per_segment=per_segment,
            lowercase=bool(self.lowercase),
            num_threads=self.num_threads,
            **layout.kwargs(),
        )
        self.num_refs = _bleu_tokens.num_refs(references, per_segment)
        return stats

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        if _tokens.is_pretokenized(hypotheses):
            return self._token_statistics(
                hypotheses, references, per_segment, _tokens.TokenLayout()
            )
        return self._counted(self._options.statistics, hypotheses, references, per_segment)

    def _text_totals(self, hypotheses: Sequence[Any], references: Any) -> list[int]:
        # The references of the last call, if these are they, are tokenized and counted once
        # (see recent_references): scoring several systems then counts only hypotheses.
        cache: ReferenceCache | None = self._recent_refs.prepared(references, self._cache)
        if cache is None:
            totals = self._counted(self._options.totals, hypotheses, references, False)
            self._recent_refs.remember(references)
            return totals
        hyps, _ = self.engine_inputs(hypotheses, None)
        totals, periods = cache.totals(hyps, self.num_threads)
        self.num_refs = cache.num_refs
        self._check_periods(hypotheses, periods)
        return totals

    def _counted(
        self, count: Callable[..., tuple[T, int, int]], hyps: Any, refs: Any, per_segment: bool
    ) -> T:
        # Rows or totals of text from the core, then sacreBLEU's num_refs and its warning.
        texts, streams = self.engine_inputs(hyps, refs)
        out, self.num_refs, periods = count(
            texts, streams, self.num_threads, per_segment=per_segment
        )
        self._check_periods(hyps, periods)
        return out

    def chunk_statistics(self, chunk: _core.TextChunk) -> list[Rows]:
        """Rows of every system of a chunk read from files, counted where its lines lie.

        With a Rust tokenizer no Python string is made per line (the chunk's references are
        tokenized once for all its systems); MeCab and SentencePiece take the default path.

        Example:
            >>> chunk = _core.TextChunk.from_lists([["a b c"]], [["a b c"], ["a b"]])
            >>> bleu = BLEU()
            >>> bleu.chunk_statistics(chunk)[0].tolist(), bleu.num_refs
            ([[3, 3, 3, 2, 1, 0, 3, 2, 1, 0]], 2)
        """
        if self._py_tokenizer is not None:
            return super().chunk_statistics(chunk)
        rows, self.num_refs = self._options.chunk_statistics(chunk, self.num_threads)
        self._warn_chunk(chunk)
        return rows

    def accumulate_chunk(self, totals: list[Any], chunk: _core.TextChunk) -> list[Any]:
        """Folds a chunk into every system's corpus statistics, summed in the core (lists).

        Example:
            >>> chunk = _core.TextChunk.from_lists([["a b c"]], [["a b c"]])
            >>> BLEU(max_ngram_order=2).accumulate_chunk([[1, 1, 1, 0, 1, 0]], chunk)
            [[4, 4, 4, 2, 4, 2]]
        """
        if self._py_tokenizer is not None:
            return super().accumulate_chunk(totals, chunk)
        sums, self.num_refs = self._options.chunk_totals(chunk, self.num_threads)
        self._warn_chunk(chunk)
        return add_sums(totals, sums)

    def _warn_chunk(self, chunk: _core.TextChunk) -> None:
        if not self._force:
            for i in range(chunk.num_systems):
                self.warn_tokenized(chunk.tokenized_periods(i))

    def _check_periods(self, hypotheses: Sequence[Any], periods: int) -> None:
        """SacreBLEU's tokenized-input warning; ``periods`` counts the core's input."""
        if self._force:
            return
        if self._py_tokenizer is not None:
            # The core saw tokenized text: count the original lines.
            periods = count_tokenized(hypotheses)
        self.warn_tokenized(periods)

    # -- scores ----------------------------------------------------------------------------

    #: SacreBLEU's static ``BLEU.compute_bleu``: :func:`rapidbleu.metrics.bleu.score.compute_bleu`.
    compute_bleu = staticmethod(compute_bleu)

    def score_totals(self, totals: Any) -> BLEUScore:
        """BLEU of summed statistics (sacreBLEU's ``_compute_score_from_stats``).

        Example:
            >>> bleu = BLEU()
            >>> bleu.score_totals(bleu.total(bleu.statistics(["a b c d"], [["a b c d"]]))).score
            100.00000000000004
        """
        stats = totals.tolist() if hasattr(totals, "tolist") else [int(x) for x in totals]
        return self._score_counts(stats)

    def _score_counts(self, stats: list[int]) -> BLEUScore:
        """BLEU of summed statistics held as a list of ints (the core's totals)."""
        n = self.max_ngram_order
        return score_of_counts(
            self._options, self.smooth_value, stats[2 : 2 + n], stats[2 + n :], stats[0], stats[1]
        )

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Sentence BLEU of each statistics row, in one batched core call."""
        import numpy as np

        return self._options.score_rows(np.ascontiguousarray(rows, dtype=np.int64))

    def _pass_sentence_scores(
        self, hypotheses: Sequence[Any], references: Any, per_segment: bool
    ) -> npt.NDArray[np.float64] | None:
        """Sentence BLEU of text, scored in the core's parallel pass (token input: rows).

        Example:
            >>> BLEU(effective_order=True)._pass_sentence_scores(["a x"], [["a b"]], False)
            array([50.])
        """
        if _tokens.is_pretokenized(hypotheses):
            return None
        hyps, refs = self.engine_inputs(
            check_hypotheses(hypotheses), references if per_segment else check_streams(references)
        )
        # Scored in the core's parallel pass: no statistics array is built.
        scores, self.num_refs = self._options.sentence_scores(
            hyps, refs, self.num_threads, per_segment
        )
        return scores

    def sentence_score(
        self,
        hypothesis: Any,
        references: Sequence[Any],
        *,
        pad_id: int | None = None,
        ref_lengths: Sequence[int] | None = None,
    ) -> BLEUScore:
        """BLEU of one hypothesis against its references (any number).

        Args:
            hypothesis: The hypothesis (a str, or a token sequence).
            references: Its references (``None`` entries are skipped); token IDs may be one
                2-D array, one row per reference.
            pad_id: Token IDs only: the padding ID, dropped from every sequence.
            ref_lengths: Token IDs only: the row lengths of a 2-D ``references`` array.

        Returns:
            The score.

        Example:
            >>> BLEU(effective_order=True).sentence_score("a b c", ["a b c"]).score
            100.00000000000004
        """
        if not isinstance(hypothesis, str) and not _tokens.is_token_sequence(hypothesis):
            raise InputTypeError(f"hypothesis must be a str, not {type(hypothesis).__name__}")
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        if type(hypothesis) is str and pad_id is None and ref_lengths is None:
            # One core call for the summed statistics, no rows array and no NumPy sum: programs
            # call sentence_bleu once per item, where the template's path costs twice as much.
            check_sentence_references(references)
            totals = self._counted(self._options.totals, [hypothesis], [references], True)
            return self._score_counts(totals)
        return super().sentence_score(
            hypothesis, references, pad_id=pad_id, ref_lengths=ref_lengths
        )

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[np.float64]:
        """Bootstrap resample scores as sacreBLEU computes them from its float32 sums.

        Under NumPy 2 the precisions of float32 sums are float32 operations, reproduced in the
        core (``score_rows_f32``). Under NumPy 1 a Python float times a float32 scalar is a
        float64 operation, so the precisions are those of the (integer-valued) sums.
        """
        import numpy as np

        from rapidbleu.metrics.resampling import NUMPY2, exact_sums, f32_sums

        if sums is None:
            sums = exact_sums(rows, idxs, self.num_threads, self.options)
        f32 = f32_sums(sums, rows, idxs)
        if NUMPY2:
            return self._options.score_rows_f32(f32)
        return self._options.score_rows(f32.astype(np.int64))

    def randomization_scores(self, sums: Any) -> npt.NDArray[np.float64]:
        """Scores of int64 shuffled sums, as sacreBLEU's ``_aggregate_and_compute`` of a row."""
        scores = truncated_addk_scores(sums, self._options, self.layout)
        return self.score_rows(sums) if scores is None else scores

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """BLEU and its parts as JSON fields; see :func:`.bleu_score.score_fields`."""
        return score_fields(score, divisor)

    # -- many-to-many (pairwise matrices, self-BLEU, linear-time MBR) ------------------------

    def pairwise_matrices(
        self, groups: Sequence[tuple[Sequence[str], Sequence[str]]]
    ) -> list[npt.NDArray[np.float64]]:
        """Per group ``(hypotheses, references)``, the matrix of sentence scores, in the core.

        Entry ``[i, j]`` equals ``sentence_score(hypotheses[i], [references[j]]).score``.
        """
        return self._options.pairwise_matrices(self._engine_groups(groups), self.num_threads)

    def _engine_groups(
        self, groups: Sequence[tuple[Sequence[str], Sequence[str]]]
    ) -> list[tuple[Sequence[str], Sequence[str]]]:
        out: list[tuple[Sequence[str], Sequence[str]]] = []
        for hyps, refs in groups:
            hh, rr = self.engine_inputs(hyps, [refs])
            out.append((list(hh), list(rr[0])))
        return out

    def self_statistics(self, samples: Sequence[str]) -> Rows:
        """The row of every sample against all the others as references (self-BLEU)."""
        texts, _ = self.engine_inputs(samples, None)
        return self._options.self_statistics(texts)

    def aggregate_statistics(
        self, groups: Sequence[tuple[Sequence[str], Sequence[str]]]
    ) -> list[Rows]:
        """Linear-time MBR rows: each hypothesis against its group's averaged n-gram counts.

        See :func:`rapidbleu.analysis.pairwise.aggregate_mbr_statistics` for the formula.
        """
        return self._options.aggregate_statistics(self._engine_groups(groups), self.num_threads)

    def get_signature(self) -> BLEUSignature:
        """The signature of this metric (known once references have been seen).

        Example:
            >>> bleu = BLEU(tokenize="intl", lowercase=True)
            >>> _ = bleu.corpus_score(["a"], [["a"]])
            >>> bleu.get_signature().format(short=True).split("|v:")[0]
            '#:1|c:lc|e:no|tok:intl|s:exp'
        """
        return BLEUSignature(self.__dict__)
