"""The ``>>>`` examples of docs/torch.md print what they say."""

from __future__ import annotations

import doctest
import warnings
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "torch.md"


def test_torch_doc_examples() -> None:
    # A code fence right after an output line would read as output: end each block first.
    text = DOC.read_text(encoding="utf-8").replace("\n```", "\n\n```")
    test = doctest.DocTestParser().get_doctest(text, {}, "torch.md", str(DOC), 0)
    runner = doctest.DocTestRunner()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 10
    assert result.failed == 0
