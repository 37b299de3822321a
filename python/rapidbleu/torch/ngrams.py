"""BLEU's statistics rows of token-ID tensors, counted in integers on their device.

The rows are the CPU engine's (:func:`rapidbleu.metrics.bleu.tokens.token_statistics`):
``[hyp_len, ref_len, correct_1..N, total_1..N]``, ``==`` for the same input.

**How n-grams are identified: no hashing, so no collision can change a count.** Every token
position of the batch (hypotheses and references, padded to one width ``W``) is a slot of one
flat array of ``T`` positions. A unigram's key is ``segment * span + (id - min id)`` when the
IDs span few values (the usual vocabulary), else ``segment * T + rank of the id`` (one extra
sort; IDs such as 2**62 or negative ones). Each order's sort gives every n-gram a dense code
(its rank among the distinct keys, ``< T``), and the key of an n-gram of order ``n`` is
``code of its first n-1 tokens * T + unigram code of its last token``: both factors are below
``T``, so keys stay below ``T**2``, and two n-grams share a key only if they are equal token
for token in the same segment. Keys are exact integers; the bound ``T**2 * (R + 1) <=
2**62`` is checked (a batch past it is split into chunks by the caller).

**How they are counted: one sort per order, of the n-gram occurrences.** Each occurrence gets
the sort key ``ngram_key * (R + 1) + source`` (source ``r`` is reference ``r``, ``R`` the
hypothesis), so in sorted order an n-gram's occurrences in each reference come in turn, then
the hypothesis's. The ``k``-th occurrence of a run (``k = index - start of its run``, the
start a ``scatter_reduce`` minimum by run) means "this source holds at least ``k + 1``", so:

- the reference maximum of an n-gram is the largest ``k + 1`` of its reference occurrences
  (a ``scatter_reduce`` maximum by the n-gram's dense code), read at its hypothesis
  occurrences;
- a hypothesis occurrence is clipped-correct iff ``k < that maximum``, and the number of such
  occurrences is ``min(hypothesis count, reference maximum)``, BLEU's clipped count;
- the flags go back to their positions (a permutation) and each hypothesis row is summed.

A position where no n-gram starts (past its row's length) takes a key above every real one,
as a hypothesis n-gram that no reference has, so it never counts. Sorts, prefix sums, minima
and maxima by index, writes through a permutation and sums: integers whose value does not
depend on the order of any parallel step, so every run gives the same ones.

**Memory and shape.** Every array has ``T`` (or ``T + 1``) entries: memory grows with the
number of token positions, never with rows x distinct n-grams, and no array's size depends on
the values (no ``unique``, no boolean indexing): the only reads of the device before the
finished ``(B, 2 + 2N)`` rows are the smallest and largest ID (to choose the unigram key), so
a count of one layout can be captured in a CUDA graph.

Example:
    >>> import torch
    >>> hyp = torch.tensor([[1, 2, 3, 9]])
    >>> ref = torch.tensor([[[1, 2, 3, 4]]])
    >>> count_rows(hyp, torch.tensor([4]), ref, torch.tensor([[4]]), 2).tolist()
    [[4, 4, 3, 2, 4, 3]]
"""

from __future__ import annotations

import torch

__all__ = ["KEY_LIMIT", "compact", "count_rows", "finish_rows", "max_positions"]

#: Sort keys ``key * (R + 1) + source`` stay at or below this (int64 holds them exactly).
KEY_LIMIT = 2**62


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


def _unigram_keys(
    tokens: torch.Tensor,
    segment: torch.Tensor,
    size: int,
    limit: int,
    id_range: tuple[int, int] | None,
) -> tuple[torch.Tensor, int]:
    """Segment-qualified unigram keys of ``(rows, W)`` tokens, and a bound above all of them.

    ``segment * span + (id - min id)`` when ``size * span`` stays within ``limit`` (the
    smallest and largest ID are read from the device unless ``id_range`` gives them), else
    ``segment * T + rank of the id``, the rank from one sort (any int64 IDs).
    """
    lo, hi = id_range if id_range is not None else (int(v) for v in torch.aminmax(tokens))
    span = hi - lo + 1
    if size * span <= limit:
        return segment[:, None] * span + (tokens - lo), size * span
    positions = tokens.numel()
    values, order = torch.sort(tokens.reshape(-1))
    rank = torch.empty_like(values).scatter_(0, order, _dense_rank(values)).view_as(tokens)
    return segment[:, None] * positions + rank, size * positions


