"""XL-Sum's ``multilingual-rouge`` 0.0.1 against :mod:`rapidbleu.metrics.rouge.xlsum` (``==``).

Both run side by side on make_golden.py's items (generated text in many scripts, random code
points, empty strings, several lines; real WMT lines in English, Chinese, Japanese, Korean,
German) for every language whose tokenizer and stemmer build here, with and without the
stemmer: ``score`` per item and ``score_batch`` all at once, compared whole (``repr`` too: the
package's ``Score`` type, ``int`` zeros of an empty ROUGE-L), and the warnings the package gives.
Languages the package cannot build here (Japanese: no UniDic dictionary; Bengali's and the
Snowball stemmers: data missing from PyPI) raise the package's own exception from rapidbleu too.
"""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from multilingual_rouge import rouge_scorer as mrs
from multilingual_rouge import scoring as mscoring

from rapidbleu.metrics.rouge import xlsum

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_golden

ITEMS = make_golden.items(random.Random(39))
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
#: Every tokenizer (thai, chinese, burmese, the default) and every stemmer that builds here.
LANGS = [None, "chinese", "chinese_traditional", "thai", "burmese", "hindi", "turkish", "turkce"]
#: Languages whose scorer the package cannot build here, and the exception it raises.
BROKEN = [("japanese", False), ("bengali", True), ("english", True), ("german", True)]


def sample(lang: str | None) -> list[tuple[str, str]]:
    """(target, prediction) pairs: generated items and real lines of the language's script."""
    rng = random.Random(hash(lang) % 1000)
    picked = rng.sample(ITEMS, 60)
    real = {"chinese": "en-zh", "chinese_traditional": "en-zh"}.get(lang or "", "zh-en")
    picked += [it for it in ITEMS if real in it[0]][:15]
    return [(ref, hyp) for _, _, hyp, ref in picked]


def built(cls: Any, lang: str | None, stem: bool, types: Any = TYPES) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        scorer = cls(types, lang=lang, use_stemmer=stem)
    return scorer, [f"{x.category.__name__}: {x.message}" for x in w]


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("lang", LANGS)
def test_score_equals_the_package(lang: str | None, stem: bool) -> None:
    theirs, w_theirs = built(mrs.RougeScorer, lang, stem)
    ours, w_ours = built(xlsum.RougeScorer, lang, stem)
    assert w_ours == w_theirs
    pairs = sample(lang)
    expected = []
    for target, prediction in pairs:
        with warnings.catch_warnings(record=True) as w1:
            warnings.simplefilter("always")
            want = theirs.score(target, prediction)
        with warnings.catch_warnings(record=True) as w2:
            warnings.simplefilter("always")
            got = ours.score(target, prediction)
        assert got == want, (lang, target, prediction)
        assert repr(got) == repr(want)
        assert all(type(s) is mscoring.Score for s in got.values())
        assert [str(x.message) for x in w2] == [str(x.message) for x in w1]
        expected.append(want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batch = ours.score_batch([t for t, _ in pairs], [p for _, p in pairs])
    assert batch == expected
    assert repr(batch) == repr(expected)


@pytest.mark.parametrize(
    "types", [["rougeLsum"], ["rougeL", "rouge3", "rougeL"], ["rouge9", "rougeLsum", "rouge1"]]
)
def test_types_orders_and_repeats(types: list[str]) -> None:
    theirs, _ = built(mrs.RougeScorer, "thai", False, types)
    ours, _ = built(xlsum.RougeScorer, "thai", False, types)
    for target, prediction in sample("thai")[:40]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert repr(ours.score(target, prediction)) == repr(theirs.score(target, prediction))


def outcome(scorer: Any, *args: Any) -> Any:
    try:
        return repr(scorer.score(*args))
    except Exception as e:  # the kind and message are the result
        return (type(e).__name__, str(e))


@pytest.mark.parametrize(
    "types", [["rouge0"], ["rouge1", "rougeX"], ["rouge1\n"], "rouge1", ("rougeL",)]
)
def test_types_the_core_does_not_take_run_the_package(types: Any) -> None:
    theirs, _ = built(mrs.RougeScorer, None, False, types)
    ours, _ = built(xlsum.RougeScorer, None, False, types)
    assert outcome(ours, "a b c", "a b") == outcome(theirs, "a b c", "a b")


@pytest.mark.parametrize("bad", [(None, "a"), ("a", 3), (b"a", "a")])
def test_texts_that_are_not_str_raise_as_the_package(bad: tuple[Any, Any]) -> None:
    theirs, _ = built(mrs.RougeScorer, None, False)
    ours, _ = built(xlsum.RougeScorer, None, False)
    assert outcome(ours, *bad) == outcome(theirs, *bad)


@pytest.mark.parametrize(("lang", "stem"), BROKEN)
def test_languages_that_do_not_build_here_raise_the_package_error(lang: str, stem: bool) -> None:
    def build(cls: Any) -> Any:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cls(TYPES, lang=lang, use_stemmer=stem).score("a b c d e", "a b c d e")
        except Exception as e:
            return type(e).__name__
        return "ok"

    theirs = build(mrs.RougeScorer)
    assert theirs != "ok"
    assert build(xlsum.RougeScorer) == theirs


def test_score_batch_checks_lengths() -> None:
    from rapidbleu.errors import LengthMismatchError

    with pytest.raises(LengthMismatchError, match="2 targets but 1 predictions"):
        xlsum.RougeScorer(["rouge1"]).score_batch(["a", "b"], ["a"])
