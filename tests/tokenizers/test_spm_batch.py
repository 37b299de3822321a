"""SentencePiece tokenizers (spm, flores101, flores200, spBLEU-1K) in batches.

``tokenize_batch`` hands whole batches to the sentencepiece package's batch encoder (native
threads, GIL released); the oracle is sacreBLEU 2.6.0's ``TokenizerSPM.__call__``,
``" ".join(sp.EncodeAsPieces(line))`` one line at a time. Models are trained here (rapidbleu
never downloads); sacreBLEU's real FLORES models are used as well where its cache has them.
"""

from __future__ import annotations

import logging
import os
import pickle
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, examples, read_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tokenizers_python import _MODEL_FOR, MIXED_TEXT, WORDS_TEXT, _train

from rapidbleu import _core
from rapidbleu.errors import InvalidOptionError
from rapidbleu.tokenizers import get_python_tokenizer, tokenize_batch
from rapidbleu.tokenizers.spm import SPM_MODELS, TokenizerSPM, model_path_for

# sacreBLEU's TokenizerSPM("spm") calls the deprecated Logger.warn.
pytestmark = pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("spm_batch")
    return {"unigram": _train(folder, "unigram"), "bpe": _train(folder, "bpe")}


def _oracle(key: str, model: Path) -> Any:
    """sacreBLEU's own tokenizer for ``key``, reading ``model`` as its cached file."""
    import sacrebleu.tokenizers.tokenizer_spm as sacre_spm

    home = model.parent / f"home_{key}"
    (home / "models").mkdir(parents=True, exist_ok=True)
    cached = home / "models" / os.path.basename(SPM_MODELS[key]["url"])
    cached.write_bytes(model.read_bytes())
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sacre_spm, "SACREBLEU_DIR", str(home))
        return sacre_spm.TokenizerSPM(key)


@pytest.fixture(scope="module", params=sorted(_MODEL_FOR))
def pair(request: pytest.FixtureRequest, models: dict[str, Path]) -> tuple[str, Path, Any]:
    """(key, model file, sacreBLEU's tokenizer) for flores101 (unigram), flores200 and
    spBLEU-1K (BPE)."""
    key = str(request.param)
    model = models[_MODEL_FOR[key]]
    return key, model, _oracle(key, model)


def _ours(key: str, model: Path | str, backend: str = "engine") -> TokenizerSPM:
    tok = TokenizerSPM(key, spm_model=model, backend=backend)  # fresh: empty line caches
    assert tok.backend == backend
    return tok


LINE = st.one_of(
    st.text(max_size=60),
    MIXED_TEXT,
    WORDS_TEXT,
    st.lists(WORDS_TEXT, min_size=20, max_size=200).map(" ".join),  # long lines
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINE, max_size=90), threads=st.sampled_from([1, 2, 0]))
def test_generated_batches(pair: tuple[str, Path, Any], lines: list[str], threads: int) -> None:
    key, model, theirs = pair
    expected = [theirs(line) for line in lines]
    assert _ours(key, model).tokenize_batch(lines, threads) == expected
    assert _ours(key, model, "python").tokenize_batch(lines, threads) == expected


def _train_variant(folder: Path, name: str, **options: Any) -> Path:
    """A tiny model with unusual options (same corpus as test_tokenizers_python's models)."""
    import sentencepiece

    text = folder / "train.unigram.txt"  # written by _train in the `models` fixture
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(folder / name), num_threads=1, minloglevel=2,
        character_coverage=0.98, hard_vocab_limit=False, **options,
    )  # fmt: skip
    return folder / f"{name}.model"


@pytest.fixture(scope="module")
def variants(models: dict[str, Path]) -> dict[str, Path]:
    folder = models["unigram"].parent
    return {
        "byte_fallback": _train_variant(
            folder, "bytes", model_type="unigram", vocab_size=500, byte_fallback=True
        ),
        "user_symbols": _train_variant(
            folder, "user", model_type="bpe", vocab_size=200, user_defined_symbols=["今日", "<x>"]
        ),
        "char": _train_variant(folder, "char", model_type="char"),
        "word": _train_variant(folder, "word", model_type="word", vocab_size=60),
    }


UNKNOWN = st.text(
    st.sampled_from([*"the cat 今日は안녕", "Ω", "ж", "\u20ac", "🙂", "\ufffd", " "]), max_size=30
)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    lines=st.lists(st.one_of(st.text(max_size=20), WORDS_TEXT, UNKNOWN), min_size=60, max_size=90)
)
def test_model_variants(variants: dict[str, Path], lines: list[str]) -> None:
    """Byte fallback, user-defined symbols, char and word models; unknown characters (whose
    pieces are the text itself, runs merged) take the per-line path inside the batch."""
    for kind, model in variants.items():
        theirs = _oracle("flores200", model)
        expected = [theirs(x) for x in lines]
        assert _ours("flores200", model).tokenize_batch(lines, 2) == expected, kind


