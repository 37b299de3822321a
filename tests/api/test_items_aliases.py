"""Field aliases of the per-item API: ``prediction``/``hypothesis``/``actual_output`` for the
candidate, ``reference``/``expected_output`` for the references (one str is one reference).

The aliases are spelled once in Python (:data:`rapidbleu.items.CANDIDATE_KEYS`,
:data:`rapidbleu.items.REFERENCE_KEYS`) and once in the Rust splitter; both are checked here.
"""

from __future__ import annotations

from typing import Any

import pytest

import rapidbleu
from rapidbleu import errors
from rapidbleu.items import CANDIDATE_KEYS, REFERENCE_KEYS

CANONICAL = [
    {"candidate": "The cat sat on the mat.", "references": ["The cat is on the mat."]},
    {"candidate": "Hello world", "references": ["Hello world", "Hi world"]},
]


@pytest.mark.parametrize("cand_key", CANDIDATE_KEYS)
@pytest.mark.parametrize("ref_key", REFERENCE_KEYS)
def test_aliases_score_like_canonical(cand_key: str, ref_key: str) -> None:
    items = [{cand_key: i["candidate"], ref_key: i["references"]} for i in CANONICAL]
    assert rapidbleu.bleu(items) == rapidbleu.bleu(CANONICAL)
    assert rapidbleu.bleu_per_item(items).tolist() == rapidbleu.bleu_per_item(CANONICAL).tolist()


def test_single_string_reference() -> None:
    items: list[Any] = [{"prediction": "a b c d", "expected_output": "a b c d"}]
    assert rapidbleu.bleu(items).score == rapidbleu.bleu([("a b c d", ["a b c d"])]).score


def test_first_key_wins() -> None:
    items = [{"candidate": "a b c d", "prediction": "x y", "references": ["a b c d"]}]
    assert rapidbleu.bleu(items).score == 1.0000000000000004


def test_missing_field_names_the_aliases() -> None:
    with pytest.raises(errors.InputError, match=r"item 0 lacks 'candidate'.*prediction"):
        rapidbleu.bleu([{"reference": "a"}])
    with pytest.raises(errors.InputError, match=r"item 0 lacks 'references'.*expected_output"):
        rapidbleu.bleu([{"prediction": "a"}])
