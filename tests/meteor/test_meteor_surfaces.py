"""METEOR's other surfaces against NLTK 3.10.4 with ``==``: text with ``tokenize="nltk"``
(NLTK's ``word_tokenize``), WordNet read from NLTK's ``wordnet.zip``, evaluate's ``meteor``,
``nltk.translate.meteor_score`` served by rapidbleu (in-process and in accelerator mode), and
the command's METEOR options.

``word_tokenize`` needs NLTK's ``punkt_tab`` model, which no PyPI package ships: the tests
write an English model of their own (a few abbreviations) into a temporary NLTK data root.
NLTK's ``word_tokenize`` and rapidbleu read the same model, so the tokens are compared as NLTK
makes them; a model's contents change where sentences end, not whether the two agree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clitools import ours
from conftest import DATA, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from nltk.translate.meteor_score import meteor_score, single_meteor_score

from rapidbleu import evaluate as rb_evaluate
from rapidbleu.errors import InvalidOptionError, MissingDependencyError
from rapidbleu.metrics.meteor import METEOR
from rapidbleu.metrics.meteor import nltk as fast_nltk

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import wordnet_data

WMT = DATA / "wmt22.zh-en"
PUNCT = list(".,;:!?'\"()[]{}-–—…$%&*/\\@#`´‘’“”«»")
WORDS = "Mr. Dr. U.S. e.g. it's isn't can't cat cats Café naïve run running ran good better".split()
TEXT = st.lists(
    st.one_of(
        st.sampled_from(WORDS),
        st.sampled_from(PUNCT),
        st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=5),
    ),
    max_size=20,
).map(" ".join)


@pytest.fixture(scope="module")
def nltk_data(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An NLTK data root with WordNet (``scripts/wordnet_data.py``) and an English
    ``punkt_tab`` model, first on ``nltk.data.path``."""
    import nltk

    folder = wordnet_data.build()
    punkt = tmp_path_factory.mktemp("punkt")
    english = punkt / "tokenizers" / "punkt_tab" / "english"
    english.mkdir(parents=True)
    (english / "abbrev_types.txt").write_text("dr\nmr\nmrs\nu.s\ne.g\n", "utf-8")
    for name in ("collocations.tab", "sent_starters.txt", "ortho_context.tab"):
        (english / name).write_text("", "utf-8")
    roots = [str(punkt), str(folder.parent.parent)]
    old = list(nltk.data.path)
    nltk.data.path[:0] = roots
    yield roots
    nltk.data.path[:] = old


def _tok(text: str) -> list[str]:
    from nltk.tokenize import word_tokenize

    tokens: list[str] = word_tokenize(text)
    return tokens


# --- text with NLTK's word_tokenize -----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(hyp=TEXT, refs=st.lists(TEXT, min_size=1, max_size=3))
def test_nltk_tokenizer_generated(nltk_data: Any, hyp: str, refs: list[str]) -> None:
    m = METEOR(tokenize="nltk")
    want = meteor_score([_tok(r) for r in refs], _tok(hyp))
    assert m.sentence_score(hyp, refs).meteor == want
    assert m.sentence_scores([hyp], [[r] for r in refs]).tolist() == [want]


def test_nltk_tokenizer_real_text(nltk_data: Any) -> None:
    hyps = read_lines(WMT / "hyp.NiuTrans.en")[:300]
    ra, rb = read_lines(WMT / "ref.A.en")[:300], read_lines(WMT / "ref.B.en")[:300]
    m = METEOR(tokenize="nltk")
    for streams in ([ra], [ra, rb]):
        want = [meteor_score([_tok(r) for r in refs], _tok(h)) for h, *refs in zip(hyps, *streams)]
        assert m.sentence_scores(hyps, streams).tolist() == want
        assert m.corpus_score(hyps, streams).meteor == np.mean(want)
    cached = METEOR(tokenize="nltk", references=[ra, rb])
    assert cached.score_totals(cached.total(cached.statistics(hyps))).meteor == np.mean(
        [meteor_score([_tok(a), _tok(b)], _tok(h)) for h, a, b in zip(hyps, ra, rb)]
    )


def test_nltk_tokenizer_errors(nltk_data: Any, tmp_path: Path, monkeypatch: Any) -> None:
    import nltk

    with pytest.raises(InvalidOptionError, match="tokenize must be one of"):
        METEOR(tokenize="13a")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    with pytest.raises(MissingDependencyError, match=r"punkt_tab.*nltk\.downloader punkt_tab"):
        METEOR(tokenize="nltk", wordnet=False)


# --- WordNet from NLTK's wordnet.zip -----------------------------------------------------------


