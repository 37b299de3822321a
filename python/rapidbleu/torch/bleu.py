"""Sentence and corpus BLEU of token-ID tensors, on their device, equal to the CPU engine's.

Example:
    >>> import torch
    >>> hyps = torch.tensor([[5, 6, 7, 8, 0], [9, 10, 11, 0, 0]])
    >>> refs = torch.tensor([[[5, 6, 7, 9, 0]], [[9, 10, 11, 12, 0]]])
    >>> sentence_bleu(hyps, refs, pad_id=0)
    tensor([59.4604, 71.6531], dtype=torch.float64)
    >>> sentence_bleu(hyps, refs, pad_id=0, smoothing="method1", dialect="nltk")
    tensor([0.3976, 0.4029], dtype=torch.float64)
    >>> float(corpus_bleu(hyps, refs, pad_id=0))
    59.939541538078124
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from rapidbleu.errors import InputError, InvalidOptionError, MissingDependencyError
from rapidbleu.torch.inputs import Batch, check_batch, rows_to_int64
from rapidbleu.torch.ngrams import compact, count_rows, max_positions
from rapidbleu.torch.options import Scoring, resolve

__all__ = ["COUNTERS", "FUSED_MAX_TILE_WORK", "corpus_bleu", "sentence_bleu", "statistics"]

#: ``counter=`` values: the fused Triton kernel where it pays (``auto``), or one of the two.
COUNTERS = ("auto", "fused", "sort")

#: ``auto`` takes the fused kernel while a row's tile work ``L * (L + R * Lr)`` stays at or
#: below this (1,024 tokens against one reference): its compares grow with the square of the
#: row length, the sorts' work only with the positions. A first guess, until a GPU run of
#: ``scripts/check_gpu.py`` (which times both) places the crossing.
FUSED_MAX_TILE_WORK = 1024 * 2048

Counter = Callable[[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, int], torch.Tensor]


def _counter(counter: str, batch: Batch) -> Counter:
    """The function that counts the rows: :mod:`~rapidbleu.torch.fused` or the sorts'."""
    if counter not in COUNTERS:
        raise InvalidOptionError(f"counter must be one of {', '.join(COUNTERS)}, got {counter!r}")
    device = batch.hypotheses.device
    if counter == "auto":
        _, num_refs, ref_width = batch.references.shape
        width = int(batch.hypotheses.shape[1])
        # Only on CUDA: importing Triton costs a second, for nothing on a CPU.
        if device.type != "cuda" or width * (width + num_refs * ref_width) > FUSED_MAX_TILE_WORK:
            return count_rows
    if counter == "sort":
        return count_rows
    try:
        from rapidbleu.torch import fused
    except ImportError as e:
        if counter == "auto":
            return count_rows
        raise MissingDependencyError(
            "counter='fused' needs Triton, which PyPI's torch installs on Linux: pip install triton"
        ) from e
    if fused.runs_on(device):  # always, for ``auto``: it came here for a CUDA tensor
        return fused.fused_rows
    raise InvalidOptionError(
        f"counter='fused' runs on CUDA tensors (or under TRITON_INTERPRET=1), got {device}; "
        "use counter='sort' or 'auto'"
    )


