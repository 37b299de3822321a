"""rouge-score 0.1.2's ``rouge_scorer`` module shape: :class:`RougeScorer`.

The accelerator answers ``rouge_score.rouge_scorer`` with this module's names
(:mod:`rapidbleu.accelerate.targets`), so a program that builds ``RougeScorer`` gets
:class:`~rapidbleu.metrics.rouge.ROUGE` under rouge-score's name and constructor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.metrics.rouge import ROUGE
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
