"""The CPU engine reads real torch tensors (it never imports torch: it reads their buffers).

These checks ran by hand (``scripts/check_torch.py``) while torch was not a test dependency;
``tests/bleu/test_ids.py`` still checks the same path with a cheap stand-in class.
"""

from __future__ import annotations

import pytest
import torch

from rapidbleu import errors
from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.io.tokens import is_pretokenized
from rapidbleu.metrics.bleu.tokens import token_statistics

HYPS = [[1, 2, 3, 4, 5], [6, 7, 8], []]
REFS = [[[1, 2, 3, 4, 6], [2, 3]], [[6, 7, 8, 9]], [[1]]]


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.uint8])
def test_tensors_equal_lists(dtype: torch.dtype) -> None:
    want, _ = token_statistics(HYPS, REFS, per_segment=True)
    hyps = [torch.tensor(h, dtype=dtype) for h in HYPS]
    refs = [[torch.tensor(r, dtype=dtype) for r in rs] for rs in REFS]
    assert (token_statistics(hyps, refs, per_segment=True)[0] == want).all()


@pytest.mark.filterwarnings("ignore::UserWarning")  # NLTK method0: no 4-gram match
def test_2d_batches_views_and_the_nltk_dialect() -> None:
    want, _ = token_statistics(HYPS, REFS, per_segment=True)
    batch = torch.zeros((3, 6), dtype=torch.int64)
    for i, h in enumerate(HYPS):
        batch[i, : len(h)] = torch.tensor(h, dtype=torch.int64)
    assert is_pretokenized(batch)
    assert (token_statistics(batch, REFS, pad_id=0, per_segment=True)[0] == want).all()
    assert (token_statistics(batch, REFS, lengths=[5, 3, 0], per_segment=True)[0] == want).all()
    # Non-contiguous views are read as their values.
    view = batch.t().contiguous().t()
    assert (token_statistics(view, REFS, pad_id=0, per_segment=True)[0] == want).all()
    got = rb_nltk.sentence_bleu_batch(REFS, batch, pad_id=0)
    assert got.tolist() == rb_nltk.sentence_bleu_batch(REFS, HYPS).tolist()


def test_float_and_gpu_tensors_are_clear_errors() -> None:
    with pytest.raises(errors.InputTypeError, match="integers"):
        token_statistics([torch.tensor([1.0])], [[[1]]], per_segment=True)
    if torch.cuda.is_available():
        with pytest.raises(errors.InputTypeError, match="CPU"):
            token_statistics([torch.tensor([1], device="cuda")], [[[1]]], per_segment=True)