def _chunks(batch: Batch, chunk_tokens: int | None) -> Iterator[tuple[int, int]]:
    """Row ranges of at most ``chunk_tokens`` token positions each (at least one row)."""
    if chunk_tokens is not None and (
        isinstance(chunk_tokens, bool) or not isinstance(chunk_tokens, int) or chunk_tokens < 1
    ):
        raise InvalidOptionError(
            f"chunk_tokens must be a positive integer or None, got {chunk_tokens!r}"
        )
    per_row = batch.positions_per_row
    # The exactness bound of the integer keys (rapidbleu.torch.ngrams) caps a chunk too.
    limit = max_positions(batch.num_refs)
    if per_row > limit:
        raise InputError(
            f"one segment takes {per_row} token positions, more than the {limit} one count "
            "can key exactly"
        )
    if chunk_tokens is not None:
        limit = min(limit, chunk_tokens)
    rows = batch.size if per_row == 0 else max(1, limit // per_row)
    for start in range(0, batch.size, rows):
        yield start, min(start + rows, batch.size)


def _rows(
    batch: Batch, max_order: int, chunk_tokens: int | None, counter: str = "auto"
) -> torch.Tensor:
    """The ``(B, 2 + 2N)`` statistics rows on the batch's device, chunk by chunk."""
    count = _counter(counter, batch)
    out = []
    _, num_refs, ref_width = batch.references.shape
    for start, end in _chunks(batch, chunk_tokens):
        hyp = rows_to_int64(batch.hypotheses[start:end], "hypotheses")
        ref = rows_to_int64(batch.references[start:end], "references")
        n = end - start
        if batch.pad_id is not None:
            hyp, lengths = compact(hyp, batch.pad_id)
            flat, flat_lengths = compact(ref.reshape(n * num_refs, ref_width), batch.pad_id)
            ref, ref_lengths = flat.view(n, num_refs, ref_width), flat_lengths.view(n, num_refs)
        else:
            assert batch.lengths is not None and batch.ref_lengths is not None
            lengths, ref_lengths = batch.lengths[start:end], batch.ref_lengths[start:end]
        out.append(count(hyp, lengths, ref, ref_lengths, max_order))
    return out[0] if len(out) == 1 else torch.cat(out)


def statistics(
    hypotheses: torch.Tensor,
    references: torch.Tensor,
    *,
    pad_id: int | None = None,
    lengths: Any = None,
    ref_lengths: Any = None,
    max_ngram_order: int = 4,
    chunk_tokens: int | None = None,
    counter: str = "auto",
) -> torch.Tensor:
    """BLEU's statistics rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``, on the device.

    ``==`` :func:`rapidbleu.metrics.bleu.tokens.token_statistics` of the same input
    (closest reference length, ties to the shorter; raw totals ``len - n + 1``, never below 0).

    Args:
        hypotheses: ``(B, L)`` integer tensor, on the CPU or an accelerator.
        references: ``(B, R, Lr)`` or ``(B, Lr)`` integer tensor on the same device.
        pad_id: The padding ID: every ID equal to it is dropped from every row.
        lengths: Without ``pad_id``: ``(B,)`` lengths of the hypotheses (list or tensor).
        ref_lengths: Without ``pad_id``: ``(B, R)`` (or ``(B,)``) lengths of the references.
        max_ngram_order: The highest n-gram order ``N``.
        chunk_tokens: At most this many token positions per pass (``B`` is split into
            chunks of rows; same numbers); ``None``: the whole batch in one pass.
        counter: ``auto`` (the fused Triton kernel on CUDA when Triton imports and rows are
            short enough, :data:`FUSED_MAX_TILE_WORK`; else the sorts), ``fused``
            (:mod:`rapidbleu.torch.fused`) or ``sort``
            (:mod:`rapidbleu.torch.ngrams`, any device). Same integers.

    Returns:
        ``(B, 2 + 2N)`` int64 rows on the hypotheses' device.

    Raises:
        rapidbleu.errors.InputError: See :func:`sentence_bleu`.

    Example:
        >>> statistics(torch.tensor([[1, 2, 3]]), torch.tensor([[1, 2, 4]]), lengths=[3],
        ...            ref_lengths=[3], max_ngram_order=2).tolist()
        [[3, 3, 2, 1, 3, 2]]
    """
    if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, int):
        raise InvalidOptionError(f"max_ngram_order must be an integer, got {max_ngram_order!r}")
    if max_ngram_order < 1:
        raise InvalidOptionError(f"max_ngram_order must be at least 1, got {max_ngram_order}")
    batch = check_batch(
        hypotheses, references, pad_id=pad_id, lengths=lengths, ref_lengths=ref_lengths
    )
    return _rows(batch, max_ngram_order, chunk_tokens, counter)


def _score(
    hypotheses: torch.Tensor,
    references: torch.Tensor,
    layout: dict[str, Any],
    scoring: Scoring,
    chunk_tokens: int | None,
    level: Callable[[Scoring, npt.NDArray[np.int64]], npt.NDArray[np.float64]],
    counter: str,
) -> torch.Tensor:
    batch = check_batch(hypotheses, references, **layout)
    # The rows are tiny (B x (2 + 2N) integers): they are scored on the CPU by the code that
    # scores the CPU engine's rows, so the floats are its floats, bit for bit.
    rows = np.ascontiguousarray(_rows(batch, scoring.order, chunk_tokens, counter).cpu().numpy())
    return torch.from_numpy(np.asarray(level(scoring, rows))).to(batch.hypotheses.device)


