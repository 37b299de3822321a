"""Matched n-grams: which word n-grams each system gets right, and where two systems differ.

A hypothesis n-gram is *matched* as BLEU matches it: its count in the segment, clipped by its
largest count in any one reference of that segment (sacreBLEU's ``BLEU._compute_segment_
statistics``). Summed over the corpus, per n-gram, this gives compare-mt's n-gram difference
analysis: the n-grams one system matches more often than another, ranked by compare-mt's
smoothed ratio ``(a + 1) / (a + b + 2)``.

Counting is vectorised with NumPy (16 systems x 3,000 segments x 4 orders in well under a
second): words become integer IDs, each order's n-grams get IDs from the (n-1)-gram ID and the
next word, and counts per (segment, n-gram) are sorted keys. :func:`matched_positions` does the
same for one segment in plain Python, for highlighting.

Example:
    >>> table = NgramTable(
    ...     [[["a", "b", "c"]], [["a", "x", "c"]]],   # two systems, one segment each
    ...     [[["a", "b", "c"]]],                      # one reference stream
    ...     max_order=2)
    >>> [(d.ngram, d.counts) for d in table.differences(0, 1, k=3)]
    [('b', (1, 0)), ('a b', (1, 0)), ('b c', (1, 0))]
    >>> table.differences(1, 0)
    []
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import numpy.typing as npt

__all__ = ["NgramDifference", "NgramTable", "matched_positions", "reference_ngrams"]

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class NgramDifference:
    """One row of the difference table.

    Attributes:
        ngram: The words, joined by a space.
        order: n.
        counts: Matched counts ``(first system, second system)`` over the corpus.
        ratio: compare-mt's ``(a + 1) / (a + b + 2)``.
    """

    ngram: str
    order: int
    counts: tuple[int, int]
    ratio: float


class _Flat:
    """Every corpus (reference streams, then systems) as one array of word IDs."""

    def __init__(self, corpora: Sequence[Sequence[Sequence[str]]]) -> None:
        lines = [words for corpus in corpora for words in corpus]
        every = list(chain.from_iterable(lines))
        # IDs in order of first appearance; map() with the dict's own lookup keeps the loop
        # in C (a Python loop over a million words costs a second).
        self.vocab: dict[str, int] = {w: i for i, w in enumerate(dict.fromkeys(every))}
        self.words = np.fromiter(map(self.vocab.__getitem__, every), np.int64, len(every))
        self.n_segments = len(corpora[0]) if corpora else 0
        lens = np.fromiter(map(len, lines), np.int64, len(lines))
        #: Global segment number (corpus * n_segments + segment) of every position.
        self.segment = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
        self.end = np.repeat(np.cumsum(lens), lens)
        self.names = list(self.vocab)


class NgramTable:
    """Matched n-gram counts of several systems against the same references.

    Args:
        systems: Per system, the words of each segment.
        references: Per reference stream, the words of each segment (``[]``: missing).
        max_order: Longest n-gram (compare-mt and BLEU: 4).
    """

    def __init__(
        self,
        systems: Sequence[Sequence[Sequence[str]]],
        references: Sequence[Sequence[Sequence[str]]],
        max_order: int = 4,
    ) -> None:
        self.n_systems = len(systems)
        self.max_order = max_order
        flat = _Flat([*references, *systems])
        self._names = flat.names
        n_seg = flat.n_segments
        vocab = max(len(flat.names), 1)
        corpus = flat.segment // max(n_seg, 1)
        n_refs = len(references)
        #: Per order: ``(prefix ID, last word)`` of each n-gram ID, to spell it back.
        self._parts: list[tuple[I64, I64]] = []
        #: Per order, per system: (sorted n-gram IDs, matched count) with count > 0.
        self._matched: list[list[tuple[I64, I64]]] = []
        prev = flat.words.copy()  # order-1 IDs are word IDs
        n_pos = len(flat.words)
        pos = np.arange(n_pos, dtype=np.int64)
        for n in range(1, max_order + 1):
            if n == 1:
                gid = prev
                n_ids = vocab
                self._parts.append((np.full(vocab, -1, dtype=np.int64), np.arange(vocab)))
            else:
                fits = (pos + n <= flat.end) & (prev >= 0)
                nxt = np.where(fits, flat.words[np.minimum(pos + n - 1, n_pos - 1)], 0)
                pair = np.where(fits, prev * vocab + nxt, -1)
                uniq, inverse = np.unique(pair[fits], return_inverse=True)
                gid = np.full(n_pos, -1, dtype=np.int64)
                gid[fits] = inverse
                n_ids = len(uniq)
                self._parts.append((uniq // vocab, uniq % vocab))
            self._matched.append(
                self._count(gid, flat.segment % max(n_seg, 1), corpus, n_refs, n_ids)
            )
            prev = gid

    def _count(
        self, gid: I64, seg: I64, corpus: I64, n_refs: int, n_ids: int
    ) -> list[tuple[I64, I64]]:
        """Per system, the clipped matched count of each n-gram ID over the corpus."""
        present = gid >= 0
        key = seg * max(n_ids, 1) + gid  # (segment, n-gram) as one sortable int64
        # The largest count of each (segment, n-gram) in any one reference stream.
        ref_keys: list[I64] = []
        ref_counts: list[I64] = []
        for r in range(n_refs):
            k, c = np.unique(key[present & (corpus == r)], return_counts=True)
            ref_keys.append(k)
            ref_counts.append(c)
        if ref_keys:
            allk = np.concatenate(ref_keys)
            allc = np.concatenate(ref_counts)
            order = np.lexsort((-allc, allk))
            allk, allc = allk[order], allc[order]
            first = np.r_[True, allk[1:] != allk[:-1]] if len(allk) else np.zeros(0, bool)
            rk, rc = allk[first], allc[first]
        else:
            rk = rc = np.zeros(0, dtype=np.int64)
        out = []
        for s in range(self.n_systems):
            k, c = np.unique(key[present & (corpus == n_refs + s)], return_counts=True)
            if len(rk) == 0:  # no reference n-grams: nothing matches
                k = c = np.zeros(0, dtype=np.int64)
            at = np.minimum(np.searchsorted(rk, k), max(len(rk) - 1, 0))
            found = rk[at] == k
            matched = np.minimum(c[found], rc[at][found])
            grams = k[found] % max(n_ids, 1)
            ids, inv = np.unique(grams, return_inverse=True)
            out.append(
                (ids, np.bincount(inv, weights=matched, minlength=len(ids)).astype(np.int64))
            )
        return out

    def _spell(self, order: int, gid: int) -> str:
        words = []
        for n in range(order, 0, -1):
            prefix, last = self._parts[n - 1]
            words.append(self._names[int(last[gid])])
            gid = int(prefix[gid])
        return " ".join(reversed(words))

    def matched(self, system: int, order: int) -> dict[str, int]:
        """Matched counts of one system's n-grams of one order (for tests and small data)."""
        ids, counts = self._matched[order - 1][system]
        return {self._spell(order, int(g)): int(c) for g, c in zip(ids, counts)}

    def differences(self, a: int, b: int, k: int = 25) -> list[NgramDifference]:
        """The ``k`` n-grams system ``a`` matches most often more than system ``b``.

        Ranked as compare-mt ranks them: by ``(count_a + 1) / (count_a + count_b + 2)``,
        highest first, then by ``count_a``, then by order and spelling (so ties are stable).

        Args:
            a: The system that matches more.
            b: The system compared with.
            k: How many rows.

        Returns:
            Up to ``k`` rows (only n-grams ``a`` matches more often than ``b``).
        """
        rows: list[tuple[float, int, int, int, int]] = []
        for order in range(1, self.max_order + 1):
            ids_a, ca = self._matched[order - 1][a]
            ids_b, cb = self._matched[order - 1][b]
            ids = np.union1d(ids_a, ids_b)
            va = np.zeros(len(ids), dtype=np.int64)
            vb = np.zeros(len(ids), dtype=np.int64)
            va[np.searchsorted(ids, ids_a)] = ca
            vb[np.searchsorted(ids, ids_b)] = cb
            more = va > vb
            ratio = (va[more] + 1) / (va[more] + vb[more] + 2)
            # Only the best k of each order can reach the overall top k.
            top = np.lexsort((-va[more], -ratio))[:k]
            for t in top:
                rows.append(
                    (float(ratio[t]), int(va[more][t]), int(vb[more][t]), order, int(ids[more][t]))
                )
        spelled = [(r, self._spell(r[3], r[4])) for r in rows]
        spelled.sort(key=lambda x: (-x[0][0], -x[0][1], x[0][3], x[1]))
        return [NgramDifference(text, r[3], (r[1], r[2]), r[0]) for r, text in spelled[:k]]


