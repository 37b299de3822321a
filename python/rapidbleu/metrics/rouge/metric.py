r"""ROUGE with Google's rouge-score 0.1.2 semantics (``rouge_score/rouge_scorer.py``), in Rust.

:meth:`ROUGE.score` and :meth:`ROUGE.score_multi` take rouge-score's arguments (target first)
and return dicts of :class:`~rapidbleu.metrics.rouge.scoring.Score` equal (``==``) to
rouge-score's: its default tokenizer (Python's ``str.lower()``, ``[^a-z0-9]+`` to spaces,
NLTK's Porter stemmer on tokens longer than three letters), n-gram overlap (``rouge1`` ..
``rouge9``), LCS (``rougeL``), summary-level union LCS over ``\n``-separated sentences
(``rougeLsum``, or NLTK's ``sent_tokenize`` with ``split_summaries``), and float64 arithmetic
in its order. A user tokenizer (any object with ``.tokenize(text)``) runs in Python; counting
runs in Rust either way, in parallel over items with the GIL released.

On the :class:`~rapidbleu.metrics.base.Metric` template a statistics row holds, per rouge
type, the triple ``[hits, prediction_count, target_count]`` of the reference with the best
F-measure (rouge-score's ``score_multi``). Corpus scores are means of per-item scores, summed
in item order, so they are not column sums (``additive = False``): :meth:`ROUGE.accumulate`
keeps ``[items, sums]`` and adds the next items' scores one after the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import rapidbleu._core as _core
from rapidbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingDependencyError,
    MissingReferenceError,
    MissingResourceError,
    RapidBleuError,
)
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.checks import check_flag, check_hypotheses, check_shape, check_streams
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.live_options import Rebuilds, built
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.per_call import answers_first
from rapidbleu.metrics.rouge.score import LCS_TYPES, ROUGEScore, ROUGESignature, type_score
from rapidbleu.metrics.rouge.scoring import Score as RougeTypeScore
from rapidbleu.metrics.rouge.scoring import score_arrays
from rapidbleu.metrics.statistics import Scores

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["ROUGE"]

#: HF evaluate's default rouge types.
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _sent_tokenize(text: str) -> list[str]:
    """``nltk.sent_tokenize``, as rouge-score's ``get_sents`` calls it.

    Without NLTK or its ``punkt_tab`` data: a :class:`MissingResourceError` (still NLTK's
    ``LookupError``) that says how to get it.
    """
    try:
        import nltk  # type: ignore[import-untyped]
    except ImportError:
        raise MissingDependencyError(
            "split_summaries needs NLTK's sent_tokenize: pip install nltk"
        ) from None
    try:
        return nltk.sent_tokenize(text)  # type: ignore[no-any-return]
    except LookupError as e:
        if "punkt" not in str(e):
            raise
        raise MissingResourceError(
            "split_summaries needs NLTK's punkt_tab sentence model, which is not installed: "
            "run python -c \"import nltk; nltk.download('punkt_tab')\" "
            f"(NLTK searched {', '.join(map(str, nltk.data.path))})"
        ) from None


class TokenizerOutputError(InputTypeError):
    """A user tokenizer gave what rapidbleu does not count: not a list or tuple of hashables.

    rouge-score takes some such output (a list of lists for ``rougeL``, whose LCS only compares
    tokens; ``None`` where it tests ``if not tokens``) and raises on others (a generator): the
    drop-in ``RougeScorer`` hands such calls to rouge-score itself
    (:mod:`rapidbleu.metrics.rouge.rouge_scorer`), so they behave as there.
    """


def _type_list(rouge_types: Any) -> list[str]:
    """rouge-score's rouge types as a list, each once (its result is a dict)."""
    if isinstance(rouge_types, str) or not isinstance(rouge_types, Sequence):
        raise InvalidOptionError(
            f"rouge_types must be a list such as ['rouge1', 'rougeL'], got {rouge_types!r}"
        )
    return list(dict.fromkeys(rouge_types))


def _tokens(out: Any) -> list[Any]:
    """A user tokenizer's output as a list, if it is a list or tuple (what rouge-score indexes)."""
    if type(out) is list:
        return out
    if type(out) is tuple:
        return list(out)
    raise TokenizerOutputError(
        f"the tokenizer returned a {type(out).__name__}; rapidbleu counts a list or tuple of tokens"
    )


