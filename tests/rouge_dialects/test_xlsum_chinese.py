"""XL-Sum's Chinese read in the core (jieba 0.42.1's ``cut`` ported, ``_core.JiebaDict``) against
the Python packages (``==``): the port's words against ``jieba.lcut`` on real Chinese lines and
on generated text (every branch: dictionary words, runs for the HMM, ``re_han_default``'s ASCII,
``\\r\\n``, characters beyond ``\\u9fd5``, ``3.5%``); XL-Sum's scores against ``multilingual-rouge``
on generated and real text; every character the Chinese reading takes against ``unicodedata``;
and the cases where the package's tokenizer keeps running in Python (another ``jieba.cut``, a
changed dictionary, which is copied again).
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import textwrap
import unicodedata
import warnings
from typing import Any

import jieba
import pytest
from conftest import DATA, examples, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from multilingual_rouge import rouge_scorer as mrs

from rapidbleu import _core, errors
from rapidbleu.metrics.rouge import xlsum
from rapidbleu.metrics.rouge.jieba_dict import jieba_dict
from rapidbleu.metrics.rouge.xlsum_metric import XLSumROUGE

jieba.setLogLevel(60)
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
ZH = read_lines(DATA / "wmt22.en-zh" / "ref.A.zh") + read_lines(
    DATA / "wmt22.en-zh" / "hyp.HuaweiTSC.zh"
)
#: Pieces for jieba itself: Chinese text, what re_han_default adds, what it leaves out.
PIECES = (
    [ZH[i][j : j + 6] for i in range(0, 400, 7) for j in (0, 5, 11)]
    + list("abcXYZ019+#&._%-")
    + ["3.5%", "a.b", "\r\n", "\r", "\n", " ", "\t", "\u3000", "，", "。", "“", "！"]
    + ["\u9fd5", "\u9fd6", "\u9fef", "\u3400", "\uff11", "\uff21", "é", "š", "−", "😀"]
)
#: Pieces for XL-Sum: Chinese text, separators, removed characters, Latin and digits.
READ = (
    [ZH[i][j : j + 8] for i in range(400, 800, 5) for j in (0, 7)]
    + list("AbZ09 ,.;!?-'\"()\t\n\r\x00\x07")
    + ["\u00a0", "\u200b", "\ufeff", "\u3000", "\u3001", "\uff08", "\uff09", "\u00b7", "\u2014"]
    + ["\u00c9", "\u00e1", "\u0160", "\u0161", "\u2212", "\u00ae", "\uff10", "\uff21", "\u3400"]
)
#: Characters the Chinese reading leaves to the package's tokenizers.
OTHER = ["\u0130", "\u03a3", "\u2028", "\ufffd", "\U0001f3fb", "\u0301", "\u00aa", "\uac00"]
TEXT = st.one_of(
    st.lists(st.sampled_from(READ), max_size=30).map("".join),
    st.lists(st.sampled_from(READ + OTHER), max_size=30).map("".join),
)


def scorers(stem: bool = False) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (
            mrs.RougeScorer(TYPES, lang="chinese", use_stemmer=stem),
            xlsum.RougeScorer(TYPES, lang="chinese", use_stemmer=stem),
        )


THEIRS, OURS = scorers()


def test_the_port_cuts_real_lines_as_jieba() -> None:
    cut = jieba_dict(jieba)
    assert cut is not None
    lines = ZH[:3000]
    assert [cut.cut(s) for s in lines] == [jieba.lcut(s) for s in lines]


def test_the_port_cuts_generated_text_as_jieba() -> None:
    cut = jieba_dict(jieba)
    assert cut is not None
    rng = random.Random(20261129)
    for _ in range(examples(3000)):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        assert cut.cut(text) == jieba.lcut(text), repr(text)


@settings(max_examples=examples(200), deadline=None)
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6))
def test_generated_text(pairs: list[tuple[str, str]]) -> None:
    want = [THEIRS.score(t, p) for t, p in pairs]
    got = OURS.score_batch([t for t, _ in pairs], [p for _, p in pairs])
    assert got == want
    assert repr(got) == repr(want)


@pytest.mark.parametrize("stem", [False, True])
def test_real_documents(stem: bool) -> None:
    """WMT22 en-zh lines joined into documents of one to three lines, all read in the core."""
    theirs, ours = scorers(stem)
    hyps = read_lines(DATA / "wmt22.en-zh" / "hyp.Online-W.zh")[:600]
    refs = read_lines(DATA / "wmt22.en-zh" / "ref.B.zh")[:600]
    preds = ["\n".join(hyps[i : i + 1 + i % 3]) for i in range(0, 600, 2)]
    targets = ["\n".join(refs[i : i + 1 + i % 2]) for i in range(0, 600, 2)]
    _, unread = ours._options.xlsum_statistics(preds, targets, False, 0, jieba_dict(jieba))
    assert unread == []
    want = [theirs.score(t, p) for t, p in zip(targets, preds)]
    assert ours.score_batch(targets, preds) == want
    # The metric (corpus, bootstrap, Ray, the command) reads them in the core too.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package's "unknown stemmer language"
        metric = XLSumROUGE(TYPES, lang="chinese", use_stemmer=stem)
    arrays = metric.score_arrays(preds, [targets])
    for t in TYPES:
        assert arrays[t].tolist() == [[float(v) for v in w[t]] for w in want]


def test_characters_the_chinese_reading_takes() -> None:
    """Each character the core reads is a separator, removed, or a word character whose
    lowercase is one character, by ``unicodedata``; and scores as the package."""
    chars = [chr(c) for c in range(0x80, 0x30000) if not 0xD800 <= c < 0xE000]
    options = _core.RougeOptions(["rouge1"], False)
    _, unread = options.xlsum_statistics(chars, ["a"] * len(chars), False, 0, jieba_dict(jieba))
    read = [chars[i] for i in sorted(set(range(len(chars))) - set(unread))]
    assert len(read) > 28000
    for c in read:
        cat = unicodedata.category(c)
        assert cat == "Zs" or cat[0] in "PCLNS", (hex(ord(c)), cat)
        assert len(c.lower()) == 1, hex(ord(c))
    sample = [c for c in read if not "\u4e00" <= c <= "\u9fef"] + read[::97]
    targets = [f"{c}中{c.upper()}a" for c in sample]
    preds = [f"x{c.lower()}中 {c}" for c in sample]
    assert OURS.score_batch(targets, preds) == [THEIRS.score(t, p) for t, p in zip(targets, preds)]


@pytest.mark.parametrize("lang", [None, "chinese"])
def test_a_lone_surrogate_is_removed_as_the_package_does(lang: Any) -> None:
    """``_clean_text`` removes it (category ``Cs``), joining its neighbours: the batch goes to
    the package's tokenizers."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = mrs.RougeScorer(TYPES, lang=lang)
        ours = xlsum.RougeScorer(TYPES, lang=lang)
    pairs = [("ab\ud800cd 北京", "abcd 北京"), ("我爱北京", "北京")]
    want = [theirs.score(t, p) for t, p in pairs]
    assert ours.score_batch([t for t, _ in pairs], [p for _, p in pairs]) == want


