"""Issue 25 on the API: what an adversarial tester and a new user hit on the first day.

Each test is named after its finding (docs/notes/reliability.md has the table); the command's
findings are in ``test_first_day_cli.py``, reference nesting in ``test_reference_nesting.py``.
"""

from __future__ import annotations

import sys

import numpy as np
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


#: Values whose truth value sacreBLEU takes where rapidbleu used to refuse them.
_TRUTHY = [None, 2, "yes", "no", "", 0, 1, [], [0], 0.5, np.True_, np.int64(2)]
_FLAGS = [
    ("BLEU", ["lowercase", "force", "effective_order"], {}),
    ("CHRF", ["lowercase", "whitespace", "eps_smoothing"], {}),
    ("CHRF", ["lowercase", "whitespace", "eps_smoothing"], {"word_order": 2}),
    ("TER", ["normalized", "no_punct", "asian_support", "case_sensitive"], {}),
]


@pytest.mark.parametrize(("cls", "flags", "extra"), _FLAGS, ids=["bleu", "chrf", "chrf++", "ter"])
def test_finding_5_boolean_options_take_truth_value(
    cls: str, flags: list[str], extra: dict
) -> None:
    """Scores, signatures and attributes equal sacreBLEU's for any value of an on/off option."""
    import sacrebleu

    import rapidbleu

    hyps = ["The cat sat on the mat .", "A Dog ran，「中文」"]
    refs = [["the cat sat on a mat .", "a dog ran away,「中文」"]]
    for flag in flags:
        for value in _TRUTHY:
            kw = {flag: value, **extra}
            ours, theirs = getattr(rapidbleu, cls)(**kw), getattr(sacrebleu, cls)(**kw)
            a, b = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
            assert (a.score, str(a)) == (b.score, str(b)), kw
            sig = str(ours.get_signature()).split("|version:")[0]
            assert sig == str(theirs.get_signature()).split("|version:")[0], kw
            attr = "_force" if flag == "force" else flag  # sacreBLEU's name for it
            assert repr(getattr(ours, attr)) == repr(getattr(theirs, attr)), kw
            one, two = (
                ours.sentence_score(hyps[1], [refs[0][1]]),
                theirs.sentence_score(hyps[1], [refs[0][1]]),
            )
            assert one.score == two.score, kw
    with pytest.raises(errors.InvalidOptionError, match="truth value"):
        getattr(rapidbleu, cls)(**{flags[0]: np.array([1, 2])})


@pytest.mark.parametrize("value", _TRUTHY, ids=repr)
def test_finding_5_functional_flags_take_truth_value(value: object) -> None:
    import sacrebleu

    import rapidbleu

    hyps, refs = ["The cat sat on the mat .", "A Dog ran"], [["the cat sat on a mat .", "a dog"]]
    kw = {"force": value, "lowercase": value, "use_effective_order": value}
    assert (
        rapidbleu.corpus_bleu(hyps, refs, **kw).score
        == sacrebleu.corpus_bleu(hyps, refs, **kw).score
    )
    kw.pop("force")
    assert (
        rapidbleu.sentence_bleu(hyps[1], [refs[0][1]], **kw).score
        == sacrebleu.sentence_bleu(hyps[1], [refs[0][1]], **kw).score
    )
    args = ([3, 1, 0, 0], [4, 3, 2, 1], 4, 5)
    assert rapidbleu.BLEU.compute_bleu(*args, effective_order=value).score == (
        sacrebleu.BLEU.compute_bleu(*args, effective_order=value).score
    )
    flags = {"normalized": value, "no_punct": value, "asian_support": value}
    assert (
        rapidbleu.corpus_ter(hyps, refs, **flags).score
        == sacrebleu.corpus_ter(hyps, refs, **flags).score
    )
    assert rapidbleu.corpus_chrf(hyps, refs, eps_smoothing=value).score == (
        sacrebleu.corpus_chrf(hyps, refs, eps_smoothing=value).score
    )


@pytest.mark.parametrize(("tokenize", "module"), [("ja-mecab", "MeCab"), ("ko-mecab", "mecab_ko")])
def test_finding_7_mecab_missing_message_is_said_once(
    monkeypatch: pytest.MonkeyPatch, tokenize: str, module: str
) -> None:
    import rapidbleu
    from rapidbleu import tokenizers

    monkeypatch.setitem(sys.modules, module, None)  # "import MeCab" fails
    monkeypatch.setattr(tokenizers, "_MECAB", {})  # no tokenizer built before
    with pytest.raises(errors.MissingDependencyError) as e:
        rapidbleu.BLEU(tokenize=tokenize).corpus_score(["a"], [["a"]])
    message = str(e.value)
    assert message.count("install them with") == 1 and message.count("tokenizer needs") == 1
    assert message.startswith(f"the {tokenize!r} tokenizer needs") and "pip install" in message


@pytest.mark.parametrize(
    ("recipe", "missing", "packages"),
    [
        ("dask", "dask", 'pip install "dask[dataframe]" distributed'),
        ("spark", "pyspark", "pip install pyspark pyarrow"),
        ("spark", "pyarrow", "pip install pyspark pyarrow"),
    ],
)
def test_finding_8_recipes_name_their_extra(
    monkeypatch: pytest.MonkeyPatch, recipe: str, missing: str, packages: str
) -> None:
    import importlib

    import rapidbleu

    module = importlib.import_module(f"rapidbleu.distributed.recipes.{recipe}")
    monkeypatch.setitem(sys.modules, missing, None)  # as if it were not installed
    with pytest.raises(errors.MissingDependencyError) as e:
        module.corpus_score(None, rapidbleu.BLEU(), "hyp", "ref")
    assert packages in str(e.value) and f'pip install ".[{recipe}]"' in str(e.value)
    assert isinstance(e.value, ImportError)  # what `except ImportError` already caught


def test_finding_12_offline_message_names_the_cache_not_the_test_set() -> None:
    import sacrebleu.utils

    from rapidbleu import datasets

    text = datasets.offline_instructions("wmt17")
    assert text.endswith(f"(sacreBLEU's cache is $SACREBLEU, here {sacrebleu.utils.SACREBLEU_DIR})")
    assert "wmt17)" not in text
