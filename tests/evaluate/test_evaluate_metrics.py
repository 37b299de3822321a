"""evaluate's MT metrics (``rapidbleu.evaluate``) against evaluate's documented examples and the
oracles evaluate's scripts call: sacreBLEU 2.6.0 (``sacrebleu``, ``chrf``, ``ter``) and NLTK's
``corpus_gleu`` on evaluate's 13a tokens (``google_bleu``), with ``==`` on the output dicts.

The oracle functions below transcribe the ``_compute`` bodies of huggingface/evaluate's
``metrics/<name>/<name>.py`` (the scripts live on the Hub; evaluate downloads them at load
time, so they are transcribed here). The loading scripts are run through the real
``evaluate.load(path)``, offline.
"""

from __future__ import annotations

import os
from typing import Any

import evaluate
import pytest
import sacrebleu as scb
from conftest import DATA, corpora, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import gleu_score
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from rapidbleu import errors
from rapidbleu import evaluate as rb_evaluate

# --- transcriptions of evaluate's _compute (metrics/<name>/<name>.py) -------------------------


def _transpose(references: Any) -> list[list[str]]:
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    n = len(references[0])
    if any(len(refs) != n for refs in references):
        raise ValueError("Sacrebleu requires the same number of references for each prediction")
    return [[refs[i] for refs in references] for i in range(n)]


def oracle_sacrebleu(predictions: Any, references: Any, tokenize: Any = None, **kw: Any) -> Any:
    output = scb.corpus_bleu(
        predictions, _transpose(references), **kw, **(dict(tokenize=tokenize) if tokenize else {})
    )
    return {
        "score": output.score,
        "counts": output.counts,
        "totals": output.totals,
        "precisions": output.precisions,
        "bp": output.bp,
        "sys_len": output.sys_len,
        "ref_len": output.ref_len,
    }


def _evaluate_13a(line: str) -> list[str]:
    # evaluate's google_bleu/tokenizer_13a.py: sacreBLEU's 13a with `return line.split()`.
    return Tokenizer13a()(line).split()


def oracle_google_bleu(
    predictions: Any,
    references: Any,
    tokenizer: Any = _evaluate_13a,
    min_len: int = 1,
    max_len: int = 4,
) -> Any:
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    references = [[tokenizer(r) for r in ref] for ref in references]
    predictions = [tokenizer(p) for p in predictions]
    return {
        "google_bleu": gleu_score.corpus_gleu(
            list_of_references=references,
            hypotheses=predictions,
            min_len=min_len,
            max_len=max_len,
        )
    }


def oracle_chrf(predictions: Any, references: Any, **kw: Any) -> Any:
    output = scb.CHRF(**kw).corpus_score(predictions, _transpose(references))
    return {
        "score": output.score,
        "char_order": output.char_order,
        "word_order": output.word_order,
        "beta": output.beta,
    }


def oracle_ter(predictions: Any, references: Any, normalized: bool = False,
               ignore_punct: bool = False, support_zh_ja_chars: bool = False,
               case_sensitive: bool = False) -> Any:  # fmt: skip
    output = scb.TER(
        normalized=normalized, no_punct=ignore_punct, asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    ).corpus_score(predictions, _transpose(references))  # fmt: skip
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


ORACLES = {
    "sacrebleu": oracle_sacrebleu,
    "google_bleu": oracle_google_bleu,
    "chrf": oracle_chrf,
    "ter": oracle_ter,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``evaluate.load(path)`` of rapidbleu's loading scripts, offline, with a private cache."""
    cache = tmp_path_factory.mktemp("hf")
    old = {k: os.environ.get(k) for k in ("HF_EVALUATE_OFFLINE", "HF_HOME", "HF_MODULES_CACHE")}
    os.environ.update(
        HF_EVALUATE_OFFLINE="1", HF_HOME=str(cache), HF_MODULES_CACHE=str(cache / "modules")
    )
    yield lambda name: evaluate.load(rb_evaluate.script_path(name))
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def _both(hub: Any, name: str, **kw: Any) -> list[Any]:
    """rapidbleu's function, its load().compute() and evaluate.load(script).compute()."""
    return [
        rb_evaluate.load(name).compute(**kw),
        rb_evaluate.METRICS[name](**kw),
        hub(name).compute(**kw),
    ]


# --- evaluate's documented examples --------------------------------------------------------

DUCK = [
    "It is a guide to action which ensures that the rubber duck always disobeys the commands "
    "of the cat",
    "he read the book because he was interested in world history",
]
DUCK_REF1 = [
    [
        "It is the guiding principle which guarantees the rubber duck forces never being under "
        "the command of the cat"
    ],
    ["he was interested in world history because he read the book"],
]
DUCK_REF3 = [
    [
        DUCK_REF1[0][0],
        "It is a guide to action that ensures that the rubber duck will never heed the cat "
        "commands",
        "It is the practical guide for the rubber duck army never to heed the directions of the "
        "cat",
    ],
    DUCK_REF1[1],
]


def test_sacrebleu_documented_examples(hub: Any) -> None:
    ex1 = {
        "predictions": ["hello there general kenobi", "foo bar foobar"],
        "references": [
            ["hello there general kenobi", "hello there !"],
            ["foo bar foobar", "foo bar foobar"],
        ],
    }
    ex2 = {
        "predictions": ["hello there general kenobi", "on our way to ankh morpork"],
        "references": [
            ["hello there general kenobi", "hello there !"],
            ["goodbye ankh morpork", "ankh morpork"],
        ],
    }
    for ex, expected in ((ex1, 100.0), (ex2, 39.8)):
        for results in _both(hub, "sacrebleu", **ex):
            assert list(results) == ["score", "counts", "totals", "precisions", "bp", "sys_len",
                                     "ref_len"]  # fmt: skip
            assert round(results["score"], 1) == expected
            assert results == oracle_sacrebleu(**ex)


@pytest.mark.parametrize(
    ("refs", "kw", "expected"),
    [
        (DUCK_REF1, {}, 0.44),
        (DUCK_REF3, {}, 0.61),
        (DUCK_REF3, {"min_len": 2}, 0.53),
        (DUCK_REF3, {"min_len": 2, "max_len": 6}, 0.4),
    ],
    ids=["example1", "example2", "example3", "example4"],
)
def test_google_bleu_documented_examples(hub: Any, refs: Any, kw: Any, expected: float) -> None:
    for results in _both(hub, "google_bleu", predictions=DUCK, references=refs, **kw):
        assert list(results) == ["google_bleu"]
        assert round(results["google_bleu"], 2) == expected
        assert results == oracle_google_bleu(DUCK, refs, **kw)


# --- parity with the oracles on generated and real data ---------------------------------------

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "sacrebleu": [{}, {"tokenize": "intl", "lowercase": True}, {"smooth_method": "floor"},
                  {"use_effective_order": True, "smooth_method": "add-k", "smooth_value": 2}],
    "google_bleu": [{}, {"min_len": 2}, {"max_len": 2}, {"min_len": 3, "max_len": 6},
                    {"min_len": 5, "max_len": 2}],
    "chrf": [{}, {"word_order": 2}, {"lowercase": True, "whitespace": True, "beta": 3}],
    "ter": [{}, {"normalized": True, "ignore_punct": True}, {"case_sensitive": True}],
}  # fmt: skip


