"""chrF and chrF++ with sacreBLEU's API (``sacrebleu/metrics/chrf.py``), computed by the Rust core.

Scores, statistics and signatures equal sacreBLEU 2.6.0's with ``==`` (the signature's version
field says ``2.6.0+rapidbleu.X.Y.Z``), including its quirks (each is named where the core copies
it, ``crates/rapidbleu-core/src/chrf/``):

- text is not stripped (``whitespace=True`` counts leading and trailing spaces);
- whitespace is Python's ``str.split()`` set (U+001C..U+001F included, U+200B not);
- words are ``str.split()`` tokens with one ASCII punctuation mark split off the end, or else
  off the front, of tokens longer than one character (``(hi)`` -> ``(hi``, ``)``);
- an order without reference n-grams counts no hypothesis n-grams (``hyp_count if ref_ngrams
  else 0``), which changes corpus sums;
- the best reference is the first with the highest sentence F (strict ``>`` from -1.0);
- the float operations of ``_compute_f_score`` in its order, for int64 rows and for the float32
  rows of bootstrap resampling (NumPy 2's promotion rules).

Deliberate differences, all raising instead of silently producing a number: an order outside
0..100 or both orders 0, a ``beta`` that is not a number from 0 to 2**26, hypotheses and
reference streams of different lengths, a segment without any reference, and wrong types raise
:mod:`rapidbleu.errors` exceptions.

Rows are sacreBLEU's ``[hyp, ref, match]`` per character order, then per word order
(:attr:`CHRF.layout`); rows add, and the corpus score is the F of the summed rows.

Token IDs (or str tokens) are scored by their word n-grams, each token one word
(``CHRF(char_order=0, word_order=N)``; see :mod:`rapidbleu.metrics.chrf.tokens`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.errors import InputTypeError, InvalidOptionError
from rapidbleu.io import tokens as _tokens
from rapidbleu.io.tokens import TokenLayout
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.checks import (
    add_sums,
    check_flag,
    check_hypotheses,
    check_sentence_references,
    check_streams,
)
from rapidbleu.metrics.chrf.score import CHRFScore, CHRFSignature, chrf_layout, f_score
from rapidbleu.metrics.chrf.tokens import encode as encode_tokens
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.live_options import Rebuilds, built, refuse
from rapidbleu.metrics.options import CliOption

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# CHRFScore and CHRFSignature: sacreBLEU's `sacrebleu.metrics.chrf` holds them next to CHRF.
__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]


def _number(value: Any) -> Any:
    """NumPy scalars as Python numbers (the core reads ``int`` and ``float``)."""
    np = _config.loaded_numpy()
    if np is None:
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


class CHRF(Metric[CHRFScore]):
    """Computes chrF (and chrF++ with ``word_order=2``), with sacreBLEU's constructor and methods.

    Args:
        char_order: Character n-gram order (default 6).
        word_order: Word n-gram order (default 0; 2 is chrF++).
        beta: The weight of recall against precision (default 2). A float names the score
            with its decimal point (``chrF2.0``), as in sacreBLEU.
        lowercase: Lowercase hypotheses and references (Python's ``str.lower``).
        whitespace: Keep whitespace characters in character n-grams.
        eps_smoothing: chrF++.py's, NLTK's and Moses' epsilon smoothing (the mean of per-order
            F scores) instead of sacreBLEU's effective-order smoothing.
        references: Reference streams to keep for every call that passes ``references=None``.
        num_threads: Threads for the Rust core (rapidbleu's own option); ``None`` uses
            ``$RAPIDBLEU_NUM_THREADS`` or all cores, ``1`` runs on the calling thread.

    Raises:
        rapidbleu.errors.InvalidOptionError: An option value is not allowed.

    Example:
        >>> chrf = CHRF(word_order=2)
        >>> print(chrf.corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]]))
        chrF2++ = 69.44
    """

    cli_name = "chrf"
    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    #: ``string.punctuation``, which ``_remove_punctuation`` splits off words (sacreBLEU's
    #: attribute; the core tests the same set with ``u8::is_ascii_punctuation``).
    _PUNCTS: ClassVar[set[str]] = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    _SIGNATURE_TYPE = CHRFSignature
    # sacreBLEU reads these from `self` at call time: set after construction, they take effect.
    char_order = Rebuilds()
    word_order = Rebuilds()
    order = Rebuilds()
    beta = Rebuilds()
    lowercase = Rebuilds()
    whitespace = Rebuilds()
    eps_smoothing = Rebuilds()
    # sacreBLEU's spellings and defaults (`--chrf-beta` takes an int there too).
    CLI_OPTIONS = (
        CliOption(
            ("--chrf-char-order", "-cc"),
            "char_order",
            int,
            CHAR_ORDER,
            "character n-gram order (default 6)",
            metavar="N",
            minimum=0,
        ),
        CliOption(
            ("--chrf-word-order", "-cw"),
            "word_order",
            int,
            WORD_ORDER,
            "word n-gram order (default 0; 2 is chrF++)",
            metavar="N",
            minimum=0,
        ),
        CliOption(
            ("--chrf-beta",),
            "beta",
            int,
            BETA,
            "weight of recall against precision (default 2)",
            metavar="B",
            minimum=0,
        ),
        CliOption(
            ("--chrf-whitespace",),
            "whitespace",
            bool,
            False,
            "keep whitespace in character n-grams",
        ),
        CliOption(("--chrf-lowercase",), "lowercase", bool, False, "case-insensitive"),
        CliOption(
            ("--chrf-eps-smoothing",),
            "eps_smoothing",
            bool,
            False,
            "chrF++.py's epsilon smoothing instead of the effective order",
        ),
    )

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int | float = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        # The core checks every value (one message each) and takes Python's `beta ** 2`.
        self._options = _core.ChrfOptions(
            char_order=_number(char_order),
            word_order=_number(word_order),
            beta=_number(beta),
            lowercase=check_flag(lowercase, "lowercase"),
            whitespace=check_flag(whitespace, "whitespace"),
            eps_smoothing=check_flag(eps_smoothing, "eps_smoothing"),
        )
        # sacreBLEU's attributes (the signature and CHRFScore read them), the on/off ones as
        # given (sacreBLEU keeps them so and reads their truth value).
        self.beta = _number(beta)
        self.char_order = self._options.char_order
        self.word_order = self._options.word_order
        self.order = self.char_order + self.word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self._layout = chrf_layout(self.char_order, self.word_order)
        if references is not None:
            self.cache_references(references)
        built(self)

    def _counting_key(self) -> tuple[Any, ...]:
        """What sacreBLEU's cached references were counted with."""
        return (self.char_order, self.word_order, bool(self.lowercase), bool(self.whitespace))

    def _rebuild_options(self) -> None:
        """The core's options from the attributes as they are now (see :mod:`.live_options`).

        sacreBLEU's ``CHRF`` reads every option from ``self`` on each call, but ``order``
        (``char_order + word_order``) only in ``__init__``: its F score runs over
        ``range(self.order)``.
        """
        if self.order != self.char_order + self.word_order:
            # sacreBLEU would score rows of one width over `order` triples of another.
            refuse(
                self,
                f"chrF's order ({self.order!r}) must equal char_order + word_order "
                f"({self.char_order!r} + {self.word_order!r}): set order too, as sacreBLEU's "
                "CHRF sets it only when built",
            )
            return
        if self._ref_cache is not None and self._ref_cache_key != self._counting_key():
            refuse(
                self,
                "char_order, word_order, lowercase or whitespace changed after references were "
                "cached (CHRF(references=...)); build a new CHRF with the options you want",
            )
            return
        self._options = _core.ChrfOptions(
            char_order=_number(self.char_order),
            word_order=_number(self.word_order),
            beta=_number(self.beta),
            lowercase=check_flag(self.lowercase, "lowercase"),
            whitespace=check_flag(self.whitespace, "whitespace"),
            eps_smoothing=check_flag(self.eps_smoothing, "eps_smoothing"),
        )
        self._layout = chrf_layout(self._options.char_order, self._options.word_order)

    @property
    def layout(self) -> RowLayout:
        """``[hyp, ref, match]`` per character order, then per word order (sacreBLEU's row).

        Groups: ``hyp``, ``ref``, ``match`` (one column per order), ``char`` and ``word``.

        Example:
            >>> CHRF(char_order=1, word_order=1).layout.columns
            ('hyp_c1', 'ref_c1', 'match_c1', 'hyp_w1', 'ref_w1', 'match_w1')
        """
        return self._layout

    @property
    def options(self) -> _core.ChrfOptions:
        """The options the core runs with (checked once, when the metric was built).

        Example:
            >>> CHRF(word_order=2).options.row_len
            24
        """
        return self._options

    # -- statistics ------------------------------------------------------------------------

    def _engine_inputs(
        self, hypotheses: Sequence[Any], references: Any, per_segment: bool
    ) -> tuple[Sequence[Any], Any]:
        """Text as it is; token sequences as text whose words are the tokens.

        Over token IDs (or str tokens) only word n-grams make sense (:mod:`.chrf_tokens`):
        ``char_order`` must be 0 and ``lowercase`` off.
        """
        if not _tokens.is_pretokenized(hypotheses):
            return hypotheses, references
        if self.char_order > 0 or self.lowercase:
            raise InvalidOptionError(
                "token input has no characters: chrF over token IDs (or str tokens) counts word "
                "n-grams of the tokens only; use CHRF(char_order=0, word_order=N) (and "
                f"lowercase=False), not char_order={self.char_order}, lowercase={self.lowercase}"
            )
        return encode_tokens(hypotheses, references, per_segment)

    def _token_statistics(
        self, hypotheses: Any, references: Any, per_segment: bool, layout: TokenLayout
    ) -> Rows:
        """Padded 2-D token arrays (``pad_id``, ``lengths``, ``ref_lengths``): not for chrF yet."""
        raise InvalidOptionError(
            "chrF takes token IDs as sequences of their tokens (lists, 1-D arrays, or 2-D arrays "
            "whose rows are whole); pad_id, lengths and ref_lengths are not supported for chrF: "
            "drop the padding first"
        )

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        hyps, refs = self._engine_inputs(hypotheses, references, per_segment)
        stats, self.num_refs = self._options.statistics(
            hyps, refs, self.num_threads, per_segment=per_segment
        )
        return stats

    def _text_totals(self, hypotheses: Sequence[Any], references: Any) -> list[int]:
        totals, self.num_refs = self._options.totals(hypotheses, references, self.num_threads)
        return totals

    def chunk_statistics(self, chunk: _core.TextChunk) -> list[Rows]:
        """Rows of every system of a chunk read from files, counted where its lines lie.

        Example:
            >>> chunk = _core.TextChunk.from_lists([["abc"]], [["abd"]])
            >>> CHRF(char_order=1).chunk_statistics(chunk)[0].tolist()
            [[3, 3, 2]]
        """
        rows, self.num_refs = self._options.chunk_statistics(chunk, self.num_threads)
        return rows

    def accumulate_chunk(self, totals: list[Any], chunk: _core.TextChunk) -> list[Any]:
        """Folds a chunk into every system's corpus statistics, summed in the core (lists).

        Example:
            >>> chunk = _core.TextChunk.from_lists([["abc"]], [["abd"]])
            >>> CHRF(char_order=1).accumulate_chunk([[1, 1, 1]], chunk)
            [[4, 4, 3]]
        """
        sums, self.num_refs = self._options.chunk_totals(chunk, self.num_threads)
        return add_sums(totals, sums)

    # -- scores ----------------------------------------------------------------------------

    def _compute_f_score(self, statistics: Any) -> Any:
        """SacreBLEU's ``CHRF._compute_f_score`` of one row of statistics.

        int rows (Python ints, NumPy integers) are scored by the core in double precision;
        float32 rows (bootstrap sums) with NumPy 2's float32 promotion, returning a
        ``np.float32`` where sacreBLEU does; anything else by sacreBLEU's formula in Python.

        Example:
            >>> CHRF(char_order=1)._compute_f_score([2, 2, 1])
            50.0
        """
        if isinstance(statistics, list) and all(type(v) is int for v in statistics):
            # Python ints (a stream's totals): sacreBLEU's own arithmetic on its own types.
            return self._python_f_score(statistics)
        import numpy as np

        from rapidbleu.metrics.resampling import NUMPY2

        row = np.asarray(statistics)
        if row.ndim == 1 and row.shape[0] == self._options.row_len:
            if row.dtype.kind in "iub" or (
                row.dtype.kind == "f"
                and row.dtype != np.float32
                and bool((row == np.rint(row)).all())
                and bool(((row >= 0) & (row <= 2**53)).all())
            ):
                return float(self._options.score_rows(row.astype(np.int64)[None, :])[0])
            if row.dtype == np.float32 and NUMPY2:
                scores, all_f32 = self._options.score_rows_f32(row[None, :])
                return np.float32(scores[0]) if all_f32 else float(scores[0])
        return self._python_f_score(list(statistics))

    def _python_f_score(self, statistics: list[Any]) -> Any:
        """``_compute_f_score`` line by line (rows the core does not take: NumPy 1's floats)."""
        return f_score(statistics, self.beta, self.order, self.eps_smoothing)

    def score_totals(self, totals: Any) -> CHRFScore:
        """ChrF of summed statistics (sacreBLEU's ``_compute_score_from_stats``).

        Example:
            >>> chrf = CHRF()
            >>> chrf.score_totals(chrf.total(chrf.statistics(["abc"], [["abc"]]))).score
            100.0
        """
        return CHRFScore(self._compute_f_score(totals), self.char_order, self.word_order, self.beta)

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Sentence chrF of each statistics row, in one batched core call.

        Example:
            >>> import numpy as np
            >>> chrf = CHRF(char_order=1)
            >>> chrf.score_rows(np.array([[2, 2, 1], [2, 2, 2]])).tolist()
            [50.0, 100.0]
        """
        import numpy as np

        return self._options.score_rows(np.ascontiguousarray(rows, dtype=np.int64))

    def _pass_sentence_scores(
        self, hypotheses: Sequence[Any], references: Any, per_segment: bool
    ) -> npt.NDArray[np.float64]:
        """Sentence chrF of every segment, scored in the core's parallel pass (no rows).

        Example:
            >>> CHRF().sentence_scores(["abc", "abd"], [["abc", "abc"]]).round(4).tolist()
            [100.0, 38.8889]
        """
        hypotheses = check_hypotheses(hypotheses)
        if not per_segment:
            check_streams(references)
        hyps, refs = self._engine_inputs(hypotheses, references, per_segment)
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
    ) -> CHRFScore:
        """ChrF of one hypothesis against its references (any number; the best one counts).

        Args:
            hypothesis: The hypothesis.
            references: Its references (``None`` entries are skipped).
            pad_id: For padded token arrays, which chrF does not take (an error).
            ref_lengths: Likewise.

        Returns:
            The score.

        Example:
            >>> round(CHRF().sentence_score("The cat sat.", ["The cat sat on the mat."]).score, 4)
            49.2607
        """
        if not isinstance(hypothesis, str) and not _tokens.is_token_sequence(hypothesis):
            raise InputTypeError(f"hypothesis must be a str, not {type(hypothesis).__name__}")
        if pad_id is not None or ref_lengths is not None:
            return super().sentence_score(
                hypothesis, references, pad_id=pad_id, ref_lengths=ref_lengths
            )
        check_sentence_references(references)
        # One core call that scores in its pass (no rows, no NumPy sums): sentence_chrf is
        # called once per sentence in loops, where the template's path costs twice as much.
        hyps: Sequence[Any] = [hypothesis]
        refs: Any = [references]
        if type(hypothesis) is not str:  # a str is never token input: no check per call
            hyps, refs = self._engine_inputs(hyps, refs, True)
        scores, self.num_refs = self._options.sentence_scores(hyps, refs, self.num_threads, True)
        return CHRFScore(float(scores[0]), self.char_order, self.word_order, self.beta)

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[Any]:
        """Bootstrap resample scores as sacreBLEU computes them from its float32 sums.

        Under NumPy 2 every operation on a float32 sum is a float32 one (reproduced in the
        core), and the scores form a float32 array unless one is a Python float (a score of
        exactly 0.0), as ``np.array`` of sacreBLEU's scores does. Under NumPy 1 sacreBLEU's
        formula runs on the NumPy scalars.
        """
        import numpy as np

        from rapidbleu.metrics.resampling import NUMPY2, exact_sums, f32_sums

        if sums is None:
            sums = exact_sums(rows, idxs, self.num_threads, self.options)
        f32 = f32_sums(sums, rows, idxs)
        if not NUMPY2:
            return np.array([self._python_f_score(list(row)) for row in f32])
        scores, all_f32 = self._options.score_rows_f32(f32)
        return scores.astype(np.float32) if all_f32 else scores

    def pairwise_matrices(
        self, groups: Sequence[tuple[Sequence[str], Sequence[str]]]
    ) -> list[npt.NDArray[np.float64]]:
        """Per group ``(hypotheses, references)``, the matrix of sentence scores, in the core.

        Entry ``[i, j]`` equals ``sentence_score(hypotheses[i], [references[j]]).score``; each
        hypothesis is counted once per row, not once per pair.

        Example:
            >>> CHRF().pairwise_matrices([(["abc", "abd"], ["abc"])])[0].round(4).tolist()
            [[100.0], [38.8889]]
        """
        return self._options.pairwise_matrices(
            [(list(h), list(r)) for h, r in groups], self.num_threads
        )

    def get_signature(self) -> CHRFSignature:
        """The signature of this metric (known once references have been seen).

        Example:
            >>> chrf = CHRF(lowercase=True, whitespace=True)
            >>> _ = chrf.corpus_score(["a"], [["a"]])
            >>> str(chrf.get_signature()).split("|version")[0]
            'nrefs:1|case:lc|eff:yes|nc:6|nw:0|space:yes'
        """
        return CHRFSignature(self.__dict__)