def sentence_bleu(
    hypotheses: torch.Tensor,
    references: torch.Tensor,
    *,
    pad_id: int | None = None,
    lengths: Any = None,
    ref_lengths: Any = None,
    dialect: str = "sacrebleu",
    smoothing: str | Callable[..., Any] | None = None,
    smooth_value: float | None = None,
    effective_order: bool | None = None,
    max_ngram_order: int | None = None,
    weights: Any = None,
    auto_reweigh: bool | None = None,
    chunk_tokens: int | None = None,
    counter: str = "auto",
) -> torch.Tensor:
    """The sentence BLEU of every row, ``==`` the CPU engine's (sacreBLEU's, NLTK's).

    ``dialect="sacrebleu"`` is ``sacrebleu.sentence_bleu`` of the IDs as text with
    ``tokenize="none"`` (defaults: ``exp`` smoothing, effective order; 0..100);
    ``dialect="nltk"`` is NLTK's ``sentence_bleu`` (defaults: ``method0``, weights
    ``(0.25,) * 4``; 0..1).

    Args:
        hypotheses: ``(B, L)`` integer tensor, on the CPU or an accelerator.
        references: ``(B, R, Lr)`` or ``(B, Lr)`` integer tensor on the same device.
        pad_id: The padding ID: every ID equal to it is dropped from every row (left, right
            or inner padding). No other ID is special.
        lengths: Instead of ``pad_id``: ``(B,)`` lengths of the hypotheses; then no ID is
            special.
        ref_lengths: With ``lengths``: ``(B, R)`` (or ``(B,)``) lengths of the references.
        dialect: ``sacrebleu`` or ``nltk``.
        smoothing: sacreBLEU: ``exp``, ``floor``, ``add-k`` or ``none``; NLTK: ``method0`` ..
            ``method4``, or ``SmoothingFunction(epsilon=..., k=...).methodN``.
        smooth_value: sacreBLEU: the ``floor`` / ``add-k`` value.
        effective_order: sacreBLEU: truncate at the highest order with hypothesis n-grams.
        max_ngram_order: sacreBLEU: the highest order (default 4).
        weights: NLTK: a weight vector, or a list of them (then one column each).
        auto_reweigh: NLTK's ``auto_reweigh``.
        chunk_tokens: At most this many token positions per pass on the device (the batch is
            split by rows; same numbers).
        counter: How the device counts: ``auto``, ``fused`` or ``sort`` (see
            :func:`statistics`; same numbers).

    Returns:
        float64 scores on the hypotheses' device: ``(B,)``, or ``(B, W)`` for W NLTK weight
        vectors.

    Raises:
        rapidbleu.errors.InputTypeError: Not tensors, or float/complex IDs or lengths.
        rapidbleu.errors.InputError: Wrong dimensions, references on another device, no
            ``pad_id`` or lengths, a length outside its row.
        rapidbleu.errors.InvalidOptionError: ``pad_id`` with lengths, an unknown dialect or
            option value, an option of the other dialect.
        rapidbleu.errors.LengthMismatchError: Batch sizes or length shapes that differ.
        rapidbleu.errors.EmptyInputError: An empty batch.
        rapidbleu.errors.MissingReferenceError: ``R = 0``.

    Example:
        >>> h = torch.tensor([[0, 1, 2, 3]])
        >>> r = torch.tensor([[[0, 1, 2, 3]]])
        >>> sentence_bleu(h, r, lengths=[4], ref_lengths=[[4]], dialect="nltk").tolist()
        [1.0]
    """
    scoring = resolve(
        dialect,
        sentence=True,
        smoothing=smoothing,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_ngram_order,
        weights=weights,
        auto_reweigh=auto_reweigh,
    )
    layout = {"pad_id": pad_id, "lengths": lengths, "ref_lengths": ref_lengths}
    return _score(
        hypotheses, references, layout, scoring, chunk_tokens, lambda s, r: s.sentences(r), counter
    )


def corpus_bleu(
    hypotheses: torch.Tensor,
    references: torch.Tensor,
    *,
    pad_id: int | None = None,
    lengths: Any = None,
    ref_lengths: Any = None,
    dialect: str = "sacrebleu",
    smoothing: str | Callable[..., Any] | None = None,
    smooth_value: float | None = None,
    effective_order: bool | None = None,
    max_ngram_order: int | None = None,
    weights: Any = None,
    auto_reweigh: bool | None = None,
    chunk_tokens: int | None = None,
    counter: str = "auto",
) -> torch.Tensor:
    """The corpus BLEU of the batch, ``==`` the CPU engine's (sacreBLEU's, NLTK's).

    ``dialect="sacrebleu"`` is ``sacrebleu.corpus_bleu(..., tokenize="none")`` of the IDs as
    text (defaults: ``exp`` smoothing, no effective order; 0..100); ``dialect="nltk"`` is
    NLTK's ``corpus_bleu`` (0..1). Arguments as in :func:`sentence_bleu`.

    Returns:
        A 0-d float64 tensor on the hypotheses' device (``(W,)`` for W NLTK weight vectors).

    Example:
        >>> h = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
        >>> float(corpus_bleu(h, h[:, None], lengths=[4, 3], ref_lengths=[[4], [4]]))
        86.6877899750182
    """
    scoring = resolve(
        dialect,
        sentence=False,
        smoothing=smoothing,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_ngram_order,
        weights=weights,
        auto_reweigh=auto_reweigh,
    )
    layout = {"pad_id": pad_id, "lengths": lengths, "ref_lengths": ref_lengths}
    return _score(
        hypotheses, references, layout, scoring, chunk_tokens, lambda s, r: s.corpus(r), counter
    )
