"""Run by test_torch_fused.py in a child with ``TRITON_INTERPRET=1``: the fused kernel on CPU.

Triton reads ``TRITON_INTERPRET`` when it is imported, so this runs in its own process. Each
case compares the fused counter's rows with the sorts' and with the CPU engine's, and the
scores of both counters; it prints ``cases N`` when every one is equal.
"""

from __future__ import annotations

import random
import sys

import torch

from rapidbleu.metrics.bleu.tokens import token_statistics
from rapidbleu.torch import corpus_bleu, sentence_bleu, statistics

#: IDs of a small alphabet repeat n-grams; the extremes of int64 and negatives are IDs too.
POOL = (0, 2**62, 1, -7, 2, 3, 5)
PAD = -(2**63)


def batch(rnd: random.Random, rows: int, refs: int, longest: int, alphabet: int) -> tuple:
    """Ragged sequences, padded with ``PAD`` anywhere in their rows."""
    ids = POOL[:alphabet]

    def seq() -> list[int]:
        return [rnd.choice(ids) for _ in range(rnd.randint(0, longest))]

    hyps = [seq() for _ in range(rows)]
    ref_seqs = [[seq() for _ in range(refs)] for _ in range(rows)]

    def table(seqs: list[list[int]]) -> torch.Tensor:
        padded = []
        for s in seqs:
            row = list(s)
            for _ in range(rnd.randint(0, 2)):
                row.insert(rnd.randint(0, len(row)), PAD)
            padded.append(row)
        width = max(len(r) for r in padded) + rnd.randint(0, 2)
        return torch.tensor([r + [PAD] * (width - len(r)) for r in padded], dtype=torch.int64)

    h = table(hyps)
    r = table([x for rs in ref_seqs for x in rs]).view(rows, refs, -1)
    return hyps, ref_seqs, h, r


def check(rnd: random.Random, rows: int, refs: int, longest: int, alphabet: int) -> None:
    hyps, ref_seqs, h, r = batch(rnd, rows, refs, longest, alphabet)
    order = rnd.randint(1, 6)
    fused = statistics(h, r, pad_id=PAD, max_ngram_order=order, counter="fused")
    sort = statistics(h, r, pad_id=PAD, max_ngram_order=order, counter="sort")
    engine, _ = token_statistics(hyps, ref_seqs, max_order=order, per_segment=True)
    assert fused.dtype == torch.int64
    assert fused.tolist() == sort.tolist() == engine.tolist(), (hyps, ref_seqs, order)
    for score in (sentence_bleu, corpus_bleu):
        a = score(h, r, pad_id=PAD, counter="fused")
        b = score(h, r, pad_id=PAD, counter="sort")
        assert a.tolist() == b.tolist(), (score.__name__, a, b)


def main() -> None:
    rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    cases = 0
    # Short rows over tiny alphabets (repeats, empty rows, orders past the length) ...
    for _ in range(24):
        check(rnd, rnd.randint(1, 4), rnd.randint(1, 4), 12, rnd.randint(1, len(POOL)))
        cases += 1
    # ... and rows past one block of positions (64), so blocks and loop steps meet.
    for _ in range(3):
        check(rnd, 2, rnd.randint(1, 3), 150, 3)
        cases += 1
    # Lengths instead of padding: every ID is a token, junk after each end.
    h = torch.tensor([[1, 2, 1, 2, 9, 9], [3, 3, 3, 0, 0, 0]])
    r = torch.tensor(
        [[[1, 2, 1, 7, 7, 7], [2, 1, 2, 1, 2, 0]], [[3, 3, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0]]]
    )
    layout = {"lengths": [4, 3], "ref_lengths": [[3, 5], [2, 1]]}
    fused = statistics(h, r, counter="fused", **layout)
    assert fused.tolist() == statistics(h, r, counter="sort", **layout).tolist()
    cases += 1
    print(f"cases {cases}")


if __name__ == "__main__":
    main()
