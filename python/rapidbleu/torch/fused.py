"""BLEU's clipped n-gram matches in one fused Triton kernel: no sort, no sync, no hashing.

The portable counter (:mod:`rapidbleu.torch.ngrams`) sorts the n-gram occurrences of every
order: exact on any device, but some 150 small kernels, whose launches dominate a GPU batch of
RL size. This counter computes the same integers in one kernel launch (plus a few elementwise
ones for lengths), with nothing read back from the device, so a whole count can also be
captured in a CUDA graph.

**What one program computes.** A program takes one hypothesis row ``b``, a block of its
positions ``i`` and one order ``n``. For each position where an n-gram starts it counts

- ``seen``: the earlier positions ``j < i`` of the hypothesis with the same n-gram, token for
  token;
- ``best``: the largest number of occurrences of that n-gram in any one reference of row ``b``.

The occurrence at ``i`` is the ``seen + 1``-th of its n-gram, so it is clipped-correct iff
``seen < best``, and the number of correct occurrences of an n-gram is ``min(hypothesis count,
reference maximum)``: BLEU's clipped count, the CPU engine's. Equality is of the token IDs
themselves (int64 compares), so no collision is possible, and every sum is of integers, so the
result does not depend on the order in which the GPU runs the programs.

**Cost.** ``O(L * (L + R * Lr) * n)`` compares per row and order, done in ``BLOCK_I x
BLOCK_J`` tiles in registers: quadratic in the row length, which for RL rows (hundreds to a few
thousand tokens) is cheaper than 150 launches. The block sizes are untuned defaults: a GPU run
of ``scripts/check_gpu.py`` times them.

**Where it runs.** On CUDA tensors, with Triton (which PyPI's torch installs). With
``TRITON_INTERPRET=1`` in the environment before Triton is imported, Triton's interpreter runs
the same kernel on CPU tensors: that is how the tests check it on a machine without a GPU.

Example (a CUDA tensor, or CPU tensors under ``TRITON_INTERPRET=1``):
    >>> import torch
    >>> from rapidbleu.torch.fused import fused_rows
    >>> hyp = torch.tensor([[1, 2, 3, 9]])
    >>> ref = torch.tensor([[[1, 2, 3, 4]]])
    >>> fused_rows(hyp, torch.tensor([4]), ref, torch.tensor([[4]]), 2).tolist()  # doctest: +SKIP
    [[4, 4, 3, 2, 4, 3]]
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from rapidbleu.torch.ngrams import finish_rows

__all__ = ["BLOCK_I", "BLOCK_J", "fused_rows", "runs_on"]

#: Hypothesis positions per program, and positions compared per step of its loops.
BLOCK_I = 64
BLOCK_J = 64


def runs_on(device: torch.device) -> bool:
    """Whether the kernel can run on tensors of ``device``: CUDA, or anything interpreted.

    Example:
        >>> runs_on(torch.device("cuda"))
        True
    """
    return device.type == "cuda" or bool(triton.knobs.runtime.interpret)


# Triton reads the parameters' annotations itself (constexpr), so the others have none.
@triton.jit  # type: ignore[untyped-decorator]
def _matches(  # type: ignore[no-untyped-def]
    hyp_ptr,
    hyp_len_ptr,
    ref_ptr,
    ref_len_ptr,
    out_ptr,
    hyp_width,
    ref_width,
    num_refs,
    blocks,
    ORDER: tl.constexpr,
    BLOCK_I: tl.constexpr,
    BLOCK_J: tl.constexpr,
):
    """Clipped matches of one (row, block of positions, order); see the module's text."""
    row = tl.program_id(0)
    block = tl.program_id(1)
    n = tl.program_id(2) + 1
    hyp_len = tl.load(hyp_len_ptr + row).to(tl.int32)
    i = block * BLOCK_I + tl.arange(0, BLOCK_I)
    starts = i + n <= hyp_len
    hyp_row = hyp_ptr + row.to(tl.int64) * hyp_width
    # A block without an n-gram start skips every loop (their bounds drop to 0).
    live = block * BLOCK_I + n <= hyp_len
    # seen: earlier equal n-grams of the hypothesis (only j < i matter, so j stops at the
    # block's end).
    seen = tl.zeros([BLOCK_I], dtype=tl.int32)
    for j0 in range(0, tl.where(live, tl.minimum(hyp_len, block * BLOCK_I + BLOCK_I), 0), BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        same = (j[None, :] < i[:, None]) & (j + n <= hyp_len)[None, :]
        for k in range(0, n):
            a = tl.load(hyp_row + i + k, mask=i + k < hyp_width, other=0)
            c = tl.load(hyp_row + j + k, mask=j + k < hyp_width, other=0)
            same = same & (a[:, None] == c[None, :])
        seen += tl.sum(same.to(tl.int32), axis=1)
    # best: the most occurrences in one reference.
    best = tl.zeros([BLOCK_I], dtype=tl.int32)
    for r in range(0, num_refs):
        ref_len = tl.load(ref_len_ptr + row * num_refs + r).to(tl.int32)
        ref_row = ref_ptr + (row.to(tl.int64) * num_refs + r) * ref_width
        have = tl.zeros([BLOCK_I], dtype=tl.int32)
        for j0 in range(0, tl.where(live, ref_len, 0), BLOCK_J):
            j = j0 + tl.arange(0, BLOCK_J)
            same = starts[:, None] & (j + n <= ref_len)[None, :]
            for k in range(0, n):
                a = tl.load(hyp_row + i + k, mask=i + k < hyp_width, other=0)
                c = tl.load(ref_row + j + k, mask=j + k < ref_width, other=0)
                same = same & (a[:, None] == c[None, :])
            have += tl.sum(same.to(tl.int32), axis=1)
        best = tl.maximum(best, have)
    hits = tl.sum((starts & (seen < best)).to(tl.int32), axis=0)
    tl.store(out_ptr + (row * blocks + block) * ORDER + n - 1, hits)


def fused_rows(
    hypotheses: torch.Tensor,
    lengths: torch.Tensor,
    references: torch.Tensor,
    ref_lengths: torch.Tensor,
    max_order: int,
) -> torch.Tensor:
    """``(B, 2 + 2N)`` int64 statistics rows, ``==`` :func:`~rapidbleu.torch.ngrams.count_rows`.

    Args:
        hypotheses: ``(B, L)`` int64; row ``i`` is ``hypotheses[i, :lengths[i]]``.
        lengths: ``(B,)`` int64 lengths.
        references: ``(B, R, Lr)`` int64; reference ``r`` of segment ``i`` is
            ``references[i, r, :ref_lengths[i, r]]``.
        ref_lengths: ``(B, R)`` int64 lengths.
        max_order: The highest n-gram order ``N``.

    Returns:
        Rows ``[hyp_len, ref_len, correct_1..N, total_1..N]`` on the tensors' device.
    """
    size, hyp_width = hypotheses.shape
    _, num_refs, ref_width = references.shape
    blocks = max(1, triton.cdiv(hyp_width, BLOCK_I))
    # One partial count per program, summed after: integers, so the same in any order.
    partial = torch.zeros(size, blocks, max_order, dtype=torch.int32, device=hypotheses.device)
    if size and hyp_width and num_refs:
        _matches[(size, blocks, max_order)](
            hypotheses.contiguous(),
            lengths.contiguous(),
            references.contiguous(),
            ref_lengths.contiguous(),
            partial,
            hyp_width,
            ref_width,
            num_refs,
            blocks,
            ORDER=max_order,
            BLOCK_I=BLOCK_I,
            BLOCK_J=BLOCK_J,
        )
    return finish_rows(lengths, ref_lengths, partial.sum(1), max_order)
