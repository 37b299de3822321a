"""Issue 25 on the API: what an adversarial tester and a new user hit on the first day.

Each test is named after its finding (docs/notes/reliability.md has the table); the command's
findings are in ``test_first_day_cli.py``, reference nesting in ``test_reference_nesting.py``.
"""

from __future__ import annotations

import pytest

from rapidbleu import errors
from rapidbleu.analysis import selfbleu


def test_finding_2_self_bleu_fast_bleu_is_refused_and_renamed() -> None:
    samples = [["X"], ["a", "X"], ["b", "c", "X"]]
    with pytest.raises(errors.InvalidOptionError, match=r"uninitialised memory.*fast-bleu-fixed"):
        selfbleu.self_bleu(samples, "fast-bleu")
    # The defined value: the first sample's brevity penalty against its closest other (2).
    # fast-bleu 0.0.90 prints 0.1470 here, having taken a stray length from its stack.
    scores = selfbleu.self_bleu_scores(samples, "fast-bleu-fixed").tolist()
    assert (
        round(scores[0], 4) == 0.0654
        and round(selfbleu.self_bleu(samples, "fast-bleu-fixed"), 4) == 0.1095
    )


def test_finding_2_fast_bleu_fixed_equals_fast_bleu_where_it_is_defined() -> None:
    """Where no stray length can be the closest one, fast-bleu's own number, with ``==``."""
    from fast_bleu import SelfBLEU

    # Every sample has another within distance 0 of its length: no stray value is closer.
    samples = [["a", "b", "c"], ["a", "b", "d"], ["x", "y"], ["x", "z"], ["b", "c", "d", "e"]]
    samples.append(["c", "d", "e", "f"])
    want = SelfBLEU(samples, {"w": (0.25,) * 4}, smoothing_func=1).get_score()["w"]
    assert selfbleu.self_bleu_scores(samples, "fast-bleu-fixed").tolist() == want


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none", "ja-mecab", None])
def test_finding_4_bleu_tokenizer_is_sacrebleus(tokenize: str | None) -> None:
    import sacrebleu

    import rapidbleu

    line = "Hello, world! 3.5$ «中文» 吾輩は猫である。"
    ours, theirs = rapidbleu.BLEU(tokenize=tokenize), sacrebleu.BLEU(tokenize=tokenize)
    assert ours.tokenizer(line) == theirs.tokenizer(line)
    assert ours.tokenizer.signature() == theirs.tokenizer.signature()
    assert rapidbleu.BLEU().tokenizer("Hello, world!") == "Hello , world !"
    # TER had it already; sacreBLEU's chrF has none.
    assert rapidbleu.TER().tokenizer(line) == sacrebleu.TER().tokenizer(line)
