"""METEOR through the template's Ray engine (``rapidbleu.distributed.ray``) on a local cluster:
the corpus value (``np.mean`` of NLTK's sentence scores, in segment order) equals the
in-process one with ``==`` for any number of blocks, with one and two references.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import ray
import ray.data
from conftest import DATA, read_lines
from nltk.translate.meteor_score import meteor_score

from rapidbleu.distributed.ray import corpus_score, local_cluster
from rapidbleu.metrics.meteor import METEOR

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import wordnet_data

WMT = DATA / "wmt22.zh-en"
HYPS = read_lines(WMT / "hyp.NiuTrans.en")[:240]
RA, RB = read_lines(WMT / "ref.A.en")[:240], read_lines(WMT / "ref.B.en")[:240]


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    with local_cluster(num_cpus=2):
        yield


@pytest.mark.parametrize("blocks", [4])
def test_ray_equals_in_process_and_nltk(blocks: int) -> None:
    import nltk

    folder = str(wordnet_data.build())
    root = str(Path(folder).parent.parent)
    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)  # NLTK, the oracle, reads the same WordNet
    items = [{"hyp": h, "a": a, "b": b} for h, a, b in zip(HYPS, RA, RB)]
    ds = ray.data.from_items(items, override_num_blocks=blocks)
    for cols, streams in ((["a"], [RA]), (["a", "b"], [RA, RB])):
        metric = METEOR(wordnet=folder)
        result = corpus_score(ds, metric, "hyp", cols)
        want = np.mean(
            [meteor_score([r.split() for r in refs], h.split()) for h, *refs in zip(HYPS, *streams)]
        )
        assert result.score.meteor == METEOR(wordnet=folder).corpus_score(HYPS, streams).meteor
        assert result.score.meteor == want
        assert result.num_rows == len(HYPS)
