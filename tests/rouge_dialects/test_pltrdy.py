"""The ``rouge`` package 1.0.1 and ``rouge-chinese`` 1.0.3 against rapidbleu's ``Rouge`` (``==``).

Both run side by side on the items of make_golden.py (generated text in many scripts, random
code points, empty strings, repeated words, several sentences; real lines of the WMT data,
Chinese segmented with jieba for rouge-chinese) and on hypothesis's full-Unicode text, for every
option that changes a result: ``metrics`` (orders, repeats, case), ``stats``, ``raw_results``,
``return_lengths``, ``exclusive``, ``avg``, ``ignore_empty``, one string or lists, and
``FilesRouge``. A result is compared whole (dict keys in order, ``int`` stays ``int``), an
exception by its type (``ValueError`` and kin) and message.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
import rouge
import rouge_chinese
from conftest import DATA, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu.metrics.rouge import chinese, pltrdy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_golden

PACKAGES = [(rouge.Rouge, pltrdy.Rouge), (rouge_chinese.Rouge, chinese.Rouge)]
ITEMS = make_golden.items(random.Random(39))
OPTIONS: list[dict[str, Any]] = [
    {},
    {"metrics": make_golden.METRICS},
    {"metrics": ["rouge-l", "ROUGE-1", "rouge-1"], "stats": ["F"]},
    {"metrics": ["rouge-2", "rouge-5"], "stats": ["p", "r"], "exclusive": False},
    {"raw_results": True, "return_lengths": True},
    {"raw_results": True, "exclusive": False, "metrics": ["rouge-l", "rouge-3"]},
    {"return_lengths": True, "exclusive": False},
    {"metrics": []},
]


KINDS = (ValueError, AssertionError, KeyError, ZeroDivisionError, RecursionError)


def outcome(rouge_cls: Any, options: dict[str, Any], *args: Any, **kw: Any) -> Any:
    """The result, or the exception's kind and message."""
    try:
        return rouge_cls(**options).get_scores(*args, **kw)
    except KINDS as e:
        kind = next(k for k in KINDS if isinstance(e, k))
        # A RecursionError's message names the comparison it stopped in: its kind is the fact.
        return (kind.__name__, "" if kind is RecursionError else str(e))


def same(theirs: Any, ours: Any) -> None:
    assert ours == theirs
    assert repr(ours) == repr(theirs)  # key order, and int stays int


def items_of(package: Any) -> list[tuple[str, str]]:
    pairs = [(h, r) for _, _, h, r in ITEMS]
    if package is rouge_chinese.Rouge:
        pairs += [(h, r) for _, _, h, r in make_golden.chinese_items(ITEMS)[len(ITEMS) :]]
    return pairs


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize(("theirs", "ours"), PACKAGES)
def test_items_one_by_one(theirs: Any, ours: Any, options: dict[str, Any]) -> None:
    for hyp, ref in items_of(theirs):
        same(outcome(theirs, options, hyp, ref), outcome(ours, options, hyp, ref))


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize(("theirs", "ours"), PACKAGES)
def test_batches_and_averages(theirs: Any, ours: Any, options: dict[str, Any]) -> None:
    pairs = items_of(theirs)
    rng = random.Random(7)
    good = [p for p in pairs if not isinstance(outcome(theirs, {}, *p), tuple)]
    batches = [rng.sample(good, rng.randrange(1, 30)) for _ in range(6)]
    batches += [pairs[k : k + 25] for k in range(0, len(pairs), 125)] + [[], pairs[:3]]
    for batch in batches:
        hyps, refs = [h for h, _ in batch], [r for _, r in batch]
        for avg in (False, True):
            for ignore_empty in (False, True):
                kw = {"avg": avg, "ignore_empty": ignore_empty}
                same(
                    outcome(theirs, options, hyps, refs, **kw),
                    outcome(ours, options, hyps, refs, **kw),
                )


@pytest.mark.parametrize(("theirs", "ours"), PACKAGES)
def test_real_data(theirs: Any, ours: Any) -> None:
    hyps = read_lines(DATA / "wmt22.zh-en" / "hyp.NiuTrans.en")[:500]
    refs = read_lines(DATA / "wmt22.zh-en" / "ref.A.en")[:500]
    for options in ({}, {"exclusive": False, "return_lengths": True}):
        same(outcome(theirs, options, hyps, refs), outcome(ours, options, hyps, refs))
        same(
            outcome(theirs, options, hyps, refs, avg=True),
            outcome(ours, options, hyps, refs, avg=True),
        )


