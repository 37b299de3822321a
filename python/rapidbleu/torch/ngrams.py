"""BLEU's statistics rows of token-ID tensors, counted in integers on their device.

The rows are the CPU engine's (:func:`rapidbleu.ids.token_statistics`):
``[hyp_len, ref_len, correct_1..N, total_1..N]``, ``==`` for the same input.

**How n-grams are identified: no hashing, so no collision can change a count.** Every token
position of the batch (hypotheses and references, padded to one width ``W``) is a slot of one
flat array of ``T`` positions. Token values get dense codes (their rank among the distinct
values, < ``T``) from one sort. An n-gram starting at a position gets a code too: for order 1
the key ``segment * T + token code``; for order ``n`` the key ``(n-1)-gram code * T + code of
its last token``, then its dense rank from one sort. Both factors are below ``T``, so a key is
below ``T**2`` and two n-grams share a key only if they are equal token for token and in the
same segment. Keys are exact integers; the bound ``T**2 * (R + 1) <= 2**62`` is checked (a
batch past it is split into chunks by the caller).

**How they are counted: one sort per order, of the n-gram occurrences.** Each occurrence gets
the sort key ``ngram_key * (R + 1) + source`` (source 0 is the hypothesis, ``1 + r`` its
reference ``r``), so in sorted order an n-gram's hypothesis occurrences come first, then each
reference's in turn. The ``k``-th occurrence of a run (``k = index - start of its run``, the
start from a running maximum) means "this source holds at least ``k + 1`` of them", so:

- the reference maximum of an n-gram is ``max(k + 1)`` over its reference occurrences
  (``scatter_reduce`` with ``amax`` into its dense code);
- a hypothesis occurrence is clipped-correct iff ``k < that maximum``, and the number of such
  occurrences is ``min(hypothesis count, reference maximum)``, BLEU's clipped count;
- the clipped counts of a segment are summed with ``index_add_`` in int64.

**Memory and shape.** Every array has ``T`` (or ``T + 1``) entries: memory grows with the
number of token positions, never with rows x distinct n-grams, and no array's size depends on
the values (no ``unique``, no boolean indexing), so nothing waits for the device until the
finished ``(B, 2 + 2N)`` rows are read, and the whole count can be captured in a CUDA graph.

Example:
    >>> import torch
    >>> hyp = torch.tensor([[1, 2, 3, 9]])
    >>> ref = torch.tensor([[[1, 2, 3, 4]]])
    >>> count_rows(hyp, torch.tensor([4]), ref, torch.tensor([[4]]), 2).tolist()
    [[4, 4, 3, 2, 4, 3]]
"""

from __future__ import annotations

import torch

__all__ = ["KEY_LIMIT", "compact", "count_rows", "max_positions"]

#: Sort keys stay at or below this, so the sentinel of an absent n-gram (int64's maximum)
#: sorts after every real key and never shares its quotient by ``R + 1``.
KEY_LIMIT = 2**62
_SENTINEL = 2**63 - 1


