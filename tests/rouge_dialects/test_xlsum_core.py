"""XL-Sum's tokens made in the core (``RougeOptions.xlsum_statistics``) against
``multilingual-rouge`` 0.0.1 (``==``): for languages without a tokenizer of their own, with no
stemmer, the Porter default or the Hindi stemmer, on hypothesis's text drawn from every ASCII
character (controls included), the separators the core reads, letters and digits mixed, lines,
and characters it does not read (those items go to the package's tokenizers); and on real
English lines. The core's separators are checked against Python's ``unicodedata``.
"""

from __future__ import annotations

import unicodedata
import warnings
from typing import Any

import pytest
from conftest import DATA, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from multilingual_rouge import rouge_scorer as mrs

from rapidbleu import _core
from rapidbleu.metrics.rouge import xlsum

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SEPARATORS = "\u00a0\u2014\u201c\u201d\u2019\u2026\u3000\u3002\uff0c\u00ab\u00bb"
SYMBOLS = "\u00ae\u00a9\u00b0\u2122\u2192\u2600\U0001f618\U0001f60a\U0001f680\u200d\u200b\ufeff"
OTHER = "\u2028\U0001f3fb\ufe0f\u00e9\u4e2d\u0130\u03a3\ufffd\u0301\u00b2"
READ = (
    [chr(c) for c in range(128)]
    + list(SEPARATORS)
    + list(SYMBOLS) * 2
    + ["ab", "12", "x9", "ing ", "\n", "cats", "running"] * 8
)
#: Mostly text the core reads; some with a character it leaves to the package.
TEXT = st.one_of(
    st.lists(st.sampled_from(READ), max_size=40).map("".join),
    st.lists(st.sampled_from(READ + list(OTHER)), max_size=40).map("".join),
)
#: (lang, use_stemmer) -> whether the core reads (True: with Porter, False: without a stemmer).
CORE = {(None, True): True, (None, False): False, ("hindi", True): False, ("french", False): False}


def scorers(lang: Any, stem: bool) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (
            mrs.RougeScorer(TYPES, lang=lang, use_stemmer=stem),
            xlsum.RougeScorer(TYPES, lang=lang, use_stemmer=stem),
        )


SCORERS = {key: scorers(*key) for key in CORE}


def test_which_scorers_the_core_reads() -> None:
    for key, porter in CORE.items():
        assert SCORERS[key][1]._porter is porter
    assert scorers("turkish", True)[1]._porter is None  # the TurkishStemmer package
    assert scorers("thai", False)[1]._porter is None  # pythainlp
    assert scorers("burmese", False)[1]._porter is None


@settings(max_examples=examples(150), deadline=None)
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6))
@pytest.mark.parametrize("key", list(CORE))
def test_generated_text(key: tuple[Any, bool], pairs: list[tuple[str, str]]) -> None:
    theirs, ours = SCORERS[key]
    want = [theirs.score(t, p) for t, p in pairs]
    got = ours.score_batch([t for t, _ in pairs], [p for _, p in pairs])
    assert got == want
    assert repr(got) == repr(want)


def test_real_english_lines() -> None:
    d = DATA / "wmt22.zh-en"
    refs, hyps = read_lines(d / "ref.A.en")[:400], read_lines(d / "hyp.NiuTrans.en")[:400]
    for key in [(None, True), (None, False)]:
        theirs, ours = SCORERS[key]
        _, unread = ours._options.xlsum_statistics(hyps, refs, key[1])
        assert len(unread) < 40  # most lines are read in the core
        want = [theirs.score(t, p) for t, p in zip(refs, hyps)]
        assert ours.score_batch(refs, hyps) == want


def test_characters_the_core_reads() -> None:
    """Every non-ASCII character the core reads, against ``unicodedata`` and pyonmttok."""
    import pyonmttok

    aggressive = pyonmttok.Tokenizer("aggressive")
    chars = [chr(c) for c in range(0x80, 0x20000) if not 0xD800 <= c < 0xE000]
    options = _core.RougeOptions(["rouge1"], False)
    _, unread = options.xlsum_statistics(chars, ["a"] * len(chars), False)
    read = [chars[i] for i in sorted(set(range(len(chars))) - set(unread))]
    assert len(read) > 1000
    for c in read:
        cat = unicodedata.category(c)
        assert c.lower() == c, hex(ord(c))
        if cat.startswith("S"):  # a symbol: a token of its own for pyonmttok
            assert aggressive.tokenize(f"a{c}1{c}{c}")[0] == ["a", c, "1", c, c], hex(ord(c))
        else:  # the BasicTokenizer's separators (whitespace, punctuation) or removed (C*)
            assert cat == "Zs" or cat[0] in "PC", (hex(ord(c)), cat)


@settings(max_examples=examples(200), deadline=None)
@given(
    word=st.text(st.sampled_from("abcdeilnorsuyz"), max_size=12),
    symbol=st.sampled_from(SYMBOLS[:10]),
)
def test_porter_leaves_a_word_that_ends_with_a_symbol(word: str, symbol: str) -> None:
    """Why the core keeps such a rougeLsum word as it is: NLTK's Porter only rewrites
    suffixes of ASCII letters (the package's ``SnowballStemmer("porter")``)."""
    from nltk.stem.snowball import SnowballStemmer

    assert SnowballStemmer("porter").stem(word + symbol) == word + symbol
