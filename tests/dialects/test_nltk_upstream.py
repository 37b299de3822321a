"""NLTK's own BLEU tests (nltk 3.10.4's ``test_bleu.py``, unchanged) against rapidbleu's dialect.

``tests/upstream/nltk/test_bleu.py`` is imported with ``nltk.translate.bleu_score`` replaced by
:mod:`rapidbleu.dialects.nltk` in ``sys.modules`` during that import only: its
``from nltk.translate.bleu_score import ...`` binds rapidbleu's functions, while every other
test keeps the real NLTK as its oracle. Its test classes are collected from this module.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import nltk.data
import nltk.translate

import rapidbleu.dialects.nltk as ours

UPSTREAM = Path(__file__).parents[1] / "upstream" / "nltk" / "test_bleu.py"
#: SHA-256 of nltk-3.10.4.tar.gz's nltk/test/unit/translate/test_bleu.py.
SHA256 = "c81d9fb71dcc077c508889a9b3673990b896bfb69db69f0b68ada69b3de58b2b"


def _load() -> ModuleType:
    name = "nltk.translate.bleu_score"
    saved_module, saved_attr = sys.modules.get(name), getattr(nltk.translate, "bleu_score", None)
    sys.modules[name] = ours
    try:
        spec = importlib.util.spec_from_file_location("nltk_upstream_test_bleu", UPSTREAM)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        if saved_module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = saved_module
        if saved_attr is not None:
            nltk.translate.bleu_score = saved_attr
    return module


#: NLTK's ``wmt15_eval`` package (nltk_data's packages/models/wmt15_eval.zip): the three files
#: its ``TestBLEUvsMteval13a`` reads plus its README, shipped so that the test runs offline.
SHIPPED = Path(__file__).parents[1] / "data" / "nltk_data"
# NLTK refuses data in directories or files that another account may write to (group-writable
# under a umask of 002, say), so the test reads a private copy (mkdtemp makes it 0700).
_private = tempfile.TemporaryDirectory(prefix="nltk_data-")
NLTK_DATA = Path(shutil.copytree(SHIPPED, Path(_private.name) / "nltk_data"))
for _f in NLTK_DATA.rglob("*"):
    _f.chmod(0o700 if _f.is_dir() else 0o600)
nltk.data.path.insert(0, str(NLTK_DATA))

upstream = _load()

TestBLEU = upstream.TestBLEU
TestBLEUFringeCases = upstream.TestBLEUFringeCases
TestBLEUWithBadSentence = upstream.TestBLEUWithBadSentence
TestBLEUWithMultipleWeights = upstream.TestBLEUWithMultipleWeights
TestBLEUvsMteval13a = upstream.TestBLEUvsMteval13a


def test_wmt15_eval_is_the_shipped_copy() -> None:
    found = Path(nltk.data.find("models/wmt15_eval/ref.ru"))
    assert found.parent == NLTK_DATA / "models" / "wmt15_eval"


def test_upstream_file_is_unchanged() -> None:
    assert hashlib.sha256(UPSTREAM.read_bytes()).hexdigest() == SHA256


def test_upstream_functions_are_rapidbleus() -> None:
    assert upstream.sentence_bleu is ours.sentence_bleu
    assert upstream.corpus_bleu is ours.corpus_bleu
    assert upstream.closest_ref_length is ours.closest_ref_length
    # ...and the real NLTK is back for the other tests.
    import nltk.translate.bleu_score as real

    assert real is not ours and real.sentence_bleu is not ours.sentence_bleu


def test_every_upstream_test_class_is_collected() -> None:
    classes = {n for n, v in vars(upstream).items() if isinstance(v, type) and n.startswith("Test")}
    assert classes == {n for n in globals() if n.startswith("Test")}
