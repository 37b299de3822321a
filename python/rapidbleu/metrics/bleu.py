"""BLEU with sacreBLEU's API (``sacrebleu/metrics/bleu.py``), computed by the Rust core.

Scores, statistics and signatures equal sacreBLEU 2.6.0's with ``==`` (the signature's version
field says ``2.6.0+rapidbleu.X.Y.Z``). Deliberate differences, all raising instead of silently
producing a number: hypotheses and reference streams of different lengths, an empty corpus, a
segment without any reference, wrong types and unknown options raise :mod:`rapidbleu.errors`
exceptions.
"""

from __future__ import annotations

import logging
import operator
import os
import sys
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt

from rapidbleu import _core
from rapidbleu import ids as _ids
from rapidbleu.errors import EmptyInputError, InputError, InputTypeError, InvalidOptionError
from rapidbleu.metrics.base import Score, Signature
from rapidbleu.tokenizers import (
    TOKENIZERS,
    PythonTokenizer,
    get_python_tokenizer,
    is_rust_tokenizer,
    tokenize_batch,
)

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature"]

logger = logging.getLogger("rapidbleu")

#: Default maximum n-gram order.
MAX_NGRAM_ORDER = 4

# CPython 3.12 made sum() of floats compensated (Neumaier); sacreBLEU's final sum() of log
# precisions, and hence the last bit of its score, depends on the interpreter it runs on.
_NEUMAIER = sys.version_info >= (3, 12)

Stats = npt.NDArray[np.int64]


def _num_threads(value: int | None) -> int:
    """Threads for the core: ``value``, else ``$RAPIDBLEU_NUM_THREADS``, else 0 (all cores)."""
    if value is None:
        env = os.environ.get("RAPIDBLEU_NUM_THREADS", "")
        if not env:
            return 0
        try:
            value = int(env)
        except ValueError:
            raise InvalidOptionError(
                f"RAPIDBLEU_NUM_THREADS must be a non-negative integer, got {env!r}"
            ) from None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidOptionError(
            f"num_threads must be a non-negative integer (0: all cores), got {value!r}"
        )
    return value


