"""sacreBLEU's module-level names that user code imports, under ``import rapidbleu as sacrebleu``
and the drop-in namespace ``rapidbleu.sacrebleu``, against sacreBLEU 2.6.0 itself.
"""

from __future__ import annotations

import gzip
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
import tomllib
from conftest import PIECES, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from packaging import version

import rapidbleu
import rapidbleu.sacrebleu as drop_in
from rapidbleu.extras import EXTRAS, install_hint
from rapidbleu.sacrebleu import SUBMODULES

TOKENIZERS = [
    ("tokenizer_13a", "Tokenizer13a"),
    ("tokenizer_intl", "TokenizerV14International"),
    ("tokenizer_zh", "TokenizerZh"),
    ("tokenizer_char", "TokenizerChar"),
    ("tokenizer_none", "NoneTokenizer"),
]
TEXT = st.lists(st.sampled_from([*PIECES, " ", "  "]), max_size=12).map("".join)


def test_version_passes_client_checks_and_names_rapidbleu() -> None:
    # evaluate's sacrebleu metric: `version.parse(scb.__version__) < version.parse("1.4.12")`.
    assert version.parse(drop_in.__version__) >= version.parse("1.4.12")
    assert version.parse(drop_in.__version__).public == sacrebleu.__version__ == "2.6.0"
    assert drop_in.__version__ == rapidbleu.SIGNATURE_VERSION
    assert version.parse(drop_in.__version__).local == f"rapidbleu.{rapidbleu.__version__}"
    assert rapidbleu.__version__ == importlib.import_module("rapidbleu.version").__version__
    assert drop_in.version.__version__ == drop_in.__version__
    # The score's signature still says who computed it.
    bleu = drop_in.BLEU()
    bleu.corpus_score(["a b c"], [["a b c"]])
    assert str(bleu.get_signature()).endswith(f"version:{drop_in.__version__}")


@pytest.mark.parametrize("namespace", [rapidbleu, drop_in], ids=["rapidbleu", "drop-in"])
def test_module_level_names(namespace: object) -> None:
    sb = namespace
    assert sb.DEFAULT_TOKENIZER == "13a"  # type: ignore[attr-defined]
    for name in sacrebleu.__all__:
        if name == "DATASETS":
            assert getattr(sb, name) is sacrebleu.DATASETS
            continue
        assert hasattr(sb, name), name
    assert sb.utils.smart_open is sb.smart_open  # type: ignore[attr-defined]
    assert sb.metrics.helpers.extract_word_ngrams is sb.extract_word_ngrams  # type: ignore[attr-defined]
    for module, cls in TOKENIZERS:
        assert callable(getattr(getattr(sb.tokenizers, module), cls))  # type: ignore[attr-defined]


@pytest.mark.parametrize("rel", sorted(SUBMODULES))
def test_drop_in_module_paths(rel: str) -> None:
    assert importlib.import_module(f"rapidbleu.sacrebleu.{rel}") is SUBMODULES[rel]
    # every name sacreBLEU's module of that path defines publicly that rapidbleu has is there
    theirs = importlib.import_module(f"sacrebleu.{rel}")
    for name in getattr(theirs, "__all__", []):
        assert hasattr(SUBMODULES[rel], name), f"{rel}.{name}"


def test_drop_in_compat_path() -> None:
    from rapidbleu.sacrebleu.compat import corpus_bleu

    assert corpus_bleu is rapidbleu.corpus_bleu


@pytest.mark.parametrize(("module", "cls"), TOKENIZERS)
def test_tokenizer_classes_equal_sacrebleus(module: str, cls: str) -> None:
    ours = getattr(importlib.import_module(f"rapidbleu.tokenizers.{module}"), cls)()
    theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    assert ours.signature() == theirs.signature()

    @settings(max_examples=examples(200))
    @given(TEXT)
    def check(line: str) -> None:
        assert ours(line) == theirs(line)

    check()


@settings(max_examples=examples(200))
@given(TEXT, st.integers(1, 5), st.booleans())
def test_ngram_helpers_equal_sacrebleus(line: str, n: int, whitespace: bool) -> None:
    from sacrebleu.metrics import helpers as theirs

    from rapidbleu.metrics import helpers as ours

    tokens = line.split()
    assert ours.extract_word_ngrams(tokens, n) == theirs.extract_word_ngrams(tokens, n)
    assert ours.extract_all_word_ngrams(line, 1, n) == theirs.extract_all_word_ngrams(line, 1, n)
    assert ours.extract_char_ngrams(line, n, whitespace) == theirs.extract_char_ngrams(
        line, n, whitespace
    )
    assert ours.extract_all_char_ngrams(line, n, whitespace) == theirs.extract_all_char_ngrams(
        line, n, whitespace
    )


def test_smart_open_equals_sacrebleus(tmp_path: Path) -> None:
    text = "a\rb\u2028c\r\nd\n"
    (tmp_path / "x.txt").write_bytes(text.encode())
    (tmp_path / "x.txt.gz").write_bytes(gzip.compress(text.encode()))
    for name in ("x.txt", "x.txt.gz"):
        with (
            rapidbleu.smart_open(str(tmp_path / name)) as f,
            sacrebleu.smart_open(str(tmp_path / name)) as g,
        ):
            assert list(f) == list(g)


def test_import_rapidbleu_imports_no_optional_package() -> None:
    code = (
        "import sys, rapidbleu, rapidbleu.sacrebleu, rapidbleu.utils, rapidbleu.datasets;"
        "import rapidbleu.evaluate, rapidbleu.dialects.nltk;"
        "bad = {'sacrebleu', 'evaluate', 'datasets', 'nltk', 'MeCab', 'sentencepiece'}"
        " & {m.split('.')[0] for m in sys.modules};"
        "print(sorted(bad)); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_extras_match_pyproject() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text("utf-8"))["project"]["optional-dependencies"]
    for extra, requirements in EXTRAS.items():
        assert tuple(declared[extra]) == requirements, extra
        assert f'pip install ".[{extra}]"' in install_hint(extra)


def test_tokenizer_registry_is_sacrebleus_table() -> None:
    """The registry lists sacreBLEU's tokenizers, in its order, each at its class's path."""
    from sacrebleu.metrics.bleu import _TOKENIZERS

    from rapidbleu import _core
    from rapidbleu.tokenizers.registry import RUST_TOKENIZERS, TOKENIZERS, tokenizer_class

    assert list(TOKENIZERS) == list(_TOKENIZERS) == list(rapidbleu.BLEU.TOKENIZERS)
    for name, path in _TOKENIZERS.items():
        module, cls = path.split(".")
        ours = getattr(importlib.import_module(f"rapidbleu.tokenizers.{module}"), cls)
        assert tokenizer_class(name) is ours, name
    assert list(RUST_TOKENIZERS) == list(_core.TOKENIZERS)
