"""Without NLTK's ``punkt_tab``, ``--rouge-split-summaries`` is a named error, not a bug report.

rouge-score (``nltk.sent_tokenize``) raises NLTK's ``LookupError``; rapidbleu's API raises
:class:`MissingResourceError`, which is that ``LookupError`` too, and the command prints one
line and exits 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nltk
import pytest
from clitools import ours
from nltk.tokenize import _get_punkt_tokenizer
from rouge_score import rouge_scorer

from rapidbleu.errors import MissingDependencyError, MissingResourceError
from rapidbleu.metrics.rouge.rouge_scorer import RougeScorer


@pytest.fixture
def no_punkt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """NLTK searching only an empty folder, with no Punkt model loaded before."""
    empty = tmp_path / "nltk_data"
    empty.mkdir()
    monkeypatch.setattr(nltk.data, "path", [str(empty)])
    # NLTK keeps each language's Punkt tokenizer once loaded (another test may have loaded one).
    _get_punkt_tokenizer.cache_clear()
    yield tmp_path
    _get_punkt_tokenizer.cache_clear()


def test_the_api_raises_what_rouge_score_raises_and_names_it(no_punkt: Path) -> None:
    real = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    with pytest.raises(LookupError):
        real.score("a. b", "a b")
    fast = RougeScorer(["rougeLsum"], split_summaries=True)
    with pytest.raises(MissingResourceError, match="punkt_tab") as caught:
        fast.score("a. b", "a b")
    assert isinstance(caught.value, LookupError)
    assert isinstance(caught.value, MissingDependencyError)


def test_the_command_prints_one_line_and_fails(
    no_punkt: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (no_punkt / "r.txt").write_text("a b. c\nd\n", "utf-8")
    (no_punkt / "h.txt").write_text("a. b\nc d\n", "utf-8")
    argv = ["r.txt", "-i", "h.txt", "-m", "rouge", "--rouge-split-summaries"]
    rc, out, err = ours(argv, no_punkt, capsys)
    assert (rc, out) == (1, "")
    assert err.count("\n") == 1 and "punkt_tab" in err and "internal error" not in err