def reference_ngrams(
    refs: Sequence[Sequence[str]], max_order: int = 4
) -> list[Counter[tuple[str, ...]]]:
    """Per order, each n-gram's largest count in any one reference (BLEU's clipping limit).

    Example:
        >>> reference_ngrams([["a", "a"], ["a", "b"]], 2)[0]
        Counter({('a',): 2, ('b',): 1})
    """
    out = []
    for n in range(1, max_order + 1):
        best: Counter[tuple[str, ...]] = Counter()
        for ref in refs:
            best |= Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
        out.append(best)
    return out


def matched_positions(hyp: Sequence[str], limits: Sequence[Counter[tuple[str, ...]]]) -> list[int]:
    """For each word of ``hyp``, the longest matched n-gram (clipped, as BLEU) covering it.

    0 means the word is in no matched n-gram. Clipping goes left to right: the first
    occurrences of an n-gram use up the reference's count.

    Args:
        hyp: The hypothesis' words.
        limits: Its references' :func:`reference_ngrams` (counted once for every hypothesis
            of the segment); their number is the longest n-gram looked for.

    Returns:
        One number per word, 0..``len(limits)``.

    Example:
        >>> matched_positions(["the", "cat", "the", "the"], reference_ngrams([["the", "cat"]]))
        [2, 2, 0, 0]
    """
    level = [0] * len(hyp)
    for n, limit in enumerate(limits, 1):
        # Plain dict lookups: a Counter's missing keys go through Python (__missing__).
        used: dict[tuple[str, ...], int] = {}
        for i in range(len(hyp) - n + 1):
            gram = tuple(hyp[i : i + n])
            count = used.get(gram, 0)
            if count < limit.get(gram, 0):
                used[gram] = count + 1
                level[i : i + n] = [n] * n
    return level
