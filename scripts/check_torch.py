"""Checks rapidbleu's token-ID input on real torch tensors, wherever torch is installed.

torch is too large for the test extra (its PyPI wheel pulls in over 2 GB of CUDA libraries), so
the test suite checks the torch path with a stand-in class (tests/test_ids.py: a ``torch``
module whose tensors have ``.detach().numpy()``), and never skips. Whoever has torch runs the
same checks on real tensors (CPU, and CUDA where available):

    .venv/bin/python scripts/check_torch.py

Exit status 0 when every check passes; an assertion error otherwise.
"""

from __future__ import annotations

import pytest  # only for pytest.raises
import torch

from rapidbleu import errors
from rapidbleu.compat import nltk as rb_nltk
from rapidbleu.ids import is_pretokenized, token_statistics

HYPS = [[1, 2, 3, 4, 5], [6, 7, 8], []]
REFS = [[[1, 2, 3, 4, 6], [2, 3]], [[6, 7, 8, 9]], [[1]]]


def test_tensors_equal_lists() -> None:
    want, _ = token_statistics(HYPS, REFS, per_segment=True)
    for dtype in (torch.int64, torch.int32, torch.int16, torch.uint8):
        hyps = [torch.tensor(h, dtype=dtype) for h in HYPS]
        refs = [[torch.tensor(r, dtype=dtype) for r in rs] for rs in REFS]
        assert (token_statistics(hyps, refs, per_segment=True)[0] == want).all()
    batch = torch.zeros((3, 6), dtype=torch.int64)
    for i, h in enumerate(HYPS):
        batch[i, : len(h)] = torch.tensor(h, dtype=torch.int64)
    assert is_pretokenized(batch)
    assert (token_statistics(batch, REFS, pad_id=0, per_segment=True)[0] == want).all()
    assert (token_statistics(batch, REFS, lengths=[5, 3, 0], per_segment=True)[0] == want).all()
    # requires_grad / non-contiguous views are fine (detach().numpy()).
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


def test_import_does_not_import_torch() -> None:
    import subprocess
    import sys

    code = (
        "import rapidbleu, rapidbleu.ids, rapidbleu.compat.nltk, sys; print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


if __name__ == "__main__":
    for name, f in sorted(globals().items()):
        if name.startswith("test_") and callable(f):
            f()
            print("ok", name)
