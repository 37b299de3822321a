"""XL-Sum's multilingual ROUGE on the Metric template (``-m rouge --rouge-dialect xlsum``).

:class:`XLSumROUGE` is :class:`~rapidbleu.metrics.rouge.ROUGE` whose tokens are
``multilingual-rouge`` 0.0.1's (:class:`rapidbleu.metrics.rouge.xlsum.RougeScorer`): the
language's tokenizer and stemmer for rouge1..9 and rougeL, and for rougeLsum the lines through
the stemmer without the language tokenizer, as the package's ``score``. Its rows, corpus score
(the mean of the items' scores, added in item order), sentence scores, bootstrap and Ray paths
are ROUGE's. With one reference per hypothesis an item's scores are the package's
``RougeScorer(types, lang=..., use_stemmer=...).score(reference, hypothesis)``; with several
(which the package does not take), each type takes the reference with the best F-measure, as
rouge-score's ``score_multi``. Needs ``multilingual-rouge`` installed: the core reads the
texts it can as the package's tokenizers do (see :mod:`rapidbleu.metrics.rouge.xlsum`), and
the package's tokenizers read the others in Python.

Example:
    >>> m = XLSumROUGE(["rouge1"], lang="chinese")
    >>> m.corpus_score(["我爱北京"], [["我爱北京天安门"]]).scores["rouge1"].recall
    0.75
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.metrics.layout import Rows
from rapidbleu.metrics.rouge.metric import DEFAULT_TYPES, ROUGE
from rapidbleu.metrics.rouge.score import ROUGESignature
from rapidbleu.metrics.rouge.xlsum import RougeScorer

__all__ = ["XLSumROUGE"]


class XLSumROUGE(ROUGE):
    """ROUGE with XL-Sum's tokens for a language (``multilingual-rouge``'s ``RougeScorer``).

    Args:
        rouge_types: ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``.
        lang: The package's language (``"chinese"``, ``"thai"``, ``"hindi"``, ...; ``None``: its
            default tokenizer and the Porter stemmer).
        use_stemmer: The language's stemmer on tokens longer than three characters.
        references: Reference streams to keep for calls that pass ``references=None``.
        num_threads: Threads for the Rust core.

    Raises:
        rapidbleu.errors.MissingDependencyError: ``multilingual-rouge`` is not installed.

    Example:
        >>> XLSumROUGE(["rouge1"], lang="thai").tokenize("สวัสดีครับ")
        ['สวัสดี', 'ครับ']
    """

    def __init__(
        self,
        rouge_types: Sequence[str] = DEFAULT_TYPES,
        lang: str | None = None,
        use_stemmer: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        num_threads: int | None = None,
    ) -> None:
        self.lang = lang
        # Built before ROUGE's constructor, which may count cached references.
        self._scorer = RougeScorer(["rouge1"], lang=lang, use_stemmer=use_stemmer)
        super().__init__(
            rouge_types, use_stemmer=use_stemmer, references=references, num_threads=num_threads
        )

    def __getstate__(self) -> dict[str, Any]:
        # The package's tokenizer objects (pyonmttok, jieba) are rebuilt where unpickled.
        state = dict(self.__dict__)
        del state["_scorer"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._scorer = RougeScorer(["rouge1"], lang=self.lang, use_stemmer=self.use_stemmer)

    _text_in_core = False  # the package's tokenizers run in Python

    def tokenize(self, text: str) -> list[Any]:
        """The package's tokens for rouge1..9 and rougeL.

        Example:
            >>> XLSumROUGE(use_stemmer=True).tokenize("Cats running")
            ['cat', 'run']
        """
        return self._scorer.tokens(text)

    def _rows(self, predictions: list[Any], targets: list[list[Any]]) -> Rows:
        firsts = [ts[0] for ts in targets if len(ts) == 1]
        if len(firsts) == len(predictions) and all(
            isinstance(t, str) for t in [*firsts, *predictions]
        ):
            # One target each, as the package's score: read in the core where it can.
            rows: Rows = self._scorer.rows(self._options, firsts, predictions, self.num_threads)
            return rows
        lsum = self._options.needs_sentences

        def doc(text: str) -> tuple[list[str], list[list[str]] | None]:
            return (
                self._scorer.tokens(text),
                self._scorer.sentence_tokens(text) if lsum else None,
            )

        return self._options.token_statistics(
            [doc(p) for p in predictions],
            [[doc(t) for t in ts] for ts in targets],
            self.num_threads,
        )

    def get_signature(self) -> ROUGESignature:
        """ROUGE's signature, its tokenizer ``xlsum-<lang>``.

        Example:
            >>> m = XLSumROUGE(["rouge1"], lang="thai")
            >>> _ = m.corpus_score(["a"], [["a"]])
            >>> m.get_signature().format(short=True).split("|v:")[0]
            '#:1|t:rouge1|stem:no|split:no|tok:xlsum-thai'
        """
        signature = super().get_signature()
        signature.info["tok"] = f"xlsum-{self.lang or 'default'}"
        return signature


def from_options(dialect: str, lang: str | None, options: dict[str, Any]) -> XLSumROUGE:
    """The command's ``--rouge-dialect xlsum`` / ``--rouge-lang LANG``, its other options checked.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``--rouge-lang`` with another dialect, or an
            option XL-Sum's scorer does not take (``--rouge-tokenizer``,
            ``--rouge-split-summaries``).

    Example:
        >>> from_options("rouge-score", "thai", {"rouge_types": ["rouge1"]}).lang
        'thai'
    """
    from rapidbleu.errors import InvalidOptionError

    if dialect not in ("rouge-score", "xlsum"):
        raise InvalidOptionError(
            f"--rouge-lang is XL-Sum's language; it needs --rouge-dialect xlsum, not {dialect}"
        )
    for key, flag in (
        ("tokenizer", "--rouge-tokenizer"),
        ("split_summaries", "--rouge-split-summaries"),
    ):
        if options.get(key):
            raise InvalidOptionError(
                f"{flag} does not apply to --rouge-dialect xlsum (XL-Sum tokenizes per language "
                "and splits rougeLsum at newlines)"
            )
    return XLSumROUGE(
        options.get("rouge_types", DEFAULT_TYPES),
        lang=lang,
        use_stemmer=bool(options.get("use_stemmer", False)),
    )