@pytest.mark.parametrize("name", list(ORACLES))
def test_generated_corpora_equal_the_oracle(name: str) -> None:
    @settings(max_examples=examples(60))
    @given(st.integers(1, 3).flatmap(lambda n: corpora(n, allow_none=False)), st.data())
    def check(corpus: Any, data: st.DataObject) -> None:
        hyps, streams = corpus
        refs = [[s[i] for s in streams] for i in range(len(hyps))]
        kw = data.draw(st.sampled_from(OPTIONS[name]))
        assert rb_evaluate.METRICS[name](hyps, refs, **kw) == ORACLES[name](hyps, refs, **kw)

    check()


@pytest.mark.parametrize("name", list(ORACLES))
def test_real_data_equals_the_oracle(name: str, hub: Any) -> None:
    d = DATA / "wmt22.en-de"
    hyps = read_lines(d / "hyp.PROMT.de")
    refs = list(zip(read_lines(d / "ref.A.de"), read_lines(d / "ref.B.de")))
    for kw in OPTIONS[name][:2]:
        expected = ORACLES[name](hyps, [list(r) for r in refs], **kw)
        for results in _both(hub, name, predictions=hyps, references=refs, **kw):
            assert results == expected
    # one reference per prediction, given as a plain str
    singles = [r[0] for r in refs]
    assert rb_evaluate.METRICS[name](hyps, singles) == ORACLES[name](hyps, singles)


def test_google_bleu_custom_tokenizer_and_ties() -> None:
    preds = ["a b c d", "x y"]
    refs = [["a b c e", "a b c f", "a b c d"], ["y x", "x y z"]]
    for tok in (str.split, list, lambda s: s.lower().split()):
        assert rb_evaluate.google_bleu(preds, refs, tokenizer=tok) == oracle_google_bleu(
            preds, refs, tokenizer=tok
        )


# --- bad input -----------------------------------------------------------------------------


def test_errors() -> None:
    with pytest.raises(errors.InputError, match="same number of references"):
        rb_evaluate.sacrebleu(["a", "b"], [["a"], ["b", "c"]])
    with pytest.raises(ValueError):  # evaluate raises ValueError here too
        rb_evaluate.sacrebleu(["a", "b"], [["a"], ["b", "c"]])
    with pytest.raises(errors.InvalidOptionError, match="unknown metric 'bleurt'"):
        rb_evaluate.load("bleurt")
    with pytest.raises(errors.InvalidOptionError, match="min_len"):
        rb_evaluate.google_bleu(["a"], [["a"]], min_len=0)
    with pytest.raises(errors.EmptyInputError):
        rb_evaluate.google_bleu([], [])
    with pytest.raises(errors.InputTypeError):
        rb_evaluate.sacrebleu("a b", ["a b"])
    with pytest.raises(errors.InvalidOptionError):
        rb_evaluate.sacrebleu(["a"], [["a"]], tokenize="bogus")


def test_one_list_of_metric_names() -> None:
    # METRICS is the list; the accelerator's table and the loading scripts are checked against
    # it (the accelerator's module of targets imports nothing of rapidbleu's metrics).
    from importlib import resources

    from rapidbleu.accelerate.targets import EVALUATE

    scripts = resources.files("rapidbleu.evaluate") / "scripts"
    found = {p.name[:-3] for p in scripts.iterdir() if p.name.endswith(".py")} - {"__init__"}
    assert set(rb_evaluate.METRICS) == EVALUATE == found