def test_chinese_real_data_with_jieba() -> None:
    import jieba

    jieba.setLogLevel(60)
    hyps = [
        " ".join(jieba.cut(t)) for t in read_lines(DATA / "wmt22.en-zh" / "hyp.HuaweiTSC.zh")[:300]
    ]
    refs = [" ".join(jieba.cut(t)) for t in read_lines(DATA / "wmt22.en-zh" / "ref.A.zh")[:300]]
    for options in ({}, {"exclusive": False, "metrics": make_golden.METRICS}):
        same(
            outcome(rouge_chinese.Rouge, options, hyps, refs),
            outcome(chinese.Rouge, options, hyps, refs),
        )
        same(
            outcome(rouge_chinese.Rouge, options, hyps, refs, avg=True),
            outcome(chinese.Rouge, options, hyps, refs, avg=True),
        )


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
WORDY = st.lists(st.sampled_from("a b c . 。 ！ ? ” ’ …… ...... \n  ".split(" ")), max_size=30).map(
    " ".join
)


@settings(max_examples=examples(200), deadline=None)
@given(hyp=st.one_of(TEXT, WORDY), ref=st.one_of(TEXT, WORDY), exclusive=st.booleans())
def test_full_unicode(hyp: str, ref: str, exclusive: bool) -> None:
    options = {"metrics": make_golden.METRICS, "exclusive": exclusive, "return_lengths": True}
    for theirs, ours in PACKAGES:
        same(outcome(theirs, options, hyp, ref), outcome(ours, options, hyp, ref))


@given(text=st.one_of(TEXT, WORDY))
def test_cut_sent(text: str) -> None:
    assert chinese.Rouge().cut_sent(text) == rouge_chinese.Rouge().cut_sent(text)


def test_deep_recursion_runs_the_package() -> None:
    hyp = " ".join(f"w{i % 7}" for i in range(1200))
    ref = " ".join(f"w{i % 11}" for i in range(900))
    with pytest.raises(RecursionError):
        rouge.Rouge().get_scores(hyp, ref)
    with pytest.raises(RecursionError):
        pltrdy.Rouge().get_scores(hyp, ref)
    same(
        outcome(rouge.Rouge, {"metrics": ["rouge-2"]}, hyp, ref),
        outcome(pltrdy.Rouge, {"metrics": ["rouge-2"]}, hyp, ref),
    )


def test_bad_options_and_inputs() -> None:
    for theirs, ours in PACKAGES:
        for kw in ({"metrics": ["rouge-6"]}, {"stats": ["x"]}):
            with pytest.raises(ValueError) as a:
                theirs(**kw)
            with pytest.raises(ValueError) as b:
                ours(**kw)
            assert str(a.value) == str(b.value)
        same(outcome(theirs, {}, ["a"], ("a",)), outcome(ours, {}, ["a"], ("a",)))
        same(outcome(theirs, {}, ["a"], ["a", "b"]), outcome(ours, {}, ["a"], ["a", "b"]))
        same(
            outcome(theirs, {}, ["", "x"], ["a", ""], ignore_empty=True),
            outcome(ours, {}, ["", "x"], ["a", ""], ignore_empty=True),
        )
        same(
            outcome(theirs, {"raw_results": True}, ["a"], ["a"], avg=True),
            outcome(ours, {"raw_results": True}, ["a"], ["a"], avg=True),
        )


@pytest.mark.parametrize("package", [rouge, rouge_chinese])
def test_files(tmp_path: Path, package: Any) -> None:
    ours = pltrdy if package is rouge else chinese
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_text("a b c. d\r\nx y\n\nlast", encoding="utf-8")
    ref.write_text("a c d\ny x. z\nq\nlast", encoding="utf-8")
    for kw in ({}, {"avg": True}, {"avg": True, "ignore_empty": True}):
        same(
            outcome(package.FilesRouge, {}, str(hyp), str(ref), **kw),
            outcome(ours.FilesRouge, {}, str(hyp), str(ref), **kw),
        )
    same(
        outcome(package.FilesRouge, {}, str(hyp), str(tmp_path / "none")),
        outcome(ours.FilesRouge, {}, str(hyp), str(tmp_path / "none")),
    )