def test_unknown_pieces_keep_their_text(pair: tuple[str, Path, Any]) -> None:
    """An unknown piece is the text itself (runs of unknowns merged), not the vocabulary's
    ``<unk>``: such lines leave the id path, the others stay on it."""
    import sentencepiece

    key, model, theirs = pair
    sp = sentencepiece.SentencePieceProcessor(model_file=str(model))
    lines = ["ΩΩж the cat", "the cat", "€ 🙂", ""] * 20
    ids = sp.EncodeAsIds(lines)
    table = _core.PieceTable(sp.IdToPiece(list(range(sp.GetPieceSize()))), sp.unk_id())
    assert len(table) == sp.GetPieceSize()
    joined = table.join(ids)
    assert [j is None for j in joined[:4]] == [True, False, True, False]
    assert any("ΩΩж" in p for p in theirs("ΩΩж the cat").split())  # one merged piece, its text
    assert _ours(key, model).tokenize_batch(lines, 2) == [theirs(x) for x in lines]


def test_real_files_every_line(pair: tuple[str, Path, Any]) -> None:
    key, model, theirs = pair
    files = sorted(p for p in DATA.glob("*/*") if p.is_file())
    if not files:
        pytest.skip(f"real test data not found in {DATA} (see ../shared/data/MANIFEST.md)")
    lines = [line for path in files for line in read_lines(path)]
    assert len(lines) > 50_000  # the shipped subset: 54,028 lines (the full data: 120,041)
    expected = [theirs(line) for line in lines]
    for threads in (1, 2, 0):
        got = _ours(key, model).tokenize_batch(lines, threads)
        diff = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
        assert not diff and len(got) == len(expected), f"{key} threads={threads}: {diff[:5]}"


def test_errors_are_sacrebleus_own(pair: tuple[str, Path, Any]) -> None:
    """A line the encoder refuses fails as it does for sacreBLEU (the batch falls back)."""
    key, model, theirs = pair
    with pytest.raises(Exception) as mine:
        _ours(key, model).tokenize_batch(["fine", "bad \ud800"] * 40, 2)
    with pytest.raises(Exception) as oracle:
        theirs("bad \ud800")
    assert type(mine.value) is type(oracle.value)


def test_missing_references_and_sharing(
    models: dict[str, Path], caplog: pytest.LogCaptureFixture
) -> None:
    tok = get_python_tokenizer("flores200", spm_model=models["bpe"])
    assert tok is get_python_tokenizer("flores200", spm_model=str(models["bpe"]))
    assert tok is not get_python_tokenizer("flores200", spm_model=models["bpe"], backend="python")
    assert tokenize_batch(tok, ["the cat", None, "the cat"], 2) == [
        tok("the cat"),
        None,
        tok("the cat"),
    ]
    with caplog.at_level(logging.WARNING, logger="rapidbleu"):
        first = get_python_tokenizer("spm", spm_model=models["unigram"])
        second = get_python_tokenizer("spm", spm_model=models["unigram"])
    assert first is second
    assert len(caplog.records) == 2  # sacreBLEU warns for every 'spm' tokenizer it builds
    # A model file replaced in place gets a new tokenizer.
    copy = models["bpe"].parent / "copy.model"
    copy.write_bytes(models["bpe"].read_bytes())
    before = get_python_tokenizer("flores200", spm_model=copy)
    copy.write_bytes(models["unigram"].read_bytes())
    os.utime(copy, ns=(0, 0))
    after = get_python_tokenizer("flores200", spm_model=copy)
    assert after is not before
    line = "the cat sat on a mat"
    assert after(line) == _ours("flores200", models["unigram"])(line)


def test_corrupt_model_says_where_to_put_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"\x00not a model")
    with pytest.raises(InvalidOptionError) as e:
        TokenizerSPM("flores200", spm_model=bad)
    message = str(e.value)
    assert "corrupt" in message and SPM_MODELS["flores200"]["url"] in message
    assert repr(model_path_for("flores200")) in message and "spm_model=" in message


def test_pickle_keeps_the_backend(models: dict[str, Path]) -> None:
    for backend in ("python", "engine"):
        tok = pickle.loads(pickle.dumps(_ours("flores101", models["unigram"], backend)))
        assert tok.backend == backend
        assert tok.tokenize_batch(["the cat"]) == [tok("the cat")]
