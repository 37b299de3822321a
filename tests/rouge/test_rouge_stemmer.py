"""The Porter stemmer and the tokenizer against NLTK 3.9 and rouge-score 0.1.2, word for word.

The stemmer is ``PorterStemmer()`` (``NLTK_EXTENSIONS``), as rouge-score builds it; it sees
only the tokens rouge-score stems (lowercase ``[a-z0-9]``). Checked on every such token of the
real data, on suffix combinations that reach every rule, and on generated words.
"""

from __future__ import annotations

import itertools
import re
import sys

from conftest import DATA, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from rouge_score import tokenize as rs_tokenize

from rapidbleu import _core

NLTK = PorterStemmer()

#: Every suffix a rule of the algorithm looks at, and NLTK's irregular forms.
SUFFIXES = (
    "sses ies ss s eed ed ing at bl iz y ational tional enci anci izer bli abli alli entli eli "
    "ousli ization ation ator alism iveness fulness ousness aliti iviti biliti fulli logi icate "
    "ative alize iciti ical ful ness al ance ence er ic able ible ant ement ment ent ion sion tion "
    "ou ism ate iti ous ive ize e ll l ied yed ying lli"
).split()
IRREGULAR = "sky skies dying lying tying news innings inning outings outing cannings canning "
IRREGULAR += "howe proceed exceed succeed"
STEMS = "a y yy by ay b hop fil tann fall hiss fizz fail agr feed plast bl mot sing cr troubl "
STEMS += "siz conflat happ sk relat condit valen hesit digit conform radic differ vil analog "
STEMS += "vietnam predic oper feud decis hope callous formal sensit sensib tripl electr good "
STEMS += "reviv allow infer airlin gyroscop adjust defens irrit replac depend adopt homolog "
STEMS += "commun activ angular effect bowdler prob rat ceas controll roll toy syzyg ivy oat "
STEMS += "tree troubl privat orrer 3d x9 yyy ey uy"


def rouge_words() -> list[str]:
    """Every distinct token rouge-score's tokenizer makes of the real data's files."""
    words: set[str] = set()
    for path in sorted(DATA.glob("*/*")):
        if path.is_file() and not path.name.endswith((".md", ".jsonl")):
            text = path.read_text(encoding="utf-8")
            words.update(rs_tokenize.tokenize(text, None))
    return sorted(words)


def check(words: list[str]) -> None:
    ours = _core.porter_stem(words)
    theirs = [NLTK.stem(w) for w in words]
    bad = [(w, o, t) for w, o, t in zip(words, ours, theirs) if o != t]
    assert not bad, bad[:20]


def test_every_word_of_the_real_data() -> None:
    words = rouge_words()
    assert len(words) > 10_000
    check(words)


def test_rule_combinations() -> None:
    words = [s + x for s, x in itertools.product(STEMS.split(), SUFFIXES)]
    words += [
        s + x + y for s in STEMS.split()[:30] for x, y in itertools.product(SUFFIXES, SUFFIXES)
    ]
    check(words + IRREGULAR.split())


@settings(max_examples=examples(300))
@given(st.lists(st.text("abeiouyslntdgcz0", min_size=1, max_size=14), min_size=1, max_size=50))
def test_generated_words(words: list[str]) -> None:
    check(words)


def test_tokenizer_over_every_code_point() -> None:
    # Python's str.lower() of every character (the only table rouge-score's tokenizer has).
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]
    text = "".join(c + "x " for c in chars)
    for stem in (False, True):
        stemmer = NLTK if stem else None
        assert _core.RougeOptions.tokenize(text, stem) == rs_tokenize.tokenize(text, stemmer)


ANY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=examples(300))
@given(st.lists(st.one_of(ANY, st.text("aAbB İKk\u212a1ing sses\n.", max_size=30)), max_size=5))
def test_tokenizer_on_generated_text(parts: list[str]) -> None:
    text = " ".join(parts)
    for stem in (False, True):
        assert _core.RougeOptions.tokenize(text, stem) == rs_tokenize.tokenize(
            text, NLTK if stem else None
        )


def test_lone_surrogates_separate_tokens() -> None:
    text = "ab\ud800cd running"
    assert _core.RougeOptions.tokenize(text, True) == rs_tokenize.tokenize(text, NLTK)
    assert re.fullmatch(r"[a-z0-9]+", "".join(_core.RougeOptions.tokenize(text)))