class BLEUSignature(Signature):
    """BLEU's signature: ``nrefs|case|eff|tok|smooth|version`` (sacreBLEU's ``BLEUSignature``).

    Example:
        >>> bleu = BLEU()
        >>> _ = bleu.corpus_score(["a b c d"], [["a b c d"]])
        >>> str(bleu.get_signature()).split("|version")[0]
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth_str = args["smooth_method"]
        smooth_def = BLEU.SMOOTH_DEFAULTS[smooth_str]
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
        """The precisions as ``66.4/43.5/31.1/22.7``."""
        return "/".join([f"{p:.1f}" for p in self.precisions])

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


def _check_hypotheses(hypotheses: Any) -> Sequence[str]:
    if _ids.is_pretokenized(hypotheses):  # token sequences or IDs: see rapidbleu.ids
        return cast(Sequence[str], hypotheses)
    if isinstance(hypotheses, (str, bytes)) or not isinstance(hypotheses, Sequence):
        raise InputTypeError(
            "hypotheses must be a sequence (e.g. a list) of str, one per segment, "
            f"not {type(hypotheses).__name__}"
        )
    if len(hypotheses) == 0:
        raise EmptyInputError("no hypotheses to score: the hypothesis list is empty")
    return hypotheses


def _check_streams(references: Any) -> Sequence[Sequence[str | None]]:
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise InputTypeError(
            "references must be a sequence of reference streams, each a sequence of str with "
            "one entry per hypothesis, e.g. [[ref1_seg1, ref1_seg2], [ref2_seg1, ref2_seg2]]"
        )
    if len(references) == 0:
        raise EmptyInputError(
            "no reference streams: references is empty; give at least one stream, "
            "e.g. [[ref_seg1, ref_seg2, ...]]"
        )
    return references


class BLEU:
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

    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = {
        "none": None,
        "floor": 0.1,
        "add-k": 1,
        "exp": None,
    }
    TOKENIZERS = TOKENIZERS
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP: ClassVar[dict[str, str]] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature

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
        if smooth_method not in self.SMOOTH_DEFAULTS:
            raise InvalidOptionError(
                f"unknown smooth_method {smooth_method!r}; allowed: "
                + ", ".join(self.SMOOTH_DEFAULTS)
            )
        if smooth_value is not None and (
            isinstance(smooth_value, bool)
            or not isinstance(smooth_value, (int, float))
            or not smooth_value >= 0
            or smooth_value == float("inf")
        ):
            raise InvalidOptionError(
                f"smooth_value must be a finite number >= 0 (or None), got {smooth_value!r}"
            )
        if (
            isinstance(max_ngram_order, bool)
            or not isinstance(max_ngram_order, int)
            or max_ngram_order < 1
        ):
            raise InvalidOptionError(
                f"max_ngram_order must be a positive integer, got {max_ngram_order!r}"
            )
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self._num_threads = _num_threads(num_threads)

        if tokenize is None:
            best_tokenizer = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            best_tokenizer = tokenize
            # sacreBLEU's BLEU.__init__ warns about these combinations (and goes on).
            if trg_lang == "zh" and best_tokenizer != "zh":
                logger.warning("Consider using the 'zh' or 'spm' tokenizer for Chinese.")
            if trg_lang == "ja" and best_tokenizer != "ja-mecab":
                logger.warning("Consider using the 'ja-mecab' or 'spm' tokenizer for Japanese.")
            if trg_lang == "ko" and best_tokenizer != "ko-mecab":
                logger.warning("Consider using the 'ko-mecab' or 'spm' tokenizer for Korean.")
        if best_tokenizer not in TOKENIZERS:
            raise InvalidOptionError(
                f"unknown tokenizer {best_tokenizer!r}; allowed: " + ", ".join(TOKENIZERS)
            )
        self._py_tokenizer: PythonTokenizer | None = None
        if is_rust_tokenizer(best_tokenizer):
            self.tokenizer_signature = best_tokenizer
            self._engine_tokenizer = best_tokenizer
        else:
            self._py_tokenizer = get_python_tokenizer(best_tokenizer, spm_model=spm_model)
            self.tokenizer_signature = self._py_tokenizer.signature()
            self._engine_tokenizer = "none"
        self._ref_cache: _core.ReferenceCache | None = None
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # -- preprocessing ---------------------------------------------------------------------

    def _pretokenize(self, lines: Sequence[str | None]) -> list[str | None]:
        """Runs a Python tokenizer (MeCab, SentencePiece) as ``_preprocess_segment`` does."""
        tok = self._py_tokenizer
        assert tok is not None
        out: list[str | None] = []
        for i, line in enumerate(lines):
            if line is None:
                out.append(None)
                continue
            if not isinstance(line, str):
                raise InputTypeError(f"segment {i} is {type(line).__name__}; expected str")
            out.append((line.lower() if self.lowercase else line).rstrip())
        return tokenize_batch(tok, out, self._num_threads)

    def _engine_inputs(self, hyps: Sequence[str], refs: Any) -> tuple[Any, Any, bool]:
        """Inputs for the core: Python-tokenized text (and no lowercasing left) if needed.

        ``refs`` is a list of lists of str (streams, or per-segment lists: both work).
        """
        if self._py_tokenizer is None:
            return hyps, refs, self.lowercase
        if refs is not None:
            refs = [self._pretokenize(r) for r in refs]
        return self._pretokenize(hyps), refs, False

    def _cache_references(self, references: Any) -> _core.ReferenceCache:
        references = _check_streams(references)
        _, refs, lowercase = self._engine_inputs([], references)
        cache = _core.ReferenceCache(
            refs, self._engine_tokenizer, lowercase, self.max_ngram_order, self._num_threads
        )
        self.num_refs = cache.num_refs
        return cache

    # -- statistics ------------------------------------------------------------------------

    def _extract_corpus_statistics(
        self, hypotheses: Sequence[str], references: Any | None
    ) -> Stats:
        """Per-segment statistics ``(n, 2 + 2N)`` as an int64 array (sacreBLEU's name)."""
        if references is not None:
            _check_streams(references)
            stats, periods = self._core_statistics(hypotheses, references, per_segment=False)
        elif self._ref_cache is not None:
            hyps, _, _ = self._engine_inputs(hypotheses, None)
            stats, periods = self._ref_cache.statistics(hyps, self._num_threads)
        else:
            raise EmptyInputError(
                "no references: pass references=..., or give them to BLEU(references=...) "
                "to cache them"
            )
        if not self._force and self._py_tokenizer is None and periods >= 100:
            self._warn_tokenized()
        elif not self._force and self._py_tokenizer is not None and periods >= 0:
            if sum(1 for h in hypotheses if h.endswith(" .")) >= 100:
                self._warn_tokenized()
        return stats

    def _core_statistics(
        self, hypotheses: Sequence[str], references: Any, per_segment: bool
    ) -> tuple[Stats, int]:
        """Statistics from the core, and how many hypotheses end in ``" ."``.

        ``references`` are streams (sacreBLEU's layout) or, with ``per_segment``, one list of
        references per hypothesis. Sets ``num_refs`` for the signature, as sacreBLEU does.
        """
        if _ids.is_pretokenized(hypotheses):
            # Token sequences / IDs skip the tokenizer; same engine, same rows (rapidbleu.ids).
            stats, _ = _ids.token_statistics(
                hypotheses,
                references,
                max_order=self.max_ngram_order,
                per_segment=per_segment,
                lowercase=self.lowercase,
                num_threads=self._num_threads,
            )
            self.num_refs = _ids.num_refs(references, per_segment)
            return stats, -1
        hyps, refs, lowercase = self._engine_inputs(hypotheses, references)
        stats, num_refs, periods = _core.corpus_statistics(
            hyps,
            refs,
            self._engine_tokenizer,
            lowercase,
            self.max_ngram_order,
            self._num_threads,
            per_segment=per_segment,
        )
        self.num_refs = num_refs
        return stats, periods

    def _item_statistics(
        self, candidates: Sequence[str], references: Sequence[Sequence[str | None]]
    ) -> Stats:
        """Statistics with references given per segment (``references[i]`` for candidate i)."""
        return self._core_statistics(candidates, references, per_segment=True)[0]

    @staticmethod
    def _warn_tokenized() -> None:
        # sacreBLEU's Metric._extract_corpus_statistics prints these three lines.
        logger.warning("That's 100 lines that end in a tokenized period ('.')")
        logger.warning(
            "It looks like you forgot to detokenize your test data, which may hurt your score."
        )
        logger.warning(
            "If you insist your data is detokenized, or don't care, you can suppress this "
            "message with the `force` parameter."
        )

    def corpus_statistics(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> Stats:
        """Sufficient statistics of every segment, one row each.

        Rows are ``[hyp_len, ref_len, correct_1..N, total_1..N]`` (sacreBLEU's layout) in one
        contiguous int64 array. They add: the corpus score is the score of their sum.

        Args:
            hypotheses: One str per segment.
            references: Reference streams; ``None`` uses the cached references.

        Returns:
            An ``(n_segments, 2 + 2 * max_ngram_order)`` int64 array.

        Example:
            >>> BLEU().corpus_statistics(["a b c"], [["a b d"]]).tolist()
            [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0]]
        """
        return self._extract_corpus_statistics(_check_hypotheses(hypotheses), references)

    # -- scores ----------------------------------------------------------------------------

    @staticmethod
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
        """Computes BLEU from sufficient statistics (sacreBLEU's ``BLEU.compute_bleu``).

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
            >>> BLEU.compute_bleu([4, 3, 2, 1], [4, 3, 2, 1], 4, 4).score
            100.00000000000004
        """
        if smooth_method not in BLEU.SMOOTH_DEFAULTS:
            raise InvalidOptionError(
                f"unknown smooth_method {smooth_method!r}; allowed: "
                + ", ".join(BLEU.SMOOTH_DEFAULTS)
            )
        if smooth_value is None:
            smooth_value = BLEU.SMOOTH_DEFAULTS[smooth_method]
        try:
            # The core takes integers only (ints, NumPy integers: anything with __index__).
            score, precisions, bp, addk_orders = _core.compute_bleu(
                correct,
                total,
                sys_len,
                ref_len,
                smooth_method,
                None if smooth_value is None else float(smooth_value),
                effective_order,
                max_ngram_order,
                _NEUMAIER,
            )
        except TypeError:
            raise InputTypeError(
                "correct, total, sys_len and ref_len must be integer counts"
            ) from None
        except OverflowError:
            raise InputError(
                "correct, total, sys_len and ref_len must fit in 64-bit integers"
            ) from None
        sys_len, ref_len = operator.index(sys_len), operator.index(ref_len)
        if addk_orders:
            # sacreBLEU mutates the caller's lists (compute_bleu, `correct[n - 1] += ...`).
            if not isinstance(correct, list):
                correct = list(correct)
            if not isinstance(total, list):
                total = list(total)
            k: Any = smooth_value
            for n in range(2, addk_orders + 2):
                correct[n - 1] += k
                total[n - 1] += k
        return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)

    def _compute_score_from_stats(self, stats: Any) -> BLEUScore:
        """Score of already summed statistics (sacreBLEU's name)."""
        stats = stats.tolist() if isinstance(stats, np.ndarray) else [int(x) for x in stats]
        n = self.max_ngram_order
        return self.compute_bleu(
            correct=stats[2 : 2 + n],
            total=stats[2 + n :],
            sys_len=stats[0],
            ref_len=stats[1],
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.effective_order,
            max_ngram_order=n,
        )

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> BLEUScore:
        """Corpus BLEU of ``hypotheses`` against one or more reference streams.

        Args:
            hypotheses: One str per segment.
            references: Reference streams, each with one str (or ``None``: no reference from
                this stream for that segment) per segment; ``None`` uses the cached references.
            n_bootstrap: With more than 1, also estimate the mean and 95% confidence interval
                from ``n_bootstrap`` bootstrap resamples (seed ``$SACREBLEU_SEED``, default
                12345), as sacreBLEU does; the signature then shows ``bs:`` and ``seed:``.

        Returns:
            The score.

        Raises:
            rapidbleu.errors.LengthMismatchError: A stream's length differs from the number of
                hypotheses (sacreBLEU silently truncates).
            rapidbleu.errors.EmptyInputError: No hypotheses or no references.
            rapidbleu.errors.InputTypeError: Something other than str in the inputs.

        Example:
            >>> BLEU().corpus_score(["a b c d e"], [["a b c d e"], ["x"]]).score
            100.00000000000004
        """
        if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int):
            raise InvalidOptionError(f"n_bootstrap must be an int, got {n_bootstrap!r}")
        stats = self._extract_corpus_statistics(_check_hypotheses(hypotheses), references)
        score = self._compute_score_from_stats(stats.sum(axis=0))
        if n_bootstrap > 1:
            # sacreBLEU's Metric.corpus_score: resample, then record n and seed for the signature.
            from rapidbleu.significance import _bootstrap_resample

            self.n_bootstrap = n_bootstrap
            self.seed, bs_scores = _bootstrap_resample(self, stats, n_bootstrap)
            score.estimate_ci(bs_scores.tolist())
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> BLEUScore:
        """BLEU of one hypothesis against its references (any number).

        Args:
            hypothesis: The hypothesis.
            references: Its references (``None`` entries are skipped).

        Returns:
            The score.

        Example:
            >>> BLEU(effective_order=True).sentence_score("a b c", ["a b c"]).score
            100.00000000000004
        """
        if not isinstance(hypothesis, str) and not _ids.is_token_sequence(hypothesis):
            raise InputTypeError(f"hypothesis must be a str, not {type(hypothesis).__name__}")
        # Exact type checks first: the ABC check costs as much as scoring a short sentence.
        if type(references) is not list and (
            isinstance(references, (str, bytes)) or not isinstance(references, Sequence)
        ):
            raise InputTypeError("references must be a sequence of str (the references)")
        if len(references) == 0:
            raise EmptyInputError("no references given for the hypothesis")
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        # One segment whose references are `references`: the per-segment layout of the core.
        stats = self._item_statistics([hypothesis], [references])
        return self._compute_score_from_stats(stats[0])

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> npt.NDArray[np.float64]:
        """Sentence BLEU of every segment in one batched call.

        Equal, element by element, to ``[self.sentence_score(h, refs_i).score ...]`` where
        ``refs_i`` are the segment's entries in each stream.

        Args:
            hypotheses: One str per segment.
            references: Reference streams (as in :meth:`corpus_score`); ``None``: the cache.

        Returns:
            A float64 array of scores on the 0..100 scale.

        Example:
            >>> BLEU(effective_order=True).sentence_scores(["a b", "a x"], [["a b", "a b"]])
            array([100.,  50.])
        """
        hypotheses = _check_hypotheses(hypotheses)
        if references is None:
            return self._score_rows(self._extract_corpus_statistics(hypotheses, None))
        return self._sentence_scores(hypotheses, _check_streams(references), per_segment=False)

    def _sentence_scores(
        self, hypotheses: Sequence[str], references: Any, per_segment: bool
    ) -> npt.NDArray[np.float64]:
        """Scores computed in the core's parallel pass (no statistics array)."""
        if _ids.is_pretokenized(hypotheses):
            return self._score_rows(self._core_statistics(hypotheses, references, per_segment)[0])
        hyps, refs, lowercase = self._engine_inputs(hypotheses, references)
        method, value, effective_order, max_order, neumaier = self._scoring()
        scores, self.num_refs = _core.sentence_scores(
            hyps,
            refs,
            self._engine_tokenizer,
            lowercase,
            max_order,
            self._num_threads,
            per_segment,
            method,
            value,
            effective_order,
            neumaier,
        )
        return scores

    def _score_rows(self, stats: Stats) -> npt.NDArray[np.float64]:
        method, value, effective_order, max_order, neumaier = self._scoring()
        return _core.score_rows(stats, method, value, effective_order, max_order, neumaier)

    def _scoring(self) -> tuple[str, float | None, bool, int, bool]:
        """How the core turns statistics into scores: this metric's options, in its order."""
        value = None if self.smooth_value is None else float(self.smooth_value)
        return self.smooth_method, value, self.effective_order, self.max_ngram_order, _NEUMAIER

    def get_signature(self) -> BLEUSignature:
        """The signature of this metric (known once references have been seen).

        Example:
            >>> bleu = BLEU(tokenize="intl", lowercase=True)
            >>> _ = bleu.corpus_score(["a"], [["a"]])
            >>> bleu.get_signature().format(short=True).split("|v:")[0]
            '#:1|c:lc|e:no|tok:intl|s:exp'
        """
        return self._SIGNATURE_TYPE(self.__dict__)
