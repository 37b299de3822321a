"""METEOR as NLTK 3.10.4's ``meteor_score`` computes it, in Rust, on the Metric template.

A sentence score is NLTK's ``meteor_score(references, hypothesis)`` with its defaults
(``preprocess=str.lower``, ``PorterStemmer()``, WordNet 3.0, ``alpha=0.9, beta=3.0,
gamma=0.5``), equal with ``==``: exact matches, then Porter stems, then WordNet synonyms (of
the stems, as NLTK's stages pass them on), 3.10's linear-time matching order, the chunk count
and the best reference. WordNet is read by the core from its own files, found where NLTK finds
them (:mod:`rapidbleu.metrics.meteor.wordnet`), once per process.

A statistics row is ``[matches, chunks, hyp_len, ref_len]`` of the reference ``max`` keeps,
and the sentence score is computed from it in NLTK's float order. The corpus value is what
evaluate's ``meteor`` reports, ``np.mean`` of the sentence scores: not a function of summed
rows (``additive = False``), so the totals are the sentence scores in order.

Input: NLTK takes token lists (:meth:`METEOR.score_tokens`, :meth:`METEOR.token_scores`);
text given to the template's methods (``corpus_score``, ``sentence_score``, ``statistics``)
is tokenized by a named tokenizer (:mod:`rapidbleu.metrics.meteor.tokenize`): ``split``
(Python's ``str.split()``, the default) or ``nltk`` (NLTK's ``word_tokenize``, as evaluate's
``meteor`` tokenizes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.checks import check_flag
from rapidbleu.metrics.layout import RowLayout, Rows
from rapidbleu.metrics.meteor.score import METEORScore, METEORSignature
from rapidbleu.metrics.meteor.tokenize import (
    TOKENIZERS,
    check_tokenize,
    retokenize,
    word_tokenizer,
)
from rapidbleu.metrics.meteor.wordnet import wordnet_folder
from rapidbleu.metrics.options import CliOption

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["METEOR"]


def _number(value: Any, name: str) -> float:
    """An ``alpha``/``beta``/``gamma`` value: an int or a float, not a bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidOptionError(f"{name} must be a number (int or float), not {value!r}")
    return float(value)