class ROUGE(Metric[ROUGEScore]):
    r"""ROUGE as Google's rouge-score 0.1.2 computes it (``RougeScorer``), exact and in Rust.

    Args:
        rouge_types: Any of ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum`` (a repeated
            type counts once, as in rouge-score's result dict).
        use_stemmer: Porter-stem tokens longer than three letters (the default tokenizer).
        split_summaries: rougeLsum splits sentences with ``nltk.sent_tokenize`` instead of at
            ``\n`` (needs NLTK's ``punkt_tab`` data, as rouge-score does).
        tokenizer: An object with ``.tokenize(text) -> list`` to use instead of the default
            tokenizer (rouge-score's ``tokenizer``); it runs in Python. Or ``"unicode"``:
            rapidbleu's own tokenizer for any script, in the core (lowercase, tokens of
            letters, marks and numbers, one per character in scripts written without spaces;
            ``use_stemmer`` stems ASCII tokens), so identical text scores 1.0 in any language.
            Not rouge-score's: its numbers are rapidbleu's (signature ``tok:unicode``).
        references: Reference streams to keep for calls that pass ``references=None``.
        num_threads: Threads for the Rust core; ``None`` uses ``$RAPIDBLEU_NUM_THREADS`` or
            all cores, ``1`` runs on the calling thread.

    Raises:
        rapidbleu.errors.InvalidOptionError: An unknown rouge type (a ``ValueError``).

    Example:
        >>> r = ROUGE(["rouge1", "rougeL"], use_stemmer=True)
        >>> r.score("The quick brown fox", "the quick foxes")["rouge1"]
        Score(precision=1.0, recall=0.75, fmeasure=0.8571428571428571)
    """

    cli_name = "rouge"
    # A summarisation / LLM metric: the MT report computes it when asked (-m rouge).
    in_default_report = False
    additive = False
    _SIGNATURE_TYPE = ROUGESignature
    CLI_OPTIONS = (
        CliOption(
            ("--rouge-types",),
            "rouge_types",
            lambda text: text.split(","),
            DEFAULT_TYPES,
            "rouge types, comma-separated: rouge1 .. rouge9, rougeL, rougeLsum",
            metavar="TYPES",
        ),
        CliOption(("--rouge-stemmer",), "use_stemmer", bool, False, "Porter stemmer"),
        CliOption(
            ("--rouge-split-summaries",),
            "split_summaries",
            bool,
            False,
            "rougeLsum sentences by nltk.sent_tokenize instead of newlines",
        ),
        CliOption(
            ("--rouge-tokenizer",),
            "tokenizer",
            # "default" is rouge-score's tokenizer, which ROUGE takes as tokenizer=None.
            lambda text: None if text == "default" else text,
            None,
            "default: rouge-score's ([a-z0-9] only); unicode: rapidbleu's, for any script",
            choices=("default", "unicode"),
            metavar="TOK",
        ),
        CliOption(
            ("--rouge-dialect",),
            "dialect",
            str,
            "rouge-score",
            "rouge-score (default); pltrdy: the rouge package's avg=True; chinese: rouge-chinese's;"
            " xlsum: XL-Sum's multilingual ROUGE",
            choices=("rouge-score", "pltrdy", "chinese", "xlsum"),
            metavar="DIALECT",
        ),
        CliOption(
            ("--rouge-lang",),
            "lang",
            str,
            None,
            "XL-Sum's language (chinese, thai, hindi, ...); implies --rouge-dialect xlsum",
            metavar="LANG",
        ),
    )

    @classmethod
    def from_command_line(
        cls, options: dict[str, Any], *, trg_lang: str = "", sentence_level: bool = False
    ) -> Metric[Any]:
        """ROUGE, or with ``--rouge-dialect pltrdy|chinese`` the package's (other options unused).

        Example:
            >>> type(ROUGE.from_command_line({"dialect": "pltrdy"})).__name__
            'PltrdyROUGE'
        """
        options = dict(options)
        dialect = options.pop("dialect", "rouge-score")
        lang = options.pop("lang", None)
        if dialect == "xlsum" or lang is not None:
            from rapidbleu.metrics.rouge.xlsum_metric import from_options

            return from_options(dialect, lang, options)
        if dialect in ("pltrdy", "chinese"):
            from rapidbleu.metrics.rouge.dialect_metric import PltrdyROUGE

            return PltrdyROUGE(chinese=dialect == "chinese")
        return cls(**options)

    # rouge-score reads `rouge_types` from `self` on every call: set later, it takes effect.
    rouge_types = Rebuilds()

    def __init__(
        self,
        rouge_types: Sequence[str] = DEFAULT_TYPES,
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        super().__init__(num_threads=num_threads)
        # rouge-score's result is a dict: a repeated type is one entry.
        self.rouge_types = _type_list(rouge_types)
        self.use_stemmer = check_flag(use_stemmer, "use_stemmer")
        self.split_summaries = check_flag(split_summaries, "split_summaries")
        # "unicode": rapidbleu's own tokenizer for any script (rouge/dialects/unicode.rs in the
        # core), never the default. Otherwise rouge-score tests `if tokenizer:`; a falsy
        # tokenizer means the default one.
        self.unicode = isinstance(tokenizer, str) and tokenizer == "unicode"
        self.tokenizer = tokenizer if tokenizer and not self.unicode else None
        if self.tokenizer is not None and not callable(getattr(self.tokenizer, "tokenize", None)):
            raise InvalidOptionError("tokenizer must be 'unicode' or have a tokenize(text) method")
        if self.unicode and self.split_summaries:
            raise InvalidOptionError(
                "tokenizer='unicode' splits rougeLsum sentences at newlines; "
                "split_summaries is not allowed with it"
            )
        self._rebuild_options()
        if references is not None:
            self.cache_references(references)
        built(self)

    def _rebuild_options(self) -> None:
        """The core's options of ``rouge_types`` as it is now (see :mod:`.live_options`)."""
        types = _type_list(self.rouge_types)
        self._options = _core.RougeOptions(types, self.use_stemmer)
        self._layout = RowLayout(
            tuple(f"{t}_{c}" for t in types for c in ("hits", "pred", "target"))
        )

    @property
    def options(self) -> _core.RougeOptions:
        """The options the core runs with (``rapidbleu._core.RougeOptions``).

        Example:
            >>> ROUGE(["rouge1"]).options.rouge_types
            ['rouge1']
        """
        return self._options

    @property
    def layout(self) -> RowLayout:
        """Per rouge type ``[hits, pred, target]``: the best reference's counts.

        Example:
            >>> ROUGE(["rouge2"]).layout.columns
            ('rouge2_hits', 'rouge2_pred', 'rouge2_target')
        """
        return self._layout

    # -- rouge-score's API -------------------------------------------------------------------

    @answers_first("_score_general")
    def score(self, target: str, prediction: str) -> dict[str, RougeTypeScore]:
        """rouge-score's ``RougeScorer.score(target, prediction)``.

        Example:
            >>> ROUGE(["rouge2"]).score("a b c", "a b d")["rouge2"].fmeasure
            0.5
        """
        # Performance decision: programs score item by item, so this is one core call with
        # the options as they are now (`_options` follows `rouge_types`; the other attributes
        # are read here), no list, no rows, no second Python frame. Anything else (a user
        # tokenizer, sentences split by NLTK, a refused option, text that is not a `str`)
        # takes the general path, which answers or raises.
        if (
            self._text_in_core
            and self.tokenizer is None
            and not self.unicode
            and not self.split_summaries
        ):
            try:
                scores = self._options.score_pair(target, prediction, RougeTypeScore)
            except RapidBleuError:
                scores = None  # a `Refused` option: the general path raises it
            if scores is not None:
                return scores
        return self._score_general(target, prediction)

    def _score_general(self, target: str, prediction: str) -> dict[str, RougeTypeScore]:
        """:meth:`score` for any options and input: rouge-score's result, or an error."""
        if self._in_core:
            scores = self._options.score_pair(target, prediction, RougeTypeScore)
            if scores is not None:
                return scores
        return self.score_multi([target], prediction)

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, RougeTypeScore]:
        """rouge-score's ``score_multi``: per type, the target with the best F-measure.

        Ties go to the first such target (``np.argmax``).

        Example:
            >>> ROUGE(["rouge1"]).score_multi(["x y", "a b"], "a b")["rouge1"].recall
            1.0
        """
        if isinstance(targets, str) or not isinstance(targets, Sequence):
            raise InputTypeError("targets must be a list of str")
        if len(targets) == 0:
            raise EmptyInputError("score_multi needs at least one target")
        row = self._rows([prediction], [list(targets)])[0].tolist()
        return {
            t: type_score(row[3 * k], row[3 * k + 1], row[3 * k + 2], lcs=t in LCS_TYPES)
            for k, t in enumerate(self._options.rouge_types)
        }

    def tokenize(self, text: str) -> list[Any]:
        """The tokens rouge-score scores: its ``DefaultTokenizer``'s (or the user tokenizer's).

        Example:
            >>> ROUGE(["rouge1"], use_stemmer=True).tokenize("Running İstanbul!")
            ['run', 'i', 'stanbul']
        """
        if self.tokenizer is not None:
            return list(self.tokenizer.tokenize(text))
        if not isinstance(text, str):
            raise InputTypeError(f"text must be a str, not {type(text).__name__}")
        if self.unicode:
            toks = _core.RougeOptions.unicode_tokenize(text)
            if not self.use_stemmer:
                return toks
            # Porter on ASCII letters and digits longer than three characters (rule 4).
            stem = [t.isascii() and t.isalnum() and len(t) > 3 for t in toks]
            stems = iter(_core.porter_stem([t for t, s in zip(toks, stem) if s]))
            return [next(stems) if s else t for t, s in zip(toks, stem)]
        return _core.RougeOptions.tokenize(text, self.use_stemmer)

    # -- batches -----------------------------------------------------------------------------

    def score_arrays(
        self, hypotheses: Sequence[str], references: Any = None, *, per_segment: bool = False
    ) -> dict[str, npt.NDArray[np.float64]]:
        """Every item's scores at once: rouge type -> ``(n, 3)`` precision, recall, fmeasure.

        Row ``i`` equals ``score_multi(refs_i, hypotheses[i])``; ``references`` are streams
        (``references[k][i]``, ``None`` entries skipped) or, with ``per_segment``, one list
        per hypothesis. Feed the result to
        :meth:`~rapidbleu.metrics.rouge.scoring.BootstrapAggregator.add_arrays`.

        Example:
            >>> ROUGE(["rouge1"]).score_arrays(["a b", "c"], [["a b", "d"]])["rouge1"].tolist()
            [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
        """
        return self._type_arrays(self.statistics(hypotheses, references, per_segment=per_segment))

    def fmeasure_lists(
        self, hypotheses: Sequence[str], references: Any = None, *, per_segment: bool = False
    ) -> dict[str, list[float | int]]:
        """Every item's F-measure per rouge type, as rouge-score's ``score_multi`` gives it.

        Floats, but the int ``0`` that rouge-score returns for ``rougeL`` and ``rougeLsum``
        when a side has no tokens (``json.dumps`` prints ``0`` there, as for rouge-score).

        Example:
            >>> ROUGE(["rouge1", "rougeL"]).fmeasure_lists(["a b", "!"], [["a b", "a"]])
            {'rouge1': [1.0, 0.0], 'rougeL': [1.0, 0]}
        """
        import numpy as np

        rows = self.statistics(hypotheses, references, per_segment=per_segment)
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        out: dict[str, list[float | int]] = {}
        for k, t in enumerate(self._options.rouge_types):
            triples = rows[:, 3 * k : 3 * k + 3]
            values: list[float | int] = score_arrays(triples)[:, 2].tolist()
            if t in LCS_TYPES:
                empty = ((triples[:, 1] == 0) | (triples[:, 2] == 0)).tolist()
                values = [0 if e else v for v, e in zip(values, empty)]
            out[t] = values
        return out

    def _type_arrays(self, rows: Rows) -> dict[str, npt.NDArray[np.float64]]:
        import numpy as np

        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return {
            t: score_arrays(rows[:, 3 * k : 3 * k + 3])
            for k, t in enumerate(self._options.rouge_types)
        }

    # -- the Metric template -----------------------------------------------------------------

    #: Whether the core can read this class's text (XL-Sum's runs its tokenizers in Python).
    _text_in_core: ClassVar[bool] = True

    @property
    def _in_core(self) -> bool:
        r"""Whether the core reads the text itself (the default tokenizer, ``\n`` sentences)."""
        return (
            self._text_in_core
            and self.tokenizer is None
            and not self.unicode
            and not (self.split_summaries and self._options.needs_sentences)
        )

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        if self._in_core:
            try:
                rows, self.num_refs = self._options.statistics(
                    hypotheses, references, self.num_threads, per_segment
                )
                return rows
            except InvalidTextError:
                pass  # a lone surrogate: rouge-score reads it as a separator, as _rows does
        hyps = check_hypotheses(hypotheses)
        if per_segment:
            if len(references) != len(hyps):
                raise LengthMismatchError(
                    f"{len(hyps)} hypotheses but {len(references)} reference lists"
                )
            targets = [[r for r in refs if r is not None] for refs in references]
        else:
            streams = check_streams(references)
            check_shape(len(hyps), streams)
            targets = [[r for r in seg if r is not None] for seg in zip(*streams)]
        counts = {len(t) for t in targets}
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        for i, t in enumerate(targets):
            if not t:
                raise MissingReferenceError(f"segment {i} has no reference")
        return self._rows(list(hyps), targets)

    def _pass_sentence_scores(
        self, hypotheses: Sequence[Any], references: Any, per_segment: bool
    ) -> Scores | None:
        """Sentence scores in the core's pass (the default tokenizer), else ``None``."""
        if not self._in_core:
            return None
        try:
            scores, self.num_refs = self._options.sentence_scores(
                hypotheses, references, self.num_threads, per_segment
            )
        except InvalidTextError:
            return None
        return scores

    def chunk_statistics(self, chunk: _core.TextChunk) -> list[Rows]:
        """Rows of every system of a chunk read from files, counted where its lines lie.

        Example:
            >>> chunk = _core.TextChunk.from_lists([["a b"]], [["a c"]])
            >>> ROUGE(["rouge1"]).chunk_statistics(chunk)[0].tolist()
            [[1, 2, 2]]
        """
        if not self._in_core:
            return super().chunk_statistics(chunk)
        rows, self.num_refs = self._options.chunk_statistics(chunk, self.num_threads)
        return rows

    def _rows(self, predictions: list[Any], targets: list[list[Any]]) -> Rows:
        """Rows of predictions against their target lists (the core's layout)."""
        if self.unicode:
            return self._options.unicode_statistics(predictions, targets, self.num_threads)
        if self.tokenizer is not None:
            docs = [self._doc(p) for p in predictions]
            target_docs = [[self._doc(t) for t in ts] for ts in targets]
            try:
                return self._options.token_statistics(docs, target_docs, self.num_threads)
            except TypeError as e:  # an unhashable token
                raise TokenizerOutputError(f"the tokenizer's tokens cannot be counted: {e}") from e
        if self.split_summaries and self._options.needs_sentences:
            return self._options.item_statistics(
                predictions,
                targets,
                self.num_threads,
                [self._sentences(p) for p in predictions],
                [[self._sentences(t) for t in ts] for ts in targets],
            )
        return self._options.item_statistics(predictions, targets, self.num_threads)

    def _sentences(self, text: str) -> list[str]:
        r"""rouge-score's ``get_sents``: ``nltk.sent_tokenize`` or ``\n``, empty ones dropped."""
        if self.split_summaries:
            sents = _sent_tokenize(text)
        else:
            sents = text.split("\n")
        return [x for x in sents if len(x)]

    def _doc(self, text: str) -> tuple[list[Any], list[list[Any]] | None]:
        """A text through the user tokenizer, as rouge-score's ``score`` calls it."""
        assert self.tokenizer is not None
        tok = self.tokenizer.tokenize
        only_lsum = self._options.rouge_types == ["rougeLsum"]
        tokens = [] if only_lsum else _tokens(tok(text))
        sents = (
            [_tokens(tok(s)) for s in self._sentences(text)]
            if self._options.needs_sentences
            else None
        )
        return tokens, sents

    def accumulate(self, totals: Any, rows: Rows) -> list[Any]:
        """Adds ``rows`` (the next items, in order) to ``[items, sums]``, in the core.

        ``sums`` holds each type's precision, recall and F-measure summed one item after the
        other, so folding a stream chunk by chunk equals the whole at once.

        Example:
            >>> r = ROUGE(["rouge1"])
            >>> rows = r.statistics(["a b", "a c", "b"], [["a b", "a b", "a b"]])
            >>> r.accumulate(r.accumulate(None, rows[:1]), rows[1:])[1].tolist()
            [2.5, 2.0, 2.1666666666666665]
        """
        import numpy as np

        count, sums = (0, None) if totals is None else totals
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        if sums is not None:
            sums = np.ascontiguousarray(sums, dtype=np.float64)
        return list(self._options.accumulate(rows, (int(count), sums)))

    def score_totals(self, totals: Any) -> ROUGEScore:
        """The mean scores of ``[items, sums]`` (what :meth:`total` gives).

        Example:
            >>> ROUGE(["rouge1"]).score_totals([2, [1.0, 1.0, 1.0]]).score
            50.0
        """
        count, sums = totals
        means = [float(s) / count if count else 0.0 for s in sums]
        return ROUGEScore(
            {
                t: RougeTypeScore(*means[3 * k : 3 * k + 3])
                for k, t in enumerate(self._options.rouge_types)
            }
        )

    def item_values(
        self, hypotheses: Sequence[Any], references: Sequence[Any], divisor: float = 1.0
    ) -> list[float]:
        """Each item's first rouge type F-measure; on the 0..1 scale rouge-score's float itself.

        ``100 * F / 100`` is not always ``F`` (0.6666666666666665 for rouge-score's
        0.6666666666666666), so ``divisor=100`` returns the F-measures as rouge-score's
        ``score_multi`` gives them.

        Example:
            >>> ROUGE(["rouge1"]).item_values(["a b c"], [["a b d e"]], 100.0)
            [0.5714285714285715]
        """
        if divisor != 100.0:
            return super().item_values(hypotheses, references, divisor)
        rows = self.statistics(hypotheses, references, per_segment=True)
        first = self._options.rouge_types[0]
        return [float(f) for f in self._type_arrays(rows)[first][:, 2].tolist()]

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Each row's score on its own: 100 times the first rouge type's F-measure.

        Example:
            >>> r = ROUGE(["rouge1"])
            >>> r.score_rows(r.statistics(["a b", "a"], [["a b", "b"]])).tolist()
            [100.0, 0.0]
        """
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return self._options.score_rows(rows)

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[np.float64]:
        """Each resample's corpus score: the mean of its items' scores, added in index order.

        Example:
            >>> import numpy as np
            >>> r = ROUGE(["rouge1"])
            >>> rows = r.statistics(["a b", "x"], [["a b", "a"]])
            >>> r.resample_scores(rows, np.array([[0, 0], [0, 1]])).tolist()
            [100.0, 50.0]
        """
        import numpy as np

        return self._options.bootstrap_scores(
            np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width),
            np.ascontiguousarray(idxs, dtype=np.int64),
            self.num_threads,
        )

    def pairwise_matrices(
        self, groups: Sequence[tuple[Sequence[Any], Sequence[Any]]]
    ) -> list[npt.NDArray[np.float64]]:
        """Per group ``(hypotheses, references)``, the matrix of sentence scores.

        Example:
            >>> ROUGE(["rouge1"]).pairwise_matrices([(["a b", "c"], ["a b"])])[0].tolist()
            [[100.0], [0.0]]
        """
        if not self._in_core:
            return super().pairwise_matrices(groups)
        try:
            return self._options.pairwise_matrices(
                [(list(h), list(r)) for h, r in groups], self.num_threads
            )
        except InvalidTextError:
            return super().pairwise_matrices(groups)

    def randomization_sums(
        self, baseline: Rows, system: Rows, masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        """Shuffled pseudo-systems' mean item scores (float64 matrix products, then ``/ n``).

        Example:
            >>> import numpy as np
            >>> r = ROUGE(["rouge1"])
            >>> a = r.statistics(["a", "b"], [["a", "a"]])
            >>> r.randomization_sums(a, a, np.array([[True, False]]))[0].tolist()
            [50.0]
        """
        bl, sy = self.score_rows(baseline), self.score_rows(system)
        neg = ~masks
        n = max(len(bl), 1)
        return (masks @ bl + neg @ sy) / n, (neg @ bl + masks @ sy) / n

    def randomization_scores(self, sums: Any) -> npt.NDArray[np.float64]:
        """Scores of shuffled pseudo-systems: :meth:`randomization_sums` already gives means."""
        import numpy as np

        return np.asarray(sums, dtype=np.float64)

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """A corpus score as JSON fields: ``rouge`` (``score / divisor``) and each type's means.

        Example:
            >>> r = ROUGE(["rouge1"])
            >>> r.score_fields(r.corpus_score(["a b"], [["a c"]]), 100.0)
            {'rouge': 0.5, 'rouge1_precision': 0.5, 'rouge1_recall': 0.5, 'rouge1_fmeasure': 0.5}
        """
        # On the 0..1 scale the oracle's own float (the mean F), never `100 * F / 100`.
        unit = divisor == 100.0 and score.scores
        first = next(iter(score.scores.values())).fmeasure if unit else score.score / divisor
        fields: dict[str, Any] = {"rouge": first}
        for t, s in score.scores.items():
            fields.update({f"{t}_{k}": v for k, v in s._asdict().items()})
        return fields

    def get_signature(self) -> ROUGESignature:
        """The signature (known once references have been seen).

        Example:
            >>> r = ROUGE(["rougeL"])
            >>> _ = r.corpus_score(["a"], [["a"]])
            >>> str(r.get_signature()).split("|version:")[0]
            'nrefs:1|types:rougeL|stem:no|split:no|tok:default'
        """
        return ROUGESignature(self.__dict__)
