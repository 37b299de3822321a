r"""XL-Sum's multilingual ROUGE (``multilingual-rouge`` 0.0.1): ``RougeScorer``, scored in the core.

``multilingual_rouge.rouge_scorer.RougeScorer(rouge_types, lang=..., use_stemmer=...)`` is
rouge-score's scorer after a tokenizer and a stemmer per language. Those come from the
package itself (its ``MultiTokenizer``: BERT's basic tokenizer, pyonmttok, jieba, pythainlp, its
Burmese rules; its ``MultiStemmer``: Porter, Snowball, Hindi, Turkish), so this module needs it
installed; rapidbleu counts and scores the tokens in Rust (:meth:`RougeOptions.token_statistics`),
all items of :meth:`RougeScorer.score_batch` in one parallel call.

Kept from the package, each as its ``RougeScorer.score`` does it:

- both texts go through the language's tokenizer (and its warnings) whatever the types;
- rougeLsum's sentences (lines) are tokenized by ``tokenize.tokenize(s, stemmer)`` with *no*
  language tokenizer: BERT's basic tokenizer only, so Chinese or Thai sentences are not
  segmented there as they are for rouge1/rougeL;
- rougeL and rougeLsum of an empty text are ``Score(0, 0, 0)`` with ``int`` zeros
  (``_score_lcs``, ``_summary_level_lcs``); n-grams give ``0.0``;
- results are the package's ``scoring.Score``.

Types the core does not take (``"rouge0"``, ``"rouge1\n"``, which the package's
``re.match(r"rouge[0-9]$")`` accepts, anything not a list of str) run the package's own
``score`` on the same tokenizer, which computes or raises as it does.

Example:
    >>> s = RougeScorer(["rouge1", "rougeL"], lang="chinese")
    >>> s.score("我爱北京天安门", "我爱北京")["rouge1"].recall
    0.75
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from rapidbleu import _core
from rapidbleu.errors import InvalidTextError, MissingDependencyError, RapidBleuError
from rapidbleu.metrics.rouge.jieba_dict import jieba_dict
from rapidbleu.metrics.rouge.packages import real_module

__all__ = ["RougeScorer"]

#: What to install for the tokenizers and stemmers.
PACKAGE = "multilingual-rouge==0.0.1"


def _package(module: str) -> ModuleType:
    """``multilingual_rouge.<module>``, or a named error saying how to get it.

    Imported when a scorer is built, never at import time: under the accelerator,
    ``multilingual_rouge.rouge_scorer`` is the namespace module over this one.
    """
    try:
        return real_module(f"multilingual_rouge.{module}")
    except ImportError as e:
        raise MissingDependencyError(
            f"XL-Sum's ROUGE tokenizes with the multilingual-rouge package's tokenizers and "
            f"stemmers: pip install {PACKAGE} ({e})"
        ) from e


def _sentences(text: str) -> list[str]:
    # multilingual_rouge.rouge_scorer.RougeScorer.score's get_sents (six.ensure_str is str).
    return [x for x in text.split("\n") if len(x)]


class RougeScorer:
    """XL-Sum's ``RougeScorer``: the package's constructor and ``score``, and a batch.

    Args:
        rouge_types: ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``.
        **kwargs: The package's: ``lang`` (``"chinese"``, ``"thai"``, ``"hindi"``, ...;
            ``bangla``, ``turkce``, ``chinese_simplified`` and the like are renamed as it does),
            ``use_stemmer``, ``callable_tokenizer``, ``callable_stemmer``, ``min_char_length``.

    Raises:
        rapidbleu.errors.MissingDependencyError: ``multilingual-rouge`` is not installed.

    Example:
        >>> RougeScorer(["rougeL"], use_stemmer=True).score("cats run", "cat runs")["rougeL"]
        Score(precision=1.0, recall=1.0, fmeasure=1.0)
    """

    def __init__(self, rouge_types: Sequence[str], **kwargs: Any) -> None:
        self._real = _package("rouge_scorer").RougeScorer
        self._tokenize = _package("tokenization_wrapper").tokenize
        self._score_type = _package("scoring").Score
        # The package's own constructor on this object: the same language renaming, tokenizer
        # and stemmer objects, and warnings ("unknown stemmer language").
        self._real.__init__(self, rouge_types, **kwargs)
        self.rouge_types: Any
        self._tokenizer: Any
        self._stemmer: Any
        types = self.rouge_types
        self._options: _core.RougeOptions | None = None
        if not isinstance(types, str) and isinstance(types, Sequence):
            unique = list(dict.fromkeys(types))
            if all(isinstance(t, str) for t in unique):
                try:
                    self._options = _core.RougeOptions(unique, False)
                except RapidBleuError:
                    pass  # the package's score decides (it accepts "rouge1\n", raises on others)
        self._types = list(dict.fromkeys(types)) if self._options is not None else []
        self._porter = self._core_reading()
        self._jieba = self._jieba_reading()

    def _core_reading(self) -> bool | None:
        """Whether the core tokenizes the texts it reads (``None``: never; ``True``: Porter).

        ``True`` with the Porter stemmer, ``False`` without a stemmer, ``None`` never (the
        package's tokenizers, in Python).

        The core reads for the languages without a tokenizer of their own (``lang=None``,
        English, French, Hindi, ...), with no stemmer, NLTK's Porter (``lang=None``, stemming
        tokens longer than three characters) or the Hindi stemmer (whose suffixes are all
        Devanagari: it leaves the core's ASCII tokens as they are).
        """
        if self._options is None or self._tokenizer.tokenizer is not None:
            return None
        if self._stemmer is None or self._stemmer.stemmer is None:
            return False
        stemmers = _package("stemmers")
        inner = self._stemmer.stemmer
        if type(inner) is stemmers.HindiStemmer:
            return False
        from nltk.stem.snowball import PorterStemmer  # type: ignore[import-untyped]

        # NLTKStemmer("porter") -> SnowballStemmer("porter") -> NLTK's PorterStemmer in its
        # default mode, which is rouge-score's stemmer (the core's).
        snowball: Any = getattr(getattr(inner, "stemmer", None), "stemmer", None)
        porter = (
            type(inner) is stemmers.NLTKStemmer
            and type(snowball) is PorterStemmer
            and snowball.mode == "NLTK_EXTENSIONS"
        )
        if porter and self._stemmer.min_char_length == 3:
            return True
        return None

    def _jieba_reading(self) -> ModuleType | None:
        """The ``jieba`` module where the core reads Chinese with its port of jieba, or ``None``.

        That is the package's ``ChineseTokenizer`` (``list(jieba.cut(text))``) with no
        stemmer (``lang="chinese"`` has none: ``use_stemmer=True`` warns and stems nothing).
        """
        if self._options is None or (
            self._stemmer is not None and self._stemmer.stemmer is not None
        ):
            return None
        inner = self._tokenizer.tokenizer
        if type(inner) is not _package("tokenizers").ChineseTokenizer:
            return None
        module: ModuleType = inner.tokenizer
        return module

    def score(self, target: str, prediction: str) -> dict[str, Any]:
        """The package's ``score(target, prediction)``: rouge type -> ``Score``.

        Example:
            >>> RougeScorer(["rouge2"]).score("a b c", "a b")["rouge2"]
            Score(precision=1.0, recall=0.5, fmeasure=0.6666666666666666)
        """
        if self._options is None:
            return dict(self._real.score(self, target, prediction))
        return self.score_batch([target], [prediction])[0]

    def score_batch(
        self, targets: Sequence[str], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """``[score(t, p) for t, p in zip(targets, predictions)]``, counted in one core call.

        Raises:
            rapidbleu.errors.LengthMismatchError: The lists differ in length.

        Example:
            >>> RougeScorer(["rouge1"]).score_batch(["a b", "c"], ["a", "d"])[1]["rouge1"]
            Score(precision=0.0, recall=0.0, fmeasure=0.0)
        """
        from rapidbleu.errors import LengthMismatchError

        if len(targets) != len(predictions):
            raise LengthMismatchError(
                f"{len(targets)} targets but {len(predictions)} predictions; give one each"
            )
        if self._options is None:
            return [dict(self._real.score(self, t, p)) for t, p in zip(targets, predictions)]
        options = self._options
        threads = 1 if len(predictions) < 64 else 0
        if all(isinstance(t, str) for t in targets) and all(
            isinstance(p, str) for p in predictions
        ):
            # The package's _score_ngrams / _score_lcs and scoring.fmeasure are rouge-score's:
            # the core makes each dict of Score as rouge-score's score does.
            rows = self.rows(options, list(targets), list(predictions), threads)
            dicts: list[dict[str, Any]] = options.score_dicts(rows, self._score_type)
            return dicts
        out: list[dict[str, Any] | None] = []
        tgts: list[str] = []
        preds: list[str] = []
        for t, p in zip(targets, predictions):
            if not (isinstance(t, str) and isinstance(p, str)):
                # bytes (which the package decodes) and the like: its own code decides.
                out.append(dict(self._real.score(self, t, p)))
                continue
            tgts.append(t)
            preds.append(p)
            out.append(None)
        rest = iter(options.score_dicts(self.rows(options, tgts, preds, threads), self._score_type))
        return [r if r is not None else next(rest) for r in out]

    def rows(
        self, options: _core.RougeOptions, targets: list[str], predictions: list[str], threads: int
    ) -> Any:
        """``options``' rows of ``(targets[i], predictions[i])``: read in the core where it can.

        Example:
            >>> s = RougeScorer(["rouge1"], lang="chinese")
            >>> s.rows(_core.RougeOptions(["rouge1"]), ["我爱北京"], ["北京"], 1).tolist()
            [[1, 1, 3]]
        """
        jieba = jieba_dict(self._jieba) if self._jieba is not None and targets else None
        if (self._porter is None and jieba is None) or not targets:
            return self._token_rows(options, targets, predictions, threads)
        try:
            rows, unread = options.xlsum_statistics(
                predictions, targets, bool(self._porter), threads, jieba
            )
        except InvalidTextError:  # a lone surrogate: the package's tokenizers read it
            return self._token_rows(options, targets, predictions, threads)
        if unread:
            rows[unread] = self._token_rows(
                options, [targets[i] for i in unread], [predictions[i] for i in unread], threads
            )
        return rows

    def _token_rows(
        self, options: _core.RougeOptions, targets: list[str], predictions: list[str], threads: int
    ) -> Any:
        """Rows of the package's own tokens (made here, in Python), counted in the core."""
        lsum = options.needs_sentences
        # With the Porter stemmer (and no language tokenizer, hence no warnings to order), the
        # package's tokens unstemmed, then stemmed all at once (_porter_stem).
        porter = self._porter is True
        stemmer = None if porter else self._stemmer
        lists: list[list[str]] = []
        preds, tgts = [], []
        for t, p in zip(targets, predictions):
            # The package's order: target tokens, prediction tokens, then (at rougeLsum) the
            # target's sentences and the prediction's.
            tt = list(self._tokenize(t, stemmer, self._tokenizer))
            pt = list(self._tokenize(p, stemmer, self._tokenizer))
            ts = [list(self._tokenize(s, stemmer)) for s in _sentences(t)] if lsum else None
            ps = [list(self._tokenize(s, stemmer)) for s in _sentences(p)] if lsum else None
            lists += [tt, pt, *(ts or []), *(ps or [])]
            preds.append((pt, ps))
            tgts.append([(tt, ts)])
        if porter:
            self._porter_stem(lists)
        return options.token_statistics(preds, tgts, threads)

    def _porter_stem(self, lists: list[list[str]]) -> None:
        """``MultiStemmer`` on every token of ``lists``, in place, as ``tokenize`` applies it.

        NLTK's Porter (the package's ``SnowballStemmer("porter")``) equals the core's on
        tokens of ASCII letters and digits, which it stems in one call; other tokens longer
        than ``min_char_length`` go through the package's stemmer.
        """
        words = {w for tokens in lists for w in tokens if len(w) > 3}
        ascii_words = [w for w in words if w.isascii() and w.isalnum()]
        stems = dict(zip(ascii_words, _core.porter_stem(ascii_words)))
        stem = self._stemmer
        for w in words.difference(stems):
            stems[w] = stem(w)
        for tokens in lists:
            # tokenize's `[stemmer(x) for x in tokens]`, then `[x for x in tokens if x]`.
            tokens[:] = [x for x in (stems.get(w, w) for w in tokens) if x]

    def tokens(self, text: str) -> list[str]:
        """The tokens rouge1..9 and rougeL score: the language's tokenizer and stemmer.

        Example:
            >>> RougeScorer(["rouge1"], lang="chinese").tokens("我爱北京")
            ['我', '爱', '北京']
        """
        return list(self._tokenize(text, self._stemmer, self._tokenizer))

    def sentence_tokens(self, text: str) -> list[list[str]]:
        r"""The tokens of each line (rougeLsum's): the stemmer, *no* language tokenizer.

        As the package's ``score``.

        Example:
            >>> RougeScorer(["rougeLsum"], lang="chinese").sentence_tokens("我爱北京\na b")
            [['我爱北京'], ['a', 'b']]
        """
        return [list(self._tokenize(s, self._stemmer)) for s in _sentences(text)]