def max_positions(num_refs: int) -> int:
    """The most token positions ``T`` one count may hold: ``T**2 * (R + 1) <= 2**62``.

    Example:
        >>> max_positions(1)
        1518500249
    """
    t = int((KEY_LIMIT // (num_refs + 1)) ** 0.5)
    while t * t * (num_refs + 1) > KEY_LIMIT:
        t -= 1
    return t


def compact(rows: torch.Tensor, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Drops every ``pad_id`` from each row: ``(rows with their tokens first, lengths)``.

    The CPU engine drops the ID wherever it is (left, right or inner padding), so an n-gram
    may span a dropped position. Here the kept tokens of a row move to its front in order
    (a stable partition by one scatter), and the row's length says where they end.

    Example:
        >>> compact(torch.tensor([[0, 5, 0, 6]]), 0)
        (tensor([[5, 6, 0, 0]]), tensor([2]))
    """
    keep = rows != pad_id
    lengths = keep.sum(1)
    kept_before = keep.cumsum(1)
    dropped_before = torch.arange(1, rows.shape[1] + 1, device=rows.device) - kept_before
    dest = torch.where(keep, kept_before - 1, lengths[:, None] + dropped_before - 1)
    return torch.empty_like(rows).scatter_(1, dest, rows), lengths


def _dense_rank(sorted_keys: torch.Tensor) -> torch.Tensor:
    """The rank of each sorted key among the distinct keys (0, 0, 1, 2, 2, ...)."""
    new = torch.ones_like(sorted_keys, dtype=torch.bool)
    new[1:] = sorted_keys[1:] != sorted_keys[:-1]
    return new.cumsum(0) - 1


def _token_codes(tokens: torch.Tensor) -> torch.Tensor:
    """Dense codes of the token values (``< T``), any int64 value (IDs 0, 2**62, negative)."""
    flat = tokens.reshape(-1)
    values, order = torch.sort(flat)
    return torch.empty_like(flat).scatter_(0, order, _dense_rank(values)).view_as(tokens)


def _clipped_counts(
    keys: torch.Tensor,
    valid: torch.Tensor,
    source: torch.Tensor,
    segment: torch.Tensor,
    num_sources: int,
    size: int,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Clipped matches per segment of one order, and the dense code of each position's n-gram.

    Args:
        keys: ``(rows, width)`` n-gram keys (segment-qualified, ``< T**2``).
        valid: ``(rows, width)``: where an n-gram starts (inside its row's length).
        source: ``(rows,)`` 0 for a hypothesis row, ``1 + r`` for its reference ``r``.
        segment: ``(rows,)`` the segment of each row.
        num_sources: ``R + 1``.
        size: The number of segments ``B``.
    """
    rows, width = keys.shape
    device = keys.device
    s = num_sources
    sort_keys = torch.where(valid, keys * s + source[:, None], _SENTINEL).reshape(-1)
    ordered, order = torch.sort(sort_keys)
    ngram = torch.div(ordered, s, rounding_mode="floor")
    code = _dense_rank(ngram)
    index = torch.arange(ordered.numel(), device=device)
    run_start = torch.ones_like(ordered, dtype=torch.bool)
    run_start[1:] = ordered[1:] != ordered[:-1]
    # k: how many earlier occurrences of the same n-gram the same source has.
    k = index - torch.cummax(torch.where(run_start, index, 0), 0).values
    present = ordered != _SENTINEL
    src = ordered - ngram * s
    is_ref = present & (src > 0)
    spare = ordered.numel()  # where the other occurrences' maxima go, unread
    ref_max = torch.zeros(spare + 1, dtype=torch.int64, device=device)
    ref_max.scatter_reduce_(
        0, torch.where(is_ref, code, spare), torch.where(is_ref, k + 1, 0), "amax"
    )
    matched = (present & (src == 0) & (k < ref_max[code])).to(torch.int64)
    seg = segment.repeat_interleave(width)[order]
    correct = torch.zeros(size, dtype=torch.int64, device=device).index_add_(0, seg, matched)
    codes = torch.empty_like(code).scatter_(0, order, code).view(rows, width)
    return correct, codes


def _closest_ref_len(hyp_len: torch.Tensor, ref_len: torch.Tensor) -> torch.Tensor:
    """The reference length closest to the hypothesis length, ties to the shorter.

    sacreBLEU's ``BLEU._get_closest_ref_len`` and NLTK's ``closest_ref_length`` agree on it.
    """
    diff = (ref_len - hyp_len[:, None]).abs()
    best = diff.min(1, keepdim=True).values
    return torch.where(diff == best, ref_len, torch.iinfo(torch.int64).max).min(1).values


def count_rows(
    hypotheses: torch.Tensor,
    lengths: torch.Tensor,
    references: torch.Tensor,
    ref_lengths: torch.Tensor,
    max_order: int,
) -> torch.Tensor:
    """``(B, 2 + 2N)`` int64 statistics rows on the tensors' device.

    Args:
        hypotheses: ``(B, L)`` int64; row ``i`` is ``hypotheses[i, :lengths[i]]``.
        lengths: ``(B,)`` int64 lengths.
        references: ``(B, R, Lr)`` int64; reference ``r`` of segment ``i`` is
            ``references[i, r, :ref_lengths[i, r]]``.
        ref_lengths: ``(B, R)`` int64 lengths.
        max_order: The highest n-gram order ``N``.

    Returns:
        Rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``; totals are ``len - n + 1``,
        never below 0 (dialects apply their own rules, e.g. NLTK's ``max(1, count)``).
    """
    size, hyp_width = hypotheses.shape
    _, num_refs, ref_width = references.shape
    device = hypotheses.device
    width = max(hyp_width, ref_width)
    # One (rows, width) table: the B hypotheses, then segment i's R references at B + i*R + r.
    tokens = torch.cat(
        [
            torch.nn.functional.pad(hypotheses, (0, width - hyp_width)),
            torch.nn.functional.pad(references, (0, width - ref_width)).reshape(
                size * num_refs, width
            ),
        ]
    )
    row_len = torch.cat([lengths, ref_lengths.reshape(-1)])
    segments = torch.arange(size, device=device)
    segment = torch.cat([segments, segments.repeat_interleave(num_refs)])
    source = torch.cat(
        [
            torch.zeros(size, dtype=torch.int64, device=device),
            torch.arange(1, num_refs + 1, device=device).repeat(size),
        ]
    )
    positions = tokens.numel()
    token_code = _token_codes(tokens)
    correct = torch.zeros(size, max_order, dtype=torch.int64, device=device)
    codes = segment[:, None] * positions + token_code  # order 1: (segment, token)
    for n in range(1, max_order + 1):
        span = width - n + 1
        if span <= 0:
            break
        if n > 1:
            codes = codes[:, :span] * positions + token_code[:, n - 1 :]
        starts = torch.arange(span, device=device)[None, :]
        valid = starts + n <= row_len[:, None]
        correct[:, n - 1], codes = _clipped_counts(
            codes, valid, source, segment, num_refs + 1, size
        )
    orders = torch.arange(max_order, device=device)
    totals = (lengths[:, None] - orders).clamp(min=0)
    ref_len = _closest_ref_len(lengths, ref_lengths)
    return torch.cat([lengths[:, None], ref_len[:, None], correct, totals], 1)
