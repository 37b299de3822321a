"""Bad input to rapidbleu.torch raises a named rapidbleu.errors exception that says what to do."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from nltk.translate import bleu_score as nb

from rapidbleu import errors
from rapidbleu.torch import corpus_bleu, sentence_bleu, statistics

H = torch.tensor([[1, 2, 3, 0]])
R = torch.tensor([[[1, 2, 3, 0]]])


@pytest.mark.parametrize(
    ("hyps", "refs", "kwargs", "error", "match"),
    [
        (
            H.float(),
            R,
            {"pad_id": 0},
            errors.InputTypeError,
            r"dtype torch\.float32; token IDs must be integers",
        ),
        (
            H,
            R.double(),
            {"pad_id": 0},
            errors.InputTypeError,
            "references is a torch tensor of dtype",
        ),
        (H.tolist(), R, {"pad_id": 0}, errors.InputTypeError, "must be a torch tensor"),
        (
            H,
            torch.cat([R, R]),
            {"pad_id": 0},
            errors.LengthMismatchError,
            "1 rows but references has 2",
        ),
        (H[:0], R[:0], {"pad_id": 0}, errors.EmptyInputError, "empty"),
        (H, R[:, :0], {"pad_id": 0}, errors.MissingReferenceError, "0 references"),
        (
            H,
            R.to("meta"),
            {"pad_id": 0},
            errors.InputError,
            "references are on meta but hypotheses on cpu",
        ),
        (H[0], R, {"pad_id": 0}, errors.InputError, "2-D"),
        (H, R[None], {"pad_id": 0}, errors.InputError, "not 4-D"),
        (H, R, {}, errors.InputError, "nothing says where the rows end"),
        (H, R, {"lengths": [3]}, errors.InputError, "missing: ref_lengths"),
        (
            H,
            R,
            {"pad_id": 0, "lengths": [3]},
            errors.InvalidOptionError,
            "pad_id or lengths, not both",
        ),
        (
            H,
            R,
            {"pad_id": 0, "ref_lengths": [[3]]},
            errors.InvalidOptionError,
            "pad_id or ref_lengths",
        ),
        (H, R, {"pad_id": 0.0}, errors.InvalidOptionError, "pad_id must be an integer"),
        (H, R, {"pad_id": True}, errors.InvalidOptionError, "pad_id must be an integer"),
        (H, R, {"pad_id": 2**63}, errors.InvalidOptionError, "outside"),
        (
            H,
            R,
            {"lengths": [5], "ref_lengths": [[3]]},
            errors.InputError,
            r"lengths\[0\] = 5 is outside 0..=4",
        ),
        (
            H,
            R,
            {"lengths": [3], "ref_lengths": [[-1]]},
            errors.InputError,
            r"ref_lengths\[\(0, 0\)\] = -1",
        ),
        (
            H,
            R,
            {"lengths": [3, 3], "ref_lengths": [[3]]},
            errors.LengthMismatchError,
            "lengths has shape",
        ),
        (H, R, {"lengths": [3], "ref_lengths": [3]}, errors.LengthMismatchError, r"needs \(1, 1\)"),
        (
            H,
            R,
            {"lengths": torch.tensor([3.0]), "ref_lengths": [[3]]},
            errors.InputTypeError,
            "float",
        ),
        (H, R, {"lengths": "3", "ref_lengths": [[3]]}, errors.InputTypeError, "not str"),
        (
            torch.tensor([[2**64 - 1]], dtype=torch.uint64),
            torch.tensor([[1]], dtype=torch.uint64),
            {"pad_id": 0},
            errors.InputError,
            r"larger than 2\*\*63 - 1",
        ),
    ],
)
def test_bad_input(hyps: Any, refs: Any, kwargs: dict[str, Any], error: type, match: str) -> None:
    for f in (sentence_bleu, corpus_bleu, statistics):
        with pytest.raises(error, match=match):
            f(hyps, refs, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dialect": "bleu"}, "unknown dialect 'bleu'; allowed: sacrebleu, nltk"),
        ({"smoothing": "method1"}, "unknown smoothing 'method1' for dialect='sacrebleu'"),
        ({"smoothing": "exp", "dialect": "nltk"}, "allowed: method0, method1"),
        ({"dialect": "nltk", "smoothing": nb.SmoothingFunction().method7}, "methods 5-7"),
        ({"dialect": "nltk", "smoothing": print}, "SmoothingFunction"),
        ({"weights": (0.5, 0.5)}, "weights is not an option of dialect='sacrebleu'"),
        ({"dialect": "nltk", "effective_order": True}, "effective_order is not an option"),
        ({"dialect": "nltk", "max_ngram_order": 2, "smooth_value": 1}, "are not options"),
        ({"dialect": "nltk", "weights": ()}, "weights must be a non-empty tuple"),
        ({"dialect": "nltk", "weights": ("a",)}, "weights must be"),
        ({"dialect": "nltk", "auto_reweigh": 1}, "auto_reweigh must be a bool"),
        ({"max_ngram_order": 0}, "max_ngram_order"),
        ({"smoothing": "floor", "smooth_value": -1}, "smooth_value"),
        ({"chunk_tokens": 0}, "chunk_tokens must be a positive integer"),
    ],
)
def test_bad_options(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(errors.InvalidOptionError, match=match):
        sentence_bleu(H, R, pad_id=0, **kwargs)


def test_errors_are_also_the_built_in_exceptions() -> None:
    with pytest.raises(TypeError):
        sentence_bleu(H.float(), R, pad_id=0)
    with pytest.raises(ValueError):
        sentence_bleu(H, R, pad_id=0, lengths=[3])
    with pytest.raises(errors.InvalidOptionError, match="max_ngram_order must be at least 1"):
        statistics(H, R, pad_id=0, max_ngram_order=0)
