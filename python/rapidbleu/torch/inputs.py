"""Checks token-ID tensors and says where their rows end (``pad_id`` or lengths).

The rules are the CPU engine's (:func:`rapidbleu.metrics.bleu.tokens.token_statistics` on 2-D
arrays), so the same input gives the same rows on both paths:

- with ``pad_id``, every ID equal to it is dropped from every row, hypotheses and references
  alike (left, right and inner padding all work); no other ID is special;
- with ``lengths`` (and ``ref_lengths``), row ``i`` is ``row[:lengths[i]]`` and no ID is
  special (ID 0 is a token like any other);
- one of the two is required, never both: a padded batch read whole would score its padding.

A reference row that is all padding (or of length 0) is an empty reference, as on the CPU.

Example:
    >>> import torch
    >>> batch = check_batch(torch.tensor([[5, 6, 0]]), torch.tensor([[5, 6, 7]]), pad_id=0)
    >>> batch.hypotheses.shape, batch.references.shape, batch.pad_id
    (torch.Size([1, 3]), torch.Size([1, 1, 3]), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

from rapidbleu.errors import (
    EmptyInputError,
    InputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    MissingReferenceError,
)

__all__ = ["Batch", "check_batch", "rows_to_int64"]

_INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class Batch:
    """A checked batch: the tensors as given and, without ``pad_id``, their row lengths.

    Attributes:
        hypotheses: ``(B, L)`` integer (or bool) tensor.
        references: ``(B, R, Lr)`` view of the references (a ``(B, Lr)`` tensor is ``R = 1``).
        pad_id: The padding ID, or ``None`` when lengths say where rows end.
        lengths: ``(B,)`` int64 lengths of the hypotheses on their device (``None`` with
            ``pad_id``).
        ref_lengths: ``(B, R)`` int64 lengths of the references (``None`` with ``pad_id``).
    """

    hypotheses: torch.Tensor
    references: torch.Tensor
    pad_id: int | None
    lengths: torch.Tensor | None
    ref_lengths: torch.Tensor | None

    @property
    def size(self) -> int:
        """The number of segments ``B``."""
        return int(self.hypotheses.shape[0])

    @property
    def num_refs(self) -> int:
        """The number of references per segment ``R``."""
        return int(self.references.shape[1])

    @property
    def positions_per_row(self) -> int:
        """Token positions one segment takes in the count: ``(1 + R) * max(L, Lr)``."""
        _, r, lr = self.references.shape
        return (1 + r) * max(int(self.hypotheses.shape[1]), int(lr))


def _check_ids(t: Any, what: str) -> torch.Tensor:
    if not isinstance(t, torch.Tensor):
        raise InputTypeError(
            f"{what} must be a torch tensor of token IDs, not {type(t).__name__} (the CPU "
            "engine, rapidbleu.metrics.BLEU, reads lists and NumPy arrays)"
        )
    if t.dtype.is_floating_point or t.dtype.is_complex:
        raise InputTypeError(
            f"{what} is a torch tensor of dtype {t.dtype}; token IDs must be integers"
        )
    return t


def rows_to_int64(t: torch.Tensor, what: str) -> torch.Tensor:
    """``t`` as int64 on its device; a uint64 ID above ``2**63 - 1`` is an error (as on the CPU).

    Example:
        >>> rows_to_int64(torch.tensor([[1, 2]], dtype=torch.uint8), "h").dtype
        torch.int64
    """
    out = t.to(torch.int64)
    # uint64 converts by wrapping: an ID past int64 becomes negative (torch has no max of
    # uint64 tensors, so the sign of the conversion tells).
    if t.dtype == torch.uint64 and out.numel() and bool((out < 0).any()):
        raise InputError(f"{what} holds a token id larger than 2**63 - 1")
    return out


def _pad_id(pad_id: Any) -> int | None:
    if pad_id is None:
        return None
    if isinstance(pad_id, bool) or not isinstance(pad_id, int):
        raise InvalidOptionError(
            f"pad_id must be an integer token ID or None, not {type(pad_id).__name__}"
        )
    if not _INT64[0] <= pad_id <= _INT64[1]:
        raise InvalidOptionError(f"pad_id = {pad_id} is outside -2**63..2**63 - 1")
    return pad_id


def _lengths(
    lengths: Any, shape: tuple[int, ...], width: int, name: str, device: torch.device
) -> torch.Tensor:
    """``lengths`` as an int64 tensor of ``shape`` on ``device``, each in ``0..=width``."""
    if isinstance(lengths, torch.Tensor):
        if lengths.dtype.is_floating_point or lengths.dtype.is_complex:
            raise InputTypeError(f"{name} is a tensor of dtype {lengths.dtype}; expected integers")
        t = lengths.to(device=device, dtype=torch.int64)
    elif isinstance(lengths, Sequence) and not isinstance(lengths, (str, bytes)):
        try:
            t = torch.tensor(lengths, dtype=torch.int64, device=device)
        except (TypeError, ValueError, RuntimeError) as e:
            raise InputTypeError(
                f"{name} must be integers shaped {tuple(shape)} (a list or a tensor): {e}"
            ) from e
    else:
        raise InputTypeError(
            f"{name} must be a tensor or a list of integers, not {type(lengths).__name__}"
        )
    if tuple(t.shape) != shape:
        raise LengthMismatchError(
            f"{name} has shape {tuple(t.shape)}; the batch needs {tuple(shape)}"
        )
    bad = (t < 0) | (t > width)
    if t.numel() and bool(bad.any()):
        where = tuple(int(i) for i in bad.nonzero()[0])
        index = where[0] if len(where) == 1 else where
        raise InputError(
            f"{name}[{index}] = {int(t[where])} is outside 0..={width} (the row width)"
        )
    return t


def check_batch(
    hypotheses: Any,
    references: Any,
    *,
    pad_id: Any = None,
    lengths: Any = None,
    ref_lengths: Any = None,
) -> Batch:
    """Checks a batch and its layout; see the module docstring for the rules.

    Args:
        hypotheses: ``(B, L)`` integer tensor.
        references: ``(B, R, Lr)`` or ``(B, Lr)`` integer tensor on the same device.
        pad_id: The padding ID (every ID equal to it is dropped), or ``None``.
        lengths: ``(B,)`` lengths of the hypotheses (list or tensor), without ``pad_id``.
        ref_lengths: ``(B, R)`` (or ``(B,)`` for 2-D references) lengths of the references.

    Returns:
        The checked :class:`Batch`.

    Raises:
        rapidbleu.errors.InputTypeError: Not a tensor, float or complex IDs or lengths.
        rapidbleu.errors.InputError: Wrong dimensions, references on another device, a length
            outside its row, no layout given.
        rapidbleu.errors.InvalidOptionError: ``pad_id`` together with lengths, a ``pad_id``
            that is not an int64 integer.
        rapidbleu.errors.LengthMismatchError: Batch sizes or length shapes that differ.
        rapidbleu.errors.EmptyInputError: An empty batch (``B = 0``).
        rapidbleu.errors.MissingReferenceError: References with ``R = 0``.

    Example:
        >>> b = check_batch(torch.tensor([[1, 2]]), torch.tensor([[[1, 2]]]), lengths=[2],
        ...                 ref_lengths=[[1]])
        >>> b.lengths.tolist(), b.ref_lengths.tolist()
        ([2], [[1]])
    """
    hyp = _check_ids(hypotheses, "hypotheses")
    ref = _check_ids(references, "references")
    if hyp.dim() != 2:
        raise InputError(
            f"hypotheses must be a 2-D (batch, length) tensor, not {hyp.dim()}-D; one "
            "sequence is hypotheses[None]"
        )
    if ref.dim() == 2:
        ref = ref.unsqueeze(1)
    elif ref.dim() != 3:
        raise InputError(
            f"references must be (batch, refs, length) or (batch, length), not {ref.dim()}-D"
        )
    if ref.device != hyp.device:
        raise InputError(
            f"references are on {ref.device} but hypotheses on {hyp.device}; move them to "
            "one device first (references.to(hypotheses.device))"
        )
    size = int(hyp.shape[0])
    if size == 0:
        raise EmptyInputError("the batch is empty (hypotheses has 0 rows)")
    if int(ref.shape[0]) != size:
        raise LengthMismatchError(
            f"hypotheses has {size} rows but references has {int(ref.shape[0])}"
        )
    if int(ref.shape[1]) == 0:
        raise MissingReferenceError("references has 0 references per segment (R = 0)")
    pad = _pad_id(pad_id)
    if pad is not None and (lengths is not None or ref_lengths is not None):
        given = "lengths" if lengths is not None else "ref_lengths"
        raise InvalidOptionError(
            f"give pad_id or {given}, not both: with pad_id every ID equal to it is padding, "
            "with lengths no ID is special"
        )
    if pad is not None:
        return Batch(hyp, ref, pad, None, None)
    missing = [n for n, v in (("lengths", lengths), ("ref_lengths", ref_lengths)) if v is None]
    if missing:
        raise InputError(
            "nothing says where the rows end: pass pad_id=ID (every ID equal to it is "
            "dropped) or both lengths=... and ref_lengths=... (row i is row[:lengths[i]]); "
            f"missing: {', '.join(missing)}"
        )
    ref_shape = (size, int(ref.shape[1])) if references.dim() == 3 else (size,)
    lens = _lengths(lengths, (size,), int(hyp.shape[1]), "lengths", hyp.device)
    ref_lens = _lengths(ref_lengths, ref_shape, int(ref.shape[2]), "ref_lengths", hyp.device)
    return Batch(hyp, ref, None, lens, ref_lens.reshape(size, -1))
