"""rapidbleu's Bleu, Rouge and Cider against pycocoevalcap 1.2 with ``==``: generated captions
(repeated words, one-word and empty captions, Unicode and every whitespace, 1 to 20
references) and real text from tests/data; every per-image score, the return types and what
Bleu prints."""

from __future__ import annotations

import contextlib
import io
import random
from typing import Any

import numpy as np
import pytest
from caption_data import generated, real_images
from pycocoevalcap.bleu.bleu import Bleu as TheirBleu
from pycocoevalcap.cider.cider import Cider as TheirCider
from pycocoevalcap.rouge.rouge import Rouge as TheirRouge

from rapidbleu.metrics.caption import Bleu, Cider, Rouge

Gts = dict[Any, list[str]]


def printed(f: Any) -> tuple[Any, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = f()
    return value, out.getvalue()


def same_bleu(gts: Gts, res: Gts, n: int) -> None:
    theirs, their_text = printed(lambda: TheirBleu(n).compute_score(gts, res))
    ours, our_text = printed(lambda: Bleu(n).compute_score(gts, res))
    assert ours == theirs
    assert our_text == their_text
    assert [type(v) for v in ours[0]] == [type(v) for v in theirs[0]]
    assert all(type(v) is float for per in ours[1] for v in per)
    quiet, text = printed(lambda: Bleu(n).compute_score(gts, res, verbose=0))
    assert quiet == theirs and text == ""


def same_rouge(gts: Gts, res: Gts) -> None:
    theirs = TheirRouge().compute_score(gts, res)
    ours = Rouge().compute_score(gts, res)
    assert type(ours[0]) is type(theirs[0]) and ours[0] == theirs[0]
    assert ours[1].dtype == theirs[1].dtype and ours[1].tolist() == theirs[1].tolist()


def same_cider(gts: Gts, res: Gts, n: int = 4, sigma: float = 6.0) -> None:
    try:
        theirs = TheirCider(n=n, sigma=sigma).compute_score(gts, res)
    except ValueError as e:
        with pytest.raises(ValueError, match="empty sequence"):
            Cider(n=n, sigma=sigma).compute_score(gts, res)
        assert "empty" in str(e)
        return
    ours = Cider(n=n, sigma=sigma).compute_score(gts, res)
    assert type(ours[0]) is type(theirs[0]) and ours[0] == theirs[0]
    assert ours[1].dtype == theirs[1].dtype and ours[1].tolist() == theirs[1].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_generated(seed: int) -> None:
    rng = random.Random(seed)
    refs = [(1, 1), (1, 5), (5, 5), (1, 20), (2, 9), (20, 20)][seed]
    gts, res = generated(rng, 40 + 10 * seed, refs, 1 + 6 * (seed % 3))
    for n in range(1, 5):
        same_bleu(gts, res, n)
    same_rouge(gts, res)
    same_cider(gts, res)
    same_cider(gts, res, n=5, sigma=3.5)


def test_edge_cases() -> None:
    # Repeated words, one word, empty hypotheses and references, whitespace-only captions.
    gts = {
        0: ["a a a a", "a"],
        1: [""],
        2: ["x"],
        3: ["  ", "a b"],
        4: ["the the the cat", "the cat the cat"],
        5: ["a"],
    }
    res = {0: ["a a a a a a"], 1: [""], 2: ["x"], 3: [""], 4: ["the cat"], 5: ["b"]}
    for n in range(1, 5):
        same_bleu(gts, res, n)
    same_rouge(gts, res)
    same_cider(gts, res)
    # No reference word at all: ValueError in both.
    same_cider({0: [""], 1: [" "]}, {0: ["a"], 1: ["b"]})
    # One image.
    one = ({"k": ["a b c d"]}, {"k": ["a b c"]})
    same_bleu(*one, 4)
    same_rouge(*one)
    same_cider(*one)


def test_empty_corpus() -> None:
    same_bleu({}, {}, 4)
    with pytest.raises(ValueError):
        TheirCider().compute_score({}, {})
    with pytest.raises(ValueError):
        Cider().compute_score({}, {})
    with pytest.warns(RuntimeWarning):
        mean, scores = Rouge().compute_score({}, {})
    assert np.isnan(mean) and scores.tolist() == []


@pytest.mark.parametrize(
    "spec",
    [
        "data|wmt17.en-de/hyp.uedin-nmt.4722.de|wmt17.en-de/ref.A.de,wmt17.en-de/hyp.FBK.4870.de,"
        "wmt17.en-de/hyp.online-A.0.de|0|300",
        "data|wmt22.en-zh/hyp.HuaweiTSC.zh|wmt22.en-zh/ref.A.zh|0|200",
    ],
)
def test_real_text(spec: str) -> None:
    gts, res = real_images(spec)
    assert len(gts) >= 200
    same_bleu(gts, res, 4)
    same_rouge(gts, res)
    same_cider(gts, res)


def test_checks_as_pycocoevalcap() -> None:
    for gts, res in [
        ({1: ["a"]}, {2: ["a"]}),
        ({1: ["a"]}, {1: "a"}),
        ({1: ["a"]}, {1: ["a", "b"]}),
        ({1: []}, {1: ["a"]}),
        ({1: ("a",)}, {1: ["a"]}),
    ]:
        for ours, theirs in [
            (Bleu(), TheirBleu()),
            (Cider(), TheirCider()),
            (Rouge(), TheirRouge()),
        ]:
            with pytest.raises(AssertionError):
                printed(lambda t=theirs, g=gts, r=res: t.compute_score(g, r))
            with pytest.raises(AssertionError):
                ours.compute_score(gts, res)
