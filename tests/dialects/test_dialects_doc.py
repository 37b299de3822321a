"""The worked examples of docs/dialects.md print what they say."""

from __future__ import annotations

import doctest
import warnings
from pathlib import Path

import rapidbleu

DOC = Path(__file__).resolve().parents[2] / "docs" / "dialects.md"


def test_dialects_doc_examples() -> None:
    globs = {
        "rapidbleu": rapidbleu,
        "hyps": [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10]],
        "refs": [[[1, 2, 3, 4, 5, 9], [1, 2, 3]], [[7, 8, 9, 11, 12], [7, 8, 9]]],
    }
    # A code fence right after an output line would read as output: end each block first.
    text = DOC.read_text(encoding="utf-8").replace("\n```", "\n\n```")
    test = doctest.DocTestParser().get_doctest(text, globs, "dialects.md", str(DOC), 0)
    runner = doctest.DocTestRunner()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 9
    assert result.failed == 0
