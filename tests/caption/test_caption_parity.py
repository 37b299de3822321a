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


@pytest.mark.parametrize(
    ("gts", "res", "named"),
    [
        ({1: [None, "a"]}, {1: ["a"]}, r"gts\[1\]\[0\] is NoneType; expected str"),
        ({"x": ["a", 3]}, {"x": ["a"]}, r"gts\['x'\]\[1\] is int; expected str"),
        ({1: ["a"]}, {1: [b"a"]}, r"res\[1\]\[0\] is bytes; expected str"),
    ],
)
def test_captions_that_are_not_text(gts: Gts, res: Gts, named: str) -> None:
    # pycocoevalcap fails in its `.split()` (bytes it splits and counts too); rapidbleu names
    # the caption (InputTypeError is a TypeError). A None reference is not skipped as missing.
    from rapidbleu.errors import InputTypeError

    if not any(isinstance(c, bytes) for c in res[next(iter(res))]):
        with pytest.raises(AttributeError):
            printed(lambda: TheirBleu().compute_score(gts, res))
    for ours in (Bleu(), Cider(), Rouge()):
        with pytest.raises(InputTypeError, match=named):
            ours.compute_score(gts, res)


def test_lone_surrogate_is_named_by_its_image() -> None:
    from rapidbleu.errors import InvalidTextError

    # Enough captions for the pool's reader, and the bad one among the references.
    gts = {i: ["a b", "c d"] for i in range(20)}
    res = {i: ["a c"] for i in range(20)}
    gts[13] = ["a b", "c \ud800d"]
    for ours in (Bleu(), Cider(), Rouge()):
        with pytest.raises(InvalidTextError, match=r"gts\[13\]\[1\] is not valid Unicode"):
            ours.compute_score(gts, res)
    res[13] = ["\udfff"]
    with pytest.raises(InvalidTextError, match=r"res\[13\]\[0\] is not valid Unicode"):
        Bleu().compute_score(gts, res)


def test_any_mapping_and_text_read_again() -> None:
    # A Mapping that is not a dict is read through its own keys() and __getitem__; Latin-1,
    # two- and four-byte text is read the same the first time (transcoded by CPython, which
    # keeps the UTF-8) and every later time (that UTF-8 borrowed).
    from collections import OrderedDict
    from types import MappingProxyType

    words = ["über", "größe", "naïve", "x", "日本", "語", "🙂", "a"]
    rng = random.Random(7)

    def caption() -> str:
        # Built at run time, as captions are: no string shares a cached UTF-8 copy.
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 9)))

    gts = OrderedDict((f"img{i}", [caption() for _ in range(3)]) for i in range(30))
    res = MappingProxyType({f"img{i}": [caption()] for i in range(30)})
    for _ in range(2):
        same_bleu(gts, dict(res), 4)
        assert Bleu().compute_score(gts, res, verbose=0) == TheirBleu().compute_score(
            dict(gts), dict(res), verbose=0
        )
        same_rouge(dict(gts), dict(res))
        same_cider(dict(gts), dict(res))
    ours = Cider().compute_score(gts, res)
    assert ours[1].tolist() == TheirCider().compute_score(dict(gts), dict(res))[1].tolist()
