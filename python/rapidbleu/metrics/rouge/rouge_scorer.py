"""rouge-score 0.1.2's ``rouge_scorer`` module shape: :class:`RougeScorer`.

The accelerator answers ``rouge_score.rouge_scorer`` with this module's names
(:mod:`rapidbleu.accelerate.targets`), so a program that builds ``RougeScorer`` gets
:class:`~rapidbleu.metrics.rouge.ROUGE` under rouge-score's name and constructor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.metrics.rouge import ROUGE
from rapidbleu.metrics.rouge.metric import TokenizerOutputError
from rapidbleu.metrics.rouge.packages import real_module
from rapidbleu.metrics.rouge.scoring import BaseScorer

__all__ = ["RougeScorer"]


class RougeScorer(ROUGE, BaseScorer):
    """rouge-score's ``RougeScorer``: :class:`~rapidbleu.metrics.rouge.ROUGE` with its constructor.

    Args:
        rouge_types: Any of ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``.
        use_stemmer: Porter-stem tokens longer than three letters.
        split_summaries: rougeLsum sentences by ``nltk.sent_tokenize``.
        tokenizer: An object with ``.tokenize(text)`` instead of the default tokenizer.

    Example:
        >>> RougeScorer(["rouge1"]).score("a b", "a")["rouge1"]
        Score(precision=1.0, recall=0.5, fmeasure=0.6666666666666666)
    """

    def __init__(
        self,
        rouge_types: Sequence[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
    ) -> None:
        super().__init__(rouge_types, use_stemmer, split_summaries, tokenizer)

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Any]:
        """rouge-score's ``score_multi`` (a user tokenizer's odd output: rouge-score's own).

        Example:
            >>> RougeScorer(["rouge1"]).score_multi(["x y", "a b"], "a b")["rouge1"].recall
            1.0
        """
        try:
            return super().score_multi(targets, prediction)
        except TokenizerOutputError:
            return self._rouge_score().score_multi(targets, prediction)  # type: ignore[no-any-return]

    def _score_general(self, target: str, prediction: str) -> dict[str, Any]:
        """``score``'s general path (a user tokenizer's odd output: rouge-score's own)."""
        try:
            return super()._score_general(target, prediction)
        except TokenizerOutputError:
            return self._rouge_score().score(target, prediction)  # type: ignore[no-any-return]

    def _rouge_score(self) -> Any:
        """rouge-score's own scorer with this one's settings (its module, never the mode's).

        Raises:
            TokenizerOutputError: rouge-score is not installed (the call cannot be answered).
        """
        try:
            real = real_module("rouge_score.rouge_scorer")
        except ImportError:
            raise TokenizerOutputError(
                "the tokenizer's output is not a list or tuple of hashable tokens, which "
                "rapidbleu counts; rouge-score, which takes it, is not installed: "
                "pip install rouge-score==0.1.2"
            ) from None
        return real.RougeScorer(
            list(self.rouge_types), self.use_stemmer, self.split_summaries, self.tokenizer
        )

    # rouge-score's private attributes, which programs read (and set): the same meaning here.
    @property
    def _split_summaries(self) -> bool:
        """rouge-score's ``_split_summaries``: :attr:`split_summaries` (set it, it takes effect)."""
        return self.split_summaries

    @_split_summaries.setter
    def _split_summaries(self, value: bool) -> None:
        self.split_summaries = value

    @property
    def _tokenizer(self) -> Any:
        """rouge-score's ``_tokenizer``: the user tokenizer, else its ``DefaultTokenizer``.

        rouge-score's own ``DefaultTokenizer`` (made once, when first read) where rouge-score is
        installed, else an object whose ``tokenize`` is this scorer's. Set, it takes effect.

        Example:
            >>> RougeScorer(["rouge1"])._tokenizer.tokenize("Hello, World!")
            ['hello', 'world']
        """
        if self.tokenizer is not None:
            return self.tokenizer
        made = self.__dict__.get("_default_tokenizer")
        if made is None or made[0] != self.use_stemmer:
            made = self.__dict__["_default_tokenizer"] = (self.use_stemmer, _default(self))
        return made[1]

    @_tokenizer.setter
    def _tokenizer(self, value: Any) -> None:
        self.tokenizer = value if value else None


class _OwnTokenizer:
    """rouge-score's ``DefaultTokenizer`` shape, where rouge-score is not installed."""

    def __init__(self, scorer: RougeScorer) -> None:
        self._scorer = scorer

    def tokenize(self, text: str) -> list[Any]:
        """The scorer's default tokens of ``text``."""
        return self._scorer.tokenize(text)


def _default(scorer: RougeScorer) -> Any:
    try:
        from rouge_score import tokenizers  # type: ignore[import-untyped]
    except ImportError:
        return _OwnTokenizer(scorer)
    return tokenizers.DefaultTokenizer(scorer.use_stemmer)