class METEOR(Metric[METEORScore]):
    """METEOR, exactly as NLTK 3.10.4's ``meteor_score``, in Rust.

    Args:
        alpha: Weight of precision against recall (NLTK's ``alpha``).
        beta: Exponent of the fragmentation penalty.
        gamma: Weight of the fragmentation penalty.
        lowercase: ``preprocess=str.lower`` (else the tokens as they are).
        stem: The Porter stem stage (``stemmer=PorterStemmer()``).
        wordnet: ``True``: WordNet 3.0 found where NLTK finds it; a folder (or NLTK's
            ``wordnet.zip``, or a data root holding either); ``False``: no synonym stage.
        references: Reference streams to keep, reused by calls that pass ``references=None``.
        num_threads: Threads for the Rust core; ``None`` uses ``$RAPIDBLEU_NUM_THREADS`` or
            all cores, ``1`` runs on the calling thread.
        tokenize: How text is tokenized: ``"split"`` (``str.split()``) or ``"nltk"``
            (NLTK's ``word_tokenize``, which needs NLTK's ``punkt_tab`` data).

    Raises:
        rapidbleu.errors.InvalidOptionError: A bad option value.
        rapidbleu.errors.MissingDependencyError: WordNet was asked for and not found, or
            ``tokenize="nltk"`` without NLTK's ``punkt_tab``.

    Example:
        >>> m = METEOR(wordnet=False)
        >>> m.corpus_score(["the cat sat"], [["the cat sat"]]).meteor
        0.9814814814814815
    """

    cli_name = "meteor"
    in_default_report = False
    additive = False
    _SIGNATURE_TYPE = METEORSignature
    CLI_OPTIONS = (
        CliOption(
            ("--meteor-tokenize",),
            "tokenize",
            str,
            "split",
            "how text is tokenized: split (str.split) or nltk (NLTK's word_tokenize)",
            choices=TOKENIZERS,
        ),
        CliOption(
            ("--meteor-wordnet",),
            "wordnet",
            lambda v: False if v.lower() in ("no", "none", "off") else v,
            True,
            "WordNet 3.0: a folder, wordnet.zip or NLTK data root (default: where NLTK finds "
            "it); 'no': no synonym stage",
            metavar="PATH",
        ),
        CliOption(("--meteor-alpha",), "alpha", float, 0.9, "weight of precision", minimum=0),
        CliOption(("--meteor-beta",), "beta", float, 3.0, "fragmentation exponent", minimum=0),
        CliOption(("--meteor-gamma",), "gamma", float, 0.5, "fragmentation weight", minimum=0),
    )
    _LAYOUT = RowLayout(("matches", "chunks", "hyp_len", "ref_len"))

    def __init__(
        self,
        alpha: float = 0.9,
        beta: float = 3.0,
        gamma: float = 0.5,
        lowercase: bool = True,
        stem: bool = True,
        wordnet: Any = True,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
        tokenize: str = "split",
    ) -> None:
        super().__init__(num_threads=num_threads)
        self.tokenize = check_tokenize(tokenize)
        self._word_tokenize = word_tokenizer() if self.tokenize == "nltk" else None
        self.alpha = _number(alpha, "alpha")
        self.beta = _number(beta, "beta")
        self.gamma = _number(gamma, "gamma")
        self.lowercase = check_flag(lowercase, "lowercase")
        self.stem = check_flag(stem, "stem")
        self.wordnet = wordnet_folder(wordnet)
        self._options = _core.MeteorOptions(
            alpha=self.alpha,
            beta=self.beta,
            gamma=self.gamma,
            lowercase=self.lowercase,
            stem=self.stem,
            wordnet=self.wordnet,
        )
        if references is not None:
            self.cache_references(references)

    @property
    def layout(self) -> RowLayout:
        """``[matches, chunks, hyp_len, ref_len]`` of the best reference.

        Example:
            >>> METEOR(wordnet=False).layout.columns
            ('matches', 'chunks', 'hyp_len', 'ref_len')
        """
        return self._LAYOUT

    @property
    def options(self) -> _core.MeteorOptions:
        """The options the core runs with (``rapidbleu._core.MeteorOptions``).

        Example:
            >>> METEOR(wordnet=False).options.alpha
            0.9
        """
        return self._options

    # -- NLTK's input: token lists ---------------------------------------------------------

    def token_statistics(
        self, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
    ) -> Rows:
        """Rows of token lists: ``hypotheses[i]`` against its references ``references[i]``.

        Example:
            >>> METEOR(wordnet=False).token_statistics([["a", "b"]], [[["a", "c"]]]).tolist()
            [[1, 1, 2, 2]]
        """
        return self._options.tokens_statistics(hypotheses, references, self.num_threads)

    def token_scores(
        self, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
    ) -> npt.NDArray[np.float64]:
        """``meteor_score(references[i], hypotheses[i])`` for every ``i``, as float64.

        Example:
            >>> METEOR(wordnet=False).token_scores([["a", "b"]], [[["a", "c"]]]).tolist()
            [0.25]
        """
        return self.score_rows(self.token_statistics(hypotheses, references))

    def score_tokens(self, references: Sequence[Sequence[str]], hypothesis: Sequence[str]) -> float:
        """NLTK's ``meteor_score(references, hypothesis)`` (its argument order).

        Example:
            >>> METEOR(wordnet=False).score_tokens([["a", "c"]], ["a", "b"])
            0.25
        """
        return float(self.token_scores([hypothesis], [references])[0])

    # -- the template ----------------------------------------------------------------------

    def _cache(self, references: Sequence[Any]) -> Any:
        if self._word_tokenize is not None:
            references = retokenize(self._word_tokenize, references, 2)
        return super()._cache(references)

    def _cached_statistics(self, cache: Any, hypotheses: Sequence[Any]) -> Rows:
        # The cached references are tokenized already (_cache): only the hypotheses are.
        if self._word_tokenize is not None:
            hypotheses = retokenize(self._word_tokenize, hypotheses, 1)
        rows, self.num_refs = self._options.statistics(
            hypotheses, cache, self.num_threads, per_segment=False
        )
        return rows

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Rows:
        if self._word_tokenize is not None:
            hypotheses = retokenize(self._word_tokenize, hypotheses, 1)
            references = retokenize(self._word_tokenize, references, 2)
        rows, self.num_refs = self._options.statistics(
            hypotheses, references, self.num_threads, per_segment=per_segment
        )
        return rows

    def accumulate(self, totals: Any, rows: Rows) -> list[Any]:
        """``totals`` (the sentence scores so far) with those of ``rows`` appended, in order.

        Example:
            >>> m = METEOR(wordnet=False)
            >>> rows = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.accumulate(m.accumulate(None, rows[:1]), rows[1:]) == m.total(rows)
            True
        """
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return list(self._options.accumulate(rows, None if totals is None else list(totals)))

    def score_totals(self, totals: Any) -> METEORScore:
        """Evaluate's ``np.mean`` of the sentence scores (``nan`` for none, as NumPy gives).

        Example:
            >>> METEOR(wordnet=False).score_totals([0.5, 0.25]).meteor
            0.375
        """
        import numpy as np

        if len(totals) == 0:
            return METEORScore(float("nan"))
        return METEORScore(float(np.mean(np.asarray(totals, dtype=np.float64))))

    def score_rows(self, rows: Rows) -> npt.NDArray[np.float64]:
        """Each row's sentence score (NLTK's ``single_meteor_score`` arithmetic), float64.

        Example:
            >>> m = METEOR(wordnet=False)
            >>> m.score_rows(m.statistics(["a b", "x"], [["a b", "y"]])).tolist()
            [0.9375, 0.0]
        """
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width)
        return self._options.score_rows(rows)

    def resample_scores(
        self, rows: Rows, idxs: npt.NDArray[np.int64], sums: Rows | None = None
    ) -> npt.NDArray[np.float64]:
        """Each resample's corpus score: ``100 *`` the mean of its rows' sentence scores.

        The sentence scores are taken in index order and averaged with NumPy's pairwise sum
        (not a score of summed rows: METEOR's rows do not add).

        Example:
            >>> import numpy as np
            >>> m = METEOR(wordnet=False)
            >>> rows = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.resample_scores(rows, np.array([[0, 0], [0, 1]])).tolist()
            [93.75, 46.875]
        """
        import numpy as np

        means = self._options.bootstrap_scores(
            np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, self.layout.width),
            np.ascontiguousarray(idxs, dtype=np.int64),
            self.num_threads,
        )
        return 100 * means

    def randomization_sums(
        self, baseline: Rows, system: Rows, masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        """Shuffled pseudo-systems' mean sentence scores (float64 matrix products, ``/ n``).

        Example:
            >>> import numpy as np
            >>> m = METEOR(wordnet=False)
            >>> a = m.statistics(["a b", "x"], [["a b", "y"]])
            >>> m.randomization_sums(a, a, np.array([[True, False]]))[0].tolist()
            [0.46875]
        """
        bl, sy = self.score_rows(baseline), self.score_rows(system)
        neg = ~masks
        n = max(len(bl), 1)
        return (masks @ bl + neg @ sy) / n, (neg @ bl + masks @ sy) / n

    def randomization_scores(self, sums: Any) -> npt.NDArray[np.float64]:
        """Scores of shuffled pseudo-systems: ``100 *`` the means of :meth:`randomization_sums`.

        Example:
            >>> METEOR(wordnet=False).randomization_scores([0.5]).tolist()
            [50.0]
        """
        import numpy as np

        return 100 * np.asarray(sums, dtype=np.float64)

    def score_fields(self, score: Any, divisor: float = 1.0) -> dict[str, Any]:
        """A corpus score as JSON fields: ``meteor``, the score over ``divisor``.

        ``--jsonl``'s unit scale passes 100: the mean itself (0..1, exact, evaluate's key).

        Example:
            >>> m = METEOR(wordnet=False)
            >>> m.score_fields(m.corpus_score(["a b"], [["a b"]]), 100.0)
            {'meteor': 0.9375}
        """
        if divisor == 100:
            return {"meteor": score.meteor}
        return {"meteor": score.score / divisor}

    def item_values(
        self, hypotheses: Sequence[Any], references: Sequence[Any], divisor: float = 1.0
    ) -> list[float]:
        """Each item's METEOR over ``divisor`` on the corpus score's 0..100 scale.

        Sentence scores are NLTK's own 0..1 values, so ``--jsonl``'s unit scale (``divisor``
        100) gives them exactly as ``meteor_score`` returns them, and the percent scale 100
        times them.

        Example:
            >>> METEOR(wordnet=False).item_values(["a b c"], [["a b d"]], 100.0)
            [0.625]
        """
        scores = self.sentence_scores(hypotheses, references, per_segment=True).tolist()
        if divisor == 100:
            return [float(s) for s in scores]
        return [100 * s / divisor for s in scores]

    def get_signature(self) -> METEORSignature:
        """The signature (known once references have been seen).

        Example:
            >>> m = METEOR(wordnet=False)
            >>> _ = m.corpus_score(["a"], [["a"]])
            >>> str(m.get_signature()).split("|version:")[0]
            'nrefs:1|case:lc|stem:porter|wordnet:no|alpha:0.9|beta:3.0|gamma:0.5|tok:split'
        """
        return METEORSignature(self.__dict__)
