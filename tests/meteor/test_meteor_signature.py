"""``nltk.translate.meteor_score``'s functions as rapidbleu serves them have NLTK 3.10.4's
signatures: the same parameters, annotations and default objects (``inspect.signature`` equal
with ``==``, in-process and in accelerator mode), so a program that reads the signature, or
passes NLTK's defaults positionally, sees no difference.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import nltk
import pytest
from nltk.corpus import wordnet
from nltk.stem.porter import PorterStemmer
from nltk.translate import meteor_score as real

from rapidbleu.metrics.meteor import nltk as fast_nltk

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import wordnet_data

NAMES = ("meteor_score", "single_meteor_score")
HYP = "the cats sat on the mat".split()
REF = "a cat sits on a mat".split()


@pytest.fixture(scope="module")
def nltk_root() -> Any:
    """NLTK's data path with the test WordNet first (``scripts/wordnet_data.py``)."""
    root = str(wordnet_data.build().parent.parent)
    old = list(nltk.data.path)
    nltk.data.path.insert(0, root)
    yield root
    nltk.data.path[:] = old


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_nltks(name: str) -> None:
    ours, theirs = getattr(fast_nltk, name), getattr(real, name)
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    # The very default objects (NLTK's PorterStemmer instance, nltk.corpus.wordnet).
    assert ours.__defaults__ == theirs.__defaults__
    assert all(a is b for a, b in zip(ours.__defaults__, theirs.__defaults__))
    assert ours.__annotations__ == theirs.__annotations__


def test_positional_defaults(nltk_root: str) -> None:
    """NLTK's own default objects and fresh ones, by position and by name, score as NLTK."""
    want = real.meteor_score([REF], HYP)
    assert want == real.single_meteor_score(REF, HYP)
    for args in ((str.lower, PorterStemmer(), wordnet), (str.lower, PorterStemmer(), wordnet, 0.9)):
        assert fast_nltk.meteor_score([REF], HYP, *args) == want
        assert fast_nltk.single_meteor_score(REF, HYP, *args) == want
    assert fast_nltk.meteor_score([REF], HYP, stemmer=PorterStemmer(), wordnet=wordnet) == want
    # Fast path taken with the defaults (rapidbleu's METEOR answered, not NLTK's code).
    assert fast_nltk._fast([REF], HYP, str.lower, PorterStemmer(), wordnet, 0.9, 3.0, 0.5) == want


def test_none_is_not_a_default(nltk_root: str) -> None:
    """``stemmer=None`` is NLTK's error, as NLTK's function raises it (no silent default)."""
    with pytest.raises(AttributeError) as want:
        real.meteor_score([REF], HYP, stemmer=None)
    with pytest.raises(AttributeError) as got:
        fast_nltk.meteor_score([REF], HYP, stemmer=None)
    assert str(got.value) == str(want.value)


def test_accelerator_mode_signature(nltk_root: str, tmp_path: Path) -> None:
    program = tmp_path / "sig.py"
    program.write_text(
        "import inspect, json, nltk\n"
        f"nltk.data.path.insert(0, {nltk_root!r})\n"
        "from nltk.corpus import wordnet\n"
        "from nltk.stem.porter import PorterStemmer\n"
        "from nltk.translate import meteor_score as ms\n"
        "h = 'the cats sat on the mat'.split(); r = 'a cat sits on a mat'.split()\n"
        "print(json.dumps([str(inspect.signature(ms.meteor_score)),\n"
        "    str(inspect.signature(ms.single_meteor_score)),\n"
        "    ms.meteor_score([r], h, str.lower, PorterStemmer(), wordnet),\n"
        "    ms.meteor_score.__module__.startswith('rapidbleu')]))\n",
        "utf-8",
    )
    env = {**os.environ, "PYTHONPATH": ""}
    runs = [
        subprocess.run([*argv, str(program)], capture_output=True, text=True, timeout=120, env=env)
        for argv in ([sys.executable], [sys.executable, "-m", "rapidbleu.accelerate"])
    ]
    for done in runs:
        assert done.returncode == 0, done.stderr
    plain, fast = (json.loads(d.stdout.strip().splitlines()[-1]) for d in runs)
    assert plain[:3] == fast[:3]
    assert (plain[3], fast[3]) == (False, True)