def _clipped_counts(
    keys: torch.Tensor,
    valid: torch.Tensor,
    source: torch.Tensor,
    sources: int,
    bound: int,
    size: int,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Clipped matches per segment of one order, and the dense code of each position's n-gram.

    Args:
        keys: ``(rows, width)`` segment-qualified n-gram keys, each below ``bound``.
        valid: ``(rows, width)``: where an n-gram starts (inside its row's length).
        source: ``(rows,)`` ``r`` for a segment's reference ``r``, ``R`` for its hypothesis.
        sources: ``R + 1``.
        bound: Above every key; ``bound * sources <= KEY_LIMIT``.
        size: The number of segments ``B`` (the first ``B`` rows are the hypotheses).

    Returns:
        ``(B,)`` clipped matches and the ``(rows, width)`` dense codes (``< rows * width``;
        those of positions without an n-gram are never read).
    """
    rows, width = keys.shape
    hyp = sources - 1
    # A position without an n-gram: a hypothesis n-gram above every key, which no reference has.
    ordered, order = torch.sort(
        torch.where(valid, keys * sources + source[:, None], bound * sources + hyp).reshape(-1)
    )
    ngram = torch.div(ordered, sources, rounding_mode="floor")
    is_hyp = ordered - ngram * sources == hyp
    code = _dense_rank(ngram)
    del ngram
    index = torch.arange(ordered.numel(), device=keys.device)
    run_start = torch.ones_like(ordered, dtype=torch.bool)
    run_start[1:] = ordered[1:] != ordered[:-1]
    del ordered
    # k: how many earlier occurrences of this n-gram its source has (the index past the first
    # of its run). Runs and n-grams are found by cumsum and their firsts and maxima by
    # scatter_reduce: min and max give the same integers in any order, and CUDA runs both in
    # parallel (torch.cummax runs along a dimension in sequence on CUDA: it made a 1,024 x
    # 1,024 batch take 52 ms on an H100).
    run = run_start.cumsum(0) - 1
    del run_start
    first = torch.full_like(index, index.numel()).scatter_reduce_(0, run, index, "amin")
    k = index - first[run]
    del first, run, index
    # The reference maximum of each n-gram (the largest k + 1 of its reference occurrences),
    # read back at its hypothesis occurrences.
    ref_counts = torch.where(is_hyp, 0, k + 1)
    ref_max = torch.zeros_like(k).scatter_reduce_(0, code, ref_counts, "amax")[code]
    del ref_counts
    matched = is_hyp & (k < ref_max)
    del ref_max, k, is_hyp
    # Back to positions (order is a permutation: plain writes), then one sum per hypothesis.
    hits = torch.empty_like(matched).scatter_(0, order, matched).view(rows, width)
    per_segment = hits[:size].sum(1)
    codes = torch.empty_like(code).scatter_(0, order, code).view(rows, width)
    return per_segment, codes


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
    *,
    id_range: tuple[int, int] | None = None,
) -> torch.Tensor:
    """``(B, 2 + 2N)`` int64 statistics rows on the tensors' device.

    Args:
        hypotheses: ``(B, L)`` int64; row ``i`` is ``hypotheses[i, :lengths[i]]``.
        lengths: ``(B,)`` int64 lengths.
        references: ``(B, R, Lr)`` int64; reference ``r`` of segment ``i`` is
            ``references[i, r, :ref_lengths[i, r]]``.
        ref_lengths: ``(B, R)`` int64 lengths.
        max_order: The highest n-gram order ``N``.
        id_range: ``(smallest, largest)`` of every ID in the tensors (padding included),
            when the caller knows them: then nothing is read from the device before the rows
            are done (a CUDA graph can capture the count). An ID outside the range would break
            the keys, so only a range that is known to hold, such as ``(0, vocab_size - 1)``.

    Returns:
        Rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``; totals are ``len - n + 1``,
        never below 0 (dialects apply their own rules, e.g. NLTK's ``max(1, count)``).
    """
    size, hyp_width = hypotheses.shape
    _, num_refs, ref_width = references.shape
    device = hypotheses.device
    width = max(hyp_width, ref_width)
    pad = torch.nn.functional.pad
    # One (rows, width) table: the B hypotheses, then segment i's R references at B + i*R + r.
    tokens = torch.cat(
        [
            pad(hypotheses, (0, width - hyp_width)),
            pad(references, (0, width - ref_width)).reshape(size * num_refs, width),
        ]
    )
    row_len = torch.cat([lengths, ref_lengths.reshape(-1)])
    segments = torch.arange(size, device=device)
    # expand, not repeat_interleave: the latter reads its output size from the device.
    segment = torch.cat([segments, segments[:, None].expand(size, num_refs).reshape(-1)])
    # Sources: reference r is r, the hypothesis R (sorted after its references).
    source = torch.cat(
        [
            torch.full((size,), num_refs, dtype=torch.int64, device=device),
            torch.arange(num_refs, device=device).repeat(size),
        ]
    )
    sources = num_refs + 1
    positions = tokens.numel()
    correct = torch.zeros(size, max_order, dtype=torch.int64, device=device)
    if positions:
        keys, bound = _unigram_keys(tokens, segment, size, KEY_LIMIT // sources - 1, id_range)
        del tokens
        unigram = codes = keys  # replaced by the dense codes of order 1 below
        for n in range(1, max_order + 1):
            span = width - n + 1
            if span <= 0:
                break
            if n > 1:
                keys, bound = codes[:, :span] * positions + unigram[:, n - 1 :], positions**2
            starts = torch.arange(span, device=device)[None, :]
            correct[:, n - 1], codes = _clipped_counts(
                keys, starts + n <= row_len[:, None], source, sources, bound, size
            )
            if n == 1:
                unigram = codes
    return finish_rows(lengths, ref_lengths, correct, max_order)


def finish_rows(
    lengths: torch.Tensor, ref_lengths: torch.Tensor, correct: torch.Tensor, max_order: int
) -> torch.Tensor:
    """The rows ``[hyp_len, ref_len, correct_1..N, total_1..N]`` around counted matches.

    Totals are ``len - n + 1``, never below 0; the reference length is the closest one, ties
    to the shorter.

    Example:
        >>> finish_rows(torch.tensor([3]), torch.tensor([[2, 4]]), torch.tensor([[2, 1]]), 2)
        tensor([[3, 2, 2, 1, 3, 2]])
    """
    orders = torch.arange(max_order, device=lengths.device)
    totals = (lengths[:, None] - orders).clamp(min=0)
    ref_len = _closest_ref_len(lengths, ref_lengths)
    return torch.cat([lengths[:, None], ref_len[:, None], correct, totals], 1)
