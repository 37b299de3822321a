"""The CIDEr-D reward against pycocoevalcap's CiderScorer with the same document frequencies
(``==`` on every sample): text and token IDs (lists, padded NumPy arrays, CPU tensors with
``pad_id``), ``ref_len`` of the corpus or of the batch, TRL's and verl's call shapes."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import numpy as np
import pytest
import torch
from caption_data import generated, real_images
from pycocoevalcap.cider.cider_scorer import CiderScorer

from rapidbleu.errors import InputTypeError, LengthMismatchError, MissingColumnError
from rapidbleu.metrics.caption.reward import CiderDReward, cider_reward


class _LenAs(list):  # type: ignore[type-arg]
    """A list whose len() is another number: compute_cider's ``np.log(len(self.crefs))`` is
    then the log of the corpus's image count while it scores the batch (its code unchanged)."""

    def __init__(self, items: list[Any], n: int) -> None:
        super().__init__(items)
        self._n = n

    def __len__(self) -> int:
        return self._n


def theirs(
    corpus: list[list[str]], hyps: list[str], refs: list[list[str]], mode: str
) -> list[float]:
    df_scorer = CiderScorer(n=4, sigma=6.0)
    for group in corpus:
        df_scorer += (None, group)
    df_scorer.compute_doc_freq()
    sc = CiderScorer(n=4, sigma=6.0)
    for h, r in zip(hyps, refs):
        sc += (h, r)
    sc.document_frequency = defaultdict(float, df_scorer.document_frequency)
    if mode == "corpus":
        sc.crefs = _LenAs(sc.crefs, len(corpus))
    return [float(s) for s in sc.compute_cider()]


def data(seed: int) -> tuple[list[list[str]], list[str], list[list[str]]]:
    gts, res = generated(random.Random(seed), 120, (1, 6), 9)
    corpus = list(gts.values())
    keys = list(gts)[:50]
    return corpus, [res[k][0] for k in keys], [gts[k] for k in keys]


def as_ids(texts: list[str], vocab: dict[str, int]) -> list[int]:
    return [vocab.setdefault(t, len(vocab) + 1) for t in texts]


@pytest.mark.parametrize("mode", ["corpus", "batch"])
@pytest.mark.parametrize("seed", range(3))
def test_text_and_ids(seed: int, mode: str) -> None:
    corpus, hyps, refs = data(seed)
    expected = theirs(corpus, hyps, refs, mode)
    assert CiderDReward(corpus, ref_len=mode).scores(hyps, refs) == expected
    # Token IDs: the same n-grams, numbered (0 is padding).
    vocab: dict[str, int] = {}
    corpus_ids = [[as_ids(c.split(), vocab) for c in g] for g in corpus]
    hyp_ids = [as_ids(h.split(), vocab) for h in hyps]
    ref_ids = [[as_ids(c.split(), vocab) for c in g] for g in refs]
    reward = CiderDReward(corpus_ids, ref_len=mode, pad_id=0)
    assert reward.is_ids and reward.images == len(corpus)
    assert reward.scores(hyp_ids, ref_ids) == expected
    width = max(len(h) for h in hyp_ids) + 2
    padded = np.zeros((len(hyp_ids), width), dtype=np.int64)
    for i, h in enumerate(hyp_ids):
        padded[i, : len(h)] = h
    assert reward.scores(padded, ref_ids) == expected
    assert reward.scores(torch.from_numpy(padded), ref_ids) == expected
    assert (
        reward.scores([torch.tensor([*h, 0], dtype=torch.int32) for h in hyp_ids], ref_ids)
        == expected
    )


def test_real_text() -> None:
    gts, res = real_images(
        "data|wmt17.en-de/hyp.uedin-nmt.4722.de|wmt17.en-de/ref.A.de,wmt17.en-de/hyp.FBK.4870.de|0|400"
    )
    corpus = list(gts.values())
    hyps, refs = [res[k][0] for k in list(gts)[:64]], corpus[:64]
    for mode in ("corpus", "batch"):
        assert CiderDReward(corpus, ref_len=mode).scores(hyps, refs) == theirs(
            corpus, hyps, refs, mode
        )


def test_call_shapes() -> None:
    corpus, hyps, refs = data(7)
    expected = theirs(corpus, hyps, refs, "corpus")
    scorer = CiderDReward(corpus)
    trl = cider_reward(scorer, "refs", name="cider_d")
    assert trl.__name__ == "cider_d"
    assert trl(prompts=["p"] * len(hyps), completions=hyps, refs=refs) == expected
    chat = [[{"role": "assistant", "content": h}] for h in hyps]
    assert scorer.reward("refs")(completions=chat, refs=refs) == expected
    assert scorer.compute_score("coco", hyps[0], refs[0]) == expected[0]
    assert scorer.compute_score(solution_strs=hyps, ground_truths=refs) == expected
    with pytest.raises(MissingColumnError):
        trl(completions=hyps, other=refs)
    with pytest.raises(LengthMismatchError):
        scorer.scores(hyps[:2], refs[:3])
    with pytest.raises(InputTypeError):
        CiderDReward([[[1, 2]]]).scores(["a b"], [["a b"]])
    with pytest.raises(InputTypeError):
        scorer.scores([[1, 2]], [[[1, 2]]])
    assert scorer.scores([], []) == []
