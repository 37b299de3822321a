"""With its ID range given, the count reads nothing from the device: one graph, no break.

A CUDA graph (``scripts/check_gpu.py --graph``) can capture only work that never waits for the
device. TorchDynamo's ``fullgraph=True`` refuses the same thing (a Python value read from a
tensor), so tracing ``count_rows`` whole on the CPU checks the property without a GPU.
"""

from __future__ import annotations

import pytest
import torch

from rapidbleu.torch import statistics
from rapidbleu.torch.ngrams import compact, count_rows

H = torch.tensor([[1, 2, 3, 4, 0, 0], [5, 6, 7, 0, 0, 0], [9, 9, 9, 9, 9, 9]])
R = torch.tensor(
    [[[1, 2, 3, 5, 0], [2, 3, 4, 0, 0]], [[5, 6, 7, 8, 0], [0, 0, 0, 0, 0]], [[9, 9, 0, 9, 9]] * 2]
)


def _count(h: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    hc, lengths = compact(h, 0)
    b, refs, width = r.shape
    rc, ref_lengths = compact(r.reshape(b * refs, width), 0)
    return count_rows(
        hc, lengths, rc.view(b, refs, width), ref_lengths.view(b, refs), 4, id_range=(0, 9)
    )


def test_the_count_traces_as_one_graph() -> None:
    traced = torch.compile(_count, fullgraph=True, backend="eager", dynamic=False)
    assert traced(H, R).tolist() == statistics(H, R, pad_id=0).tolist()


def test_without_the_range_it_reads_the_device() -> None:
    def count(h: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        return count_rows(h, torch.tensor([6, 6, 6]), r, torch.full((3, 2), 5), 4)

    # The smallest and largest ID decide the unigram keys: a data-dependent branch.
    with pytest.raises(RuntimeError):  # dynamo: a data-dependent branch or a graph break
        torch.compile(count, fullgraph=True, backend="eager", dynamic=False)(H, R)