@pytest.fixture(scope="module")
def zipped(nltk_data: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<root>/corpora/wordnet.zip`` holding ``wordnet/<files>``, as NLTK's downloader
    leaves it."""
    root = tmp_path_factory.mktemp("zipped")
    (root / "corpora").mkdir()
    folder = Path(nltk_data[1]) / "corpora" / "wordnet"
    with zipfile.ZipFile(root / "corpora" / "wordnet.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("wordnet/", "")
        for f in sorted(folder.iterdir()):
            if f.is_file() and not f.name.startswith("."):
                z.write(f, f"wordnet/{f.name}")
    return root


def test_wordnet_zip_equals_nltk_reading_it(zipped: Path, monkeypatch: Any) -> None:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.data import ZipFilePathPointer

    archive = zipped / "corpora" / "wordnet.zip"
    found = [METEOR(wordnet=str(archive)), METEOR(wordnet=str(zipped))]
    # Found as NLTK finds it: a data root holding corpora/wordnet.zip (no folder anywhere);
    # NLTK's pathsec reads a zip only under a root of nltk.data.path.
    monkeypatch.setattr(nltk.data, "path", [str(zipped)])
    wn = WordNetCorpusReader(ZipFilePathPointer(str(archive), "wordnet/"), None)
    monkeypatch.setenv("NLTK_DATA", "")
    monkeypatch.setenv("HOME", str(zipped))
    found.append(METEOR())
    for m in found:
        assert m.wordnet == str(archive / "wordnet")
    hyps = [h.split() for h in read_lines(WMT / "hyp.NiuTrans.en")[:200]]
    refs = [[r.split()] for r in read_lines(WMT / "ref.A.en")[:200]]
    want = [meteor_score(r, h, wordnet=wn) for h, r in zip(hyps, refs)]
    for m in found:
        assert m.token_scores(hyps, refs).tolist() == want
    # Synonyms only (no stem stage): words whose matches come from WordNet's synsets.
    words = "car auto automobile machine big large great good well near close dog hound".split()
    syn = METEOR(stem=False, wordnet=str(archive))
    want = [meteor_score([[a]], [b], stemmer=Stem0(), wordnet=wn) for a in words for b in words]
    assert (
        syn.token_scores(
            [[b] for a in words for b in words], [[[a]] for a in words for b in words]
        ).tolist()
        == want
    )


class Stem0:
    def stem(self, word: str) -> str:
        return word


def test_folder_before_zip_and_missing(zipped: Path, nltk_data: Any, tmp_path: Path) -> None:
    # nltk.data.find tries corpora/wordnet under every root before any wordnet.zip.
    from rapidbleu._core import MeteorOptions

    both = MeteorOptions.find_wordnet([str(zipped), nltk_data[1]], defaults=False)
    assert both == str(Path(nltk_data[1]) / "corpora" / "wordnet")
    with pytest.raises(MissingDependencyError, match=r"wordnet\.zip"):
        METEOR(wordnet=str(tmp_path))
    bad = tmp_path / "wordnet.zip"
    bad.write_bytes(b"not a zip")
    with pytest.raises(MissingDependencyError, match=r"nltk\.downloader wordnet"):
        METEOR(wordnet=str(bad))


# --- evaluate's meteor ---------------------------------------------------------------------------


def oracle_evaluate_meteor(predictions: Any, references: Any, **kw: Any) -> dict[str, Any]:
    """evaluate's metrics/meteor/meteor.py ``_compute`` (NLTK >= 3.6.5), transcribed."""
    multiple_refs = isinstance(references[0], list)
    if multiple_refs:
        scores = [
            meteor_score([_tok(ref) for ref in refs], _tok(pred), **kw)
            for refs, pred in zip(references, predictions)
        ]
    else:
        scores = [
            single_meteor_score(_tok(ref), _tok(pred), **kw)
            for ref, pred in zip(references, predictions)
        ]
    return {"meteor": np.mean(scores)}


def test_evaluate_meteor(nltk_data: Any, tmp_path: Path) -> None:
    hyps = read_lines(WMT / "hyp.NiuTrans.en")[:200]
    ra, rb = read_lines(WMT / "ref.A.en")[:200], read_lines(WMT / "ref.B.en")[:200]
    pairs = [list(x) for x in zip(ra, rb)]
    for refs, kw in ((ra, {}), (pairs, {}), (pairs, {"alpha": 0.5, "beta": 2, "gamma": 0.2})):
        want = oracle_evaluate_meteor(hyps, refs, **kw)
        got = rb_evaluate.load("meteor").compute(predictions=hyps, references=refs, **kw)
        assert got == want and type(got["meteor"]) is type(want["meteor"])
    # The documented example of evaluate's meteor card.
    predictions = [
        "It is a guide to action which ensures that the military always obeys the commands of "
        "the party"
    ]
    references = [
        [
            "It is a guide to action that ensures that the military will forever heed Party "
            "commands",
            "It is the guiding principle which guarantees the military forces always being under "
            "the command of the Party",
            "It is the practical guide for the army always to heed the directions of the party",
        ]
    ]
    got = rb_evaluate.METRICS["meteor"](predictions, references)
    assert got == oracle_evaluate_meteor(predictions, references)
    assert round(float(got["meteor"]), 4) == 0.6944  # the card's value


# --- nltk.translate.meteor_score ------------------------------------------------------------------


class Stem:
    def stem(self, word: str) -> str:
        return word[:3]


@settings(max_examples=50, deadline=None)
@given(
    hyp=st.lists(st.sampled_from([*WORDS, "the", "a", "sat", "sits"]), max_size=12),
    refs=st.lists(
        st.lists(st.sampled_from([*WORDS, "the", "sat"]), max_size=12), min_size=1, max_size=3
    ),
)
def test_nltk_module_functions(nltk_data: Any, hyp: list[str], refs: list[list[str]]) -> None:
    assert fast_nltk.meteor_score(refs, hyp) == meteor_score(refs, hyp)
    assert fast_nltk.single_meteor_score(refs[0], hyp) == single_meteor_score(refs[0], hyp)
    # Fallbacks to NLTK's own function: another stemmer, preprocess, or token type.
    assert fast_nltk.meteor_score(refs, hyp, stemmer=Stem()) == meteor_score(
        refs, hyp, stemmer=Stem()
    )
    assert fast_nltk.meteor_score(refs, hyp, preprocess=str.upper) == meteor_score(
        refs, hyp, preprocess=str.upper
    )
    assert fast_nltk.meteor_score(refs, hyp, alpha=0.5, beta=1, gamma=0.1) == meteor_score(
        refs, hyp, alpha=0.5, beta=1, gamma=0.1
    )
    ps = PorterStemmer(PorterStemmer.ORIGINAL_ALGORITHM)
    assert fast_nltk.meteor_score(refs, hyp, stemmer=ps) == meteor_score(refs, hyp, stemmer=ps)


def test_nltk_module_errors_are_nltks(nltk_data: Any) -> None:
    for args in (([], ["a"]), ([["a"]], "a b")):
        with pytest.raises((TypeError, ValueError)) as ours_e:
            fast_nltk.meteor_score(*args)
        with pytest.raises((TypeError, ValueError)) as want_e:
            meteor_score(*args)
        assert (type(ours_e.value), str(ours_e.value)) == (type(want_e.value), str(want_e.value))
    assert fast_nltk.meteor_score([["\ud800"]], ["\ud800"]) == meteor_score(
        [["\ud800"]], ["\ud800"]
    )


def test_accelerator_mode(nltk_data: Any, tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text(
        "import json, sys\n"
        "import nltk\n"
        f"nltk.data.path[:0] = {nltk_data!r}\n"
        "from nltk.translate import meteor_score as ms\n"
        "from nltk.translate.meteor_score import meteor_score, align_words\n"
        "h = 'the cats sat on the mat'.split(); r = 'a cat sits on a mat'.split()\n"
        "print(json.dumps([meteor_score([r], h), ms.single_meteor_score(r, h),\n"
        "    len(align_words(h, r)[0]), type(ms.meteor_score).__module__,\n"
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
    assert plain[:3] == fast[:3] and plain[4] is False and fast[4] is True


# --- the command -------------------------------------------------------------------------------


def test_command_line_options(
    nltk_data: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    hyp, ref = read_lines(WMT / "hyp.NiuTrans.en")[:50], read_lines(WMT / "ref.A.en")[:50]
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(hyp) + "\n", "utf-8")
    monkeypatch.setenv("NLTK_DATA", os.pathsep.join(nltk_data))
    base = ["ref.txt", "-i", "hyp.txt", "-m", "meteor", "--meteor-tokenize", "nltk"]
    want = [meteor_score([_tok(r)], _tok(h), alpha=0.8) for h, r in zip(hyp, ref)]
    rc, out, err = ours([*base, "--meteor-alpha", "0.8", "-w", "16"], tmp_path, capsys)
    assert rc == 0, err
    assert json.loads(out)["score"] == round(100 * np.mean(want), 16)
    rc, out, err = ours([*base, "--meteor-alpha", "0.8", "-sl", "-w", "16"], tmp_path, capsys)
    assert rc == 0, err
    lines = [float(x.rsplit(" = ", 1)[1]) for x in out.splitlines() if " = " in x]
    assert lines[: len(want)] == [float(f"{100 * w:.16f}") for w in want]
    items = tmp_path / "items.jsonl"
    items.write_text(
        "".join(json.dumps({"prediction": h, "reference": r}) + "\n" for h, r in zip(hyp, ref)),
        "utf-8",
    )
    argv = ["--jsonl", str(items), "--per-item", "-m", "meteor", "-f", "text", "-w", "16"]
    rc, out, err = ours(argv, tmp_path, capsys)
    assert rc == 0, err
    got = [float(x.rsplit(" = ", 1)[1]) for x in out.splitlines() if " = " in x]
    plain = [meteor_score([r.split()], h.split()) for h, r in zip(hyp, ref)]
    # The text line shows the score (100 * the mean) over --scale unit's divisor, 100.
    assert got == [float(f"{100 * p / 100:.16f}") for p in plain]
    # JSON lines: each item's value is NLTK's meteor_score itself (the 0..1 scale).
    rc, out, err = ours(argv[:5], tmp_path, capsys)
    assert rc == 0, err
    assert [json.loads(line)["meteor"] for line in out.splitlines()] == plain
