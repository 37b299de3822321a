"""NLTK's zero-count warning, as NLTK issues it: category, text, module, line and count.

A program that filters NLTK's warnings by module (``warnings.filterwarnings("ignore",
module="nltk")``) must see rapidbleu's dialect silenced too, and one that records them must see
the same records (issue 36: the warning was attributed to rapidbleu's own module).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from nltk.translate import bleu_score as nb

from rapidbleu.dialects import nltk as rb

CALLS: list[Callable[[Any], Any]] = [
    lambda m: m.sentence_bleu([[1, 2, 3, 5]], [1, 2, 3, 4]),
    lambda m: m.sentence_bleu([["a", "b"]], ["a", "c", "d"]),
    lambda m: m.corpus_bleu([[[1, 2, 3, 5]], [[7, 8]]], [[1, 2, 3, 4], [7, 9]]),
]


def records(module: Any, call: Callable[[Any], Any], *filters: tuple[str, str]) -> list[Any]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for action, where in filters:
            warnings.filterwarnings(action, module=where)  # type: ignore[arg-type]
        call(module)
    return [(w.category, str(w.message), w.filename, w.lineno) for w in caught]


@pytest.mark.parametrize("call", CALLS)
def test_the_same_records_as_nltk(call: Callable[[Any], Any]) -> None:
    theirs = records(nb, call)
    assert theirs and records(rb, call) == theirs


@pytest.mark.parametrize("where", ["nltk", r"nltk\.translate\.bleu_score"])
@pytest.mark.parametrize("call", CALLS)
def test_a_filter_on_nltks_module_silences_both(call: Callable[[Any], Any], where: str) -> None:
    assert records(nb, call, ("ignore", where)) == records(rb, call, ("ignore", where)) == []
