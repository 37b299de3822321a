"""The caption metrics through the template's Ray engine (``rapidbleu.distributed.ray``) on a
local cluster, equal with ``==`` to pycocoevalcap on the same images for any number of blocks:
COCO BLEU's rows add across blocks, ROUGE-L's image scores are folded in order, and CIDEr-D
(whose rows depend on every image's references) is scored in one block.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import ray
import ray.data
from caption_data import generated
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

from rapidbleu.distributed.ray import corpus_score, local_cluster
from rapidbleu.metrics.caption.metric import COCOBLEU, CIDErD, COCORougeL


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    with local_cluster(num_cpus=2):
        yield


def test_ray_equals_pycocoevalcap() -> None:
    gts, res = generated(random.Random(21), 60, (2, 2), 8)
    hyps = [" ".join(res[k][0].split()) for k in gts]
    refs = [[" ".join(r.split()) for r in gts[k]] for k in gts]
    gts = dict(enumerate(refs))
    res = {i: [h] for i, h in enumerate(hyps)}
    items = [{"hyp": h, "a": r[0], "b": r[1]} for h, r in zip(hyps, refs)]
    ds = ray.data.from_items(items, override_num_blocks=4)
    theirs = {
        "bleu": Bleu(4).compute_score(gts, res, verbose=0)[0][3],
        "rouge": float(Rouge().compute_score(gts, res)[0]),
        "cider": float(Cider().compute_score(gts, res)[0]),
    }
    for key, metric in (("bleu", COCOBLEU()), ("rouge", COCORougeL()), ("cider", CIDErD())):
        result = corpus_score(ds, metric, "hyp", ["a", "b"])
        assert result.score.value == theirs[key], key
        assert result.num_rows == len(hyps)
