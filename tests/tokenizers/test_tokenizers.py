"""Parity of the Rust tokenizers with sacreBLEU 2.6.0's, compared with ``==``.

Three layers:

1. exhaustive: every code point (surrogates excluded) in short contexts that exercise every rule
   of ``intl`` and ``zh`` (and ``13a``), batched into long lines so that the run stays short;
2. property: hypothesis over full Unicode text and over text biased towards the characters and
   substrings the tokenizers treat specially, for all five Rust tokenizers;
3. real data: every line of every file under ``conftest.DATA`` (``../shared/data`` or
   ``$RAPIDBLEU_DATA``; skipped if absent).

Hypothesis example counts scale with ``$RAPIDBLEU_TEST_SCALE`` (``conftest.examples``); at the
default scale the file runs in well under 90 s on two cores.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

pytest.importorskip("sacrebleu")
pytest.importorskip("hypothesis")

from conftest import DATA, examples, read_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from rapidbleu import _core

ORACLES: dict[str, Callable[[str], str]] = {
    "none": NoneTokenizer(),
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "zh": TokenizerZh(),
    "char": TokenizerChar(),
}
NAMES = sorted(ORACLES)

# sacreBLEU's tokenizers cache up to 2**16 calls each (lru_cache on __call__); the exhaustive
# lines are long, so the caches are emptied after each batch to keep memory flat.
_CACHED = (
    Tokenizer13a,
    TokenizerV14International,
    TokenizerZh,
    TokenizerChar,
    NoneTokenizer,
    TokenizerRegexp,
)


def _clear_caches() -> None:
    for cls in _CACHED:
        clear = getattr(cls.__call__, "cache_clear", None)  # NoneTokenizer has no cache
        if clear is not None:
            clear()


def _code_points() -> list[str]:
    return [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]


def _exhaustive(name: str, contexts: Callable[[str], str], batch: int = 4096) -> int:
    """Compare on every code point; return how many were checked.

    ``contexts(c)`` builds the short strings for ``c``; ``batch`` code points are joined with
    spaces into one line per call. On a mismatch the batch is re-run code point by code point
    so that the failure names the culprits.
    """
    oracle, chars = ORACLES[name], _code_points()
    for start in range(0, len(chars), batch):
        chunk = chars[start : start + batch]
        line = " ".join(map(contexts, chunk))
        if _core.tokenize(name, line) != oracle(line):
            bad = [
                f"U+{ord(c):04X} {contexts(c)!r}: rapidbleu {_core.tokenize(name, contexts(c))!r}"
                f" != sacreBLEU {oracle(contexts(c))!r}"
                for c in chunk
                if _core.tokenize(name, contexts(c)) != oracle(contexts(c))
            ]
            pytest.fail(f"{name}: {len(bad)} code points differ, e.g.\n" + "\n".join(bad[:20]))
        _clear_caches()
    return len(chars)


def _intl_contexts(c: str) -> str:
    # Together these tell the four classes apart for every non-space c: "a{c}b" splits
    # P and S, "1{c}2" splits only S (rules 1 and 2 need a non-number neighbour), "{c}.1" splits
    # everything but N (rule 1), "1.{c}" tests c as rule 2's second character, "{c}{c}" puts
    # two of them in a row (non-overlapping matches).
    return f"a{c}b 1{c}2 {c}.1 1.{c} {c}{c}"


def _zh_contexts(c: str) -> str:
    # Between letters, c is split off exactly when `_is_chinese_char` holds (or it is 13a's ASCII
    # punctuation); the "." puts c on both sides of the 13a regex stage's `[\.,]` rules. The
    # stage's other interactions with every code point are covered by the 13a test below.
    return f"a{c}.{c}b"


def _13a_contexts(c: str) -> str:
    # 13a's punctuation class and replacements are ASCII, its digits `[0-9]`; every other code
    # point must behave like a letter next to each rule's trigger characters.
    return f"a{c}b {c}.{c},1{c}-1"


def test_intl_every_code_point() -> None:
    assert _exhaustive("intl", _intl_contexts) == 0x110000 - 0x800


def test_zh_every_code_point() -> None:
    assert _exhaustive("zh", _zh_contexts) == 0x110000 - 0x800


def test_13a_every_code_point() -> None:
    assert _exhaustive("13a", _13a_contexts) == 0x110000 - 0x800


def test_zh_issue_298_ranges() -> None:
    # sacreBLEU's `_is_chinese_char` compares one character with malformed two-character range
    # ends (issue #298): U+2001..U+2A6D (e.g. the ellipsis U+2026) are split, U+2A6E and astral
    # ideographs are not.
    for c in ("\u2026", "\u20ac", "\u2a6d"):
        assert _core.tokenize("zh", f"a{c}b") == f"a {c} b" == ORACLES["zh"](f"a{c}b")
    for c in ("\u2a6e", "\U00020000", "\U0002f800"):
        assert _core.tokenize("zh", f"a{c}b") == f"a{c}b" == ORACLES["zh"](f"a{c}b")


# --- property tests -------------------------------------------------------------------------

ANY_CHAR = st.characters(blacklist_categories=("Cs",))
UNICODE_TEXT = st.text(ANY_CHAR, max_size=60)

# Characters and substrings that some tokenizer treats specially, and characters at the edges
# of the categories and ranges the tokenizers test.
SPECIAL_CHARS = (
    "&;<>\"'.,-_/\\:@#$%^*+=()[]{}|~`!?0123456789aZ "
    "\n\r\t\x0b\x0c\x1c\x1f\x85\xa0\u2000\u2001\u200b\u2028\u2029\u202f\u3000\ufeff"
    "中文。，、「」：！？（）１２Ａｶ가あアー"
    "\u4db5\u4db6\u9fbb\u9fbc\u2a6d\u2a6e\U00020000\U0002a6d6\U0002f800\u2e80\u2fdf\u2fe0\u2ff0"
    "…—–“”‘’«»¿¡€£¥©°±½²٣Ⅻ①→∑😀\U0001faea\u0301ßİ"
)
SPECIAL_STRINGS = [
    *("&quot;", "&amp;", "&lt;", "&gt;", "&amp;lt;", "&amp;quot;", "&apos;", "&#39;"),
    *("<skipped>", "<SKIPPED>", "<skipped", "-\n", "\r\n", "  ", "👍🏽", "e\u0301"),
    *("1,000.5", "1990.", "a.b", "1-2", "a--b", "...", ",,", ".1", "1."),
]
SPECIAL = [*SPECIAL_CHARS, *SPECIAL_STRINGS]
BIASED_TEXT = st.lists(st.one_of(st.sampled_from(SPECIAL), ANY_CHAR), max_size=30).map("".join)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=UNICODE_TEXT)
def test_property_unicode(name: str, line: str) -> None:
    assert _core.tokenize(name, line) == ORACLES[name](line)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=BIASED_TEXT)
def test_property_biased(name: str, line: str) -> None:
    assert _core.tokenize(name, line) == ORACLES[name](line)


@pytest.mark.parametrize("name", NAMES)
def test_edge_cases(name: str) -> None:
    for line in ["", " ", "\n", "-\n", "<skipped>", "&amp;lt;", "1990.", " a ", "\u3000中\u3000"]:
        assert _core.tokenize(name, line) == ORACLES[name](line), repr(line)


# --- real data ------------------------------------------------------------------------------


def _data_files() -> list[Path]:
    if not DATA.is_dir():
        return []
    return sorted(p for p in DATA.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", NAMES)
def test_real_data(name: str) -> None:
    files = _data_files()
    if not files:
        pytest.skip(f"real MT test data not found at {DATA} (set RAPIDBLEU_DATA to that folder)")
    oracle, lines, bad = ORACLES[name], 0, []
    for path in files:
        # Split on "\n" only, so that "\r" and other line-breaking characters stay inside lines.
        for i, line in enumerate(read_lines(path), start=1):
            lines += 1
            if _core.tokenize(name, line) != oracle(line):
                bad.append(f"{path.relative_to(DATA)}:{i}: {line[:80]!r}")
        _clear_caches()
    assert not bad, f"{name}: {len(bad)} of {lines} lines differ, e.g.\n" + "\n".join(bad[:10])
    assert lines > 0