def test_another_cut_keeps_the_package_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """``jieba.cut`` replaced (as ``enable_parallel`` does): the port does not stand in."""
    calls: list[str] = []

    def cut(text: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(text)
        return jieba.dt.cut(text, *args, **kwargs)

    monkeypatch.setattr(jieba, "cut", cut)
    assert jieba_dict(jieba) is None
    assert OURS.score_batch(["我爱北京"], ["北京"]) == [THEIRS.score("我爱北京", "北京")]
    assert calls  # the package's tokenizer ran


def test_a_changed_dictionary_is_copied_again() -> None:
    """add_word, del_word, suggest_freq and load_userdict, in a process of its own (they
    change jieba's global dictionary)."""
    program = textwrap.dedent(
        """
        import io, warnings
        import jieba
        from multilingual_rouge import rouge_scorer as mrs
        from rapidbleu.metrics.rouge import xlsum
        from rapidbleu.metrics.rouge.jieba_dict import jieba_dict

        jieba.setLogLevel(60)
        warnings.simplefilter("ignore")
        types = ["rouge1", "rouge2"]
        theirs = mrs.RougeScorer(types, lang="chinese")
        ours = xlsum.RougeScorer(types, lang="chinese")
        pairs = [("我们在北京大学读书", "北京大学的学生"), ("今天天气很好", "今天天气不错")]

        def check(step):
            got = ours.score_batch([t for t, _ in pairs], [p for _, p in pairs])
            assert got == [theirs.score(t, p) for t, p in pairs], step
            assert jieba_dict(jieba).cut("北京大学读书") == jieba.lcut("北京大学读书"), step

        check("start")
        first = jieba_dict(jieba)
        jieba.add_word("学读", 10**9)
        check("add_word")
        jieba.del_word("北京大学")
        check("del_word")
        jieba.add_word("北京大学", 5)
        check("add_word again")
        jieba.del_word("北京大学")
        check("del_word again")
        jieba.suggest_freq(("今天", "天气"), True)
        check("suggest_freq")
        jieba.load_userdict(io.BytesIO("天气很 99999999\\n".encode()))
        check("load_userdict")
        assert jieba_dict(jieba) is not first
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize(
    ("freq", "trans", "error", "message"),
    [
        ({1: 2}, None, errors.InputTypeError, "key that is not a str"),
        ({"a": -2}, None, errors.InvalidOptionError, "frequency -2 for a; expected >= 0"),
        ({"a": "x"}, None, errors.InputTypeError, "is str; expected a float"),
        ({"a": 2}, {"B": 5}, errors.InputTypeError, 'trans_P["B"] is int; expected a dict'),
    ],
)
def test_a_dictionary_jieba_could_not_have_is_refused(
    freq: Any, trans: Any, error: type[Exception], message: str
) -> None:
    import jieba.finalseg as finalseg

    with pytest.raises(error, match=re.escape(message)):
        _core.JiebaDict(
            freq,
            0.0,
            finalseg.start_P,
            trans or finalseg.trans_P,
            finalseg.emit_P,
            [],
        )
