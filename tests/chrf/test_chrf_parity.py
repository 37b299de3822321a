"""chrF and chrF++ against sacreBLEU 2.6.0 with ``==``: every option, generated and real data.

Statistics rows, corpus scores, batched and single sentence scores, score strings and both
signature forms must equal sacreBLEU's. Generated corpora are full Unicode (every whitespace
kind, punctuation at token edges, empty strings, ``None`` references); every code point is
checked against the definitions sacreBLEU uses (``str.split()``, ``_remove_punctuation``); the
real data is the golden chrF lines of ``golden.jsonl`` and live sacreBLEU runs on real files.
"""

from __future__ import annotations

import itertools
import json
import logging
from typing import Any

import numpy as np
import pytest
from conftest import DATA, PIECES, corpora, examples, read_lines, seeded, strip_version
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

from rapidbleu.metrics import CHRF

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

#: Every combination of the three flags, for chrF and chrF++ (and the orders' edge cases).
ORDERS = [(6, 0), (6, 2), (0, 2), (1, 1), (3, 4)]
FLAGS = list(itertools.product([False, True], repeat=3))
OPTION_SETS = [
    {"char_order": c, "word_order": w, "lowercase": lc, "whitespace": ws, "eps_smoothing": eps}
    for (c, w), (lc, ws, eps) in itertools.product(ORDERS[:2], FLAGS)
] + [
    {"char_order": c, "word_order": w, "beta": beta, "eps_smoothing": eps}
    for (c, w), beta, eps in itertools.product(ORDERS[2:], [1, 3, 2.0, 0.5, 0], [False, True])
]

#: Pieces that matter to chrF on top of conftest's: punctuation at token edges.
EDGE = ["(hi)", "hi.", ".hi", "'s", "a-", "-a", "..", "x!?", "(", ")", "é.", "¿qué?", "«a»"]
CHRF_WORD = st.lists(
    st.one_of(st.sampled_from(PIECES + EDGE), st.characters(blacklist_categories=("Cs",))),
    min_size=1,
    max_size=4,
).map("".join)


def _same(ours_metric: CHRF, theirs_metric: SacreCHRF, hyps: list[str], refs: Any) -> None:
    """Every observable of a corpus equal: rows, scores, sentence scores, signatures."""
    rows = ours_metric.statistics(hyps, refs)
    theirs_rows = theirs_metric._extract_corpus_statistics(hyps, refs)
    assert rows.tolist() == theirs_rows
    ours, theirs = ours_metric.corpus_score(hyps, refs), theirs_metric.corpus_score(hyps, refs)
    assert ours.score == theirs.score
    assert type(ours.score) is type(theirs.score) is float
    assert (str(ours), ours.format(4), ours.name) == (str(theirs), theirs.format(4), theirs.name)
    sig_o, sig_t = ours_metric.get_signature(), theirs_metric.get_signature()
    assert strip_version(sig_o.format()) == sig_t.format()
    assert strip_version(sig_o.format(short=True)) == sig_t.format(short=True)
    per_seg = [[r[i] for r in refs if r[i] is not None] for i in range(len(hyps))]
    want = [theirs_metric.sentence_score(h, rs).score for h, rs in zip(hyps, per_seg)]
    assert ours_metric.sentence_scores(hyps, refs).tolist() == want
    assert ours_metric.sentence_scores(hyps, per_seg, per_segment=True).tolist() == want
    assert ours_metric.score_rows(rows).tolist() == want
    assert [ours_metric.sentence_score(h, rs).score for h, rs in zip(hyps, per_seg)] == want


@pytest.mark.parametrize("opts", OPTION_SETS, ids=str)
@pytest.mark.parametrize("nrefs", [1, 3])
def test_generated_corpora(opts: dict[str, Any], nrefs: int) -> None:
    @seeded(f"chrf-{opts}-{nrefs}", 25)
    @given(corpora(nrefs, max_segments=6))
    def check(corpus: tuple[list[str], Any]) -> None:
        hyps, refs = corpus
        _same(CHRF(**opts), SacreCHRF(**opts), hyps, refs)

    check()


@settings(max_examples=examples(150))
@given(
    st.lists(st.lists(CHRF_WORD, max_size=8), min_size=1, max_size=4),
    st.lists(st.lists(CHRF_WORD, max_size=8), min_size=1, max_size=4),
    st.sampled_from(OPTION_SETS),
    st.sampled_from([" ", "  ", "\t", "\x1c", "\x1f", "\u200b", "\xa0", "\u3000", "\x85"]),
)
def test_punctuation_at_token_edges(
    hyp_words: list[list[str]], ref_words: list[list[str]], opts: dict, sep: str
) -> None:
    n = min(len(hyp_words), len(ref_words))
    hyps = [sep.join(w) for w in hyp_words[:n]]
    refs = [[sep + sep.join(w) + sep for w in ref_words[:n]]]
    _same(CHRF(**opts), SacreCHRF(**opts), hyps, refs)


def _code_points() -> list[str]:
    return [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def test_every_code_point_whitespace_and_words() -> None:
    """Each code point between letters and next to punctuation, counted as sacreBLEU counts.

    Character counts are ``''.join(text.split())`` (``extract_all_char_ngrams``) and word counts
    are ``CHRF._remove_punctuation`` (sacreBLEU's own function), for all 1,112,064 code points.
    """
    chars = _code_points()
    sb = SacreCHRF(word_order=1)
    for template in ("x{}y", "{}(", "({}", "{}", "a{}{}b."):
        texts = [template.format(c, c) for c in chars]
        for ws in (False, True):
            metric = CHRF(char_order=1, word_order=1, whitespace=ws)
            rows = metric.statistics(texts, [texts])
            want_chars = [len(t) if ws else len("".join(t.split())) for t in texts]
            assert rows[:, 0].tolist() == want_chars
            assert rows[:, 2].tolist() == want_chars  # every character matches itself
            assert rows[:, 3].tolist() == [len(sb._remove_punctuation(t)) for t in texts]
    # Spot checks of the traps: U+001C..U+001F are whitespace, U+200B is not.
    assert CHRF(char_order=1).statistics(["a\x1cb\u200bc"], [["abc"]]).tolist() == [[4, 3, 3]]


@pytest.mark.parametrize(
    "hyp,refs",
    [
        ("", [""]),
        ("", ["a"]),
        ("a", [""]),
        (" a b ", [" a b "]),
        ("(hi)", ["(hi", ")"]),
        ("a", ["b", "a", "a"]),
        ("abc", ["abd", "abc"]),
        ("x", ["y", "z"]),
    ],
)
@pytest.mark.parametrize("opts", OPTION_SETS[:16], ids=str)
def test_corner_cases(hyp: str, refs: list[str], opts: dict) -> None:
    ours = CHRF(**opts).sentence_score(hyp, refs)
    theirs = SacreCHRF(**opts).sentence_score(hyp, refs)
    assert (ours.score, str(ours)) == (theirs.score, str(theirs))


def test_eps_smoothing_of_empty_segment() -> None:
    # sacreBLEU 2.6.0: every order adds eps, so the mean is 100 * 6e-16 / 6.
    score = CHRF(eps_smoothing=True).sentence_score("", [""]).score
    assert score == SacreCHRF(eps_smoothing=True).sentence_score("", [""]).score
    assert score == 1.0000000000000002e-14


def test_empty_reference_orders_change_corpus_totals() -> None:
    # The second segment's reference has no 4-grams: its hypothesis 4-grams are not counted.
    hyps, refs = ["abcdef", "abcdef"], [["abcdef", "abc"]]
    ours, theirs = CHRF(), SacreCHRF()
    assert ours.statistics(hyps, refs).tolist() == theirs._extract_corpus_statistics(hyps, refs)
    assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(hyps, refs).score


@pytest.mark.parametrize("beta", [2, 2.0, 1, 3, 0.5, 0, 1e-3, 7.25, 2**26])
def test_beta_names_and_scores(beta: float) -> None:
    hyps, refs = ["The cat sat on the mat.", "x"], [["The cat is on the mat.", "x y"]]
    for w in (0, 2):
        ours = CHRF(beta=beta, word_order=w).corpus_score(hyps, refs)
        theirs = SacreCHRF(beta=beta, word_order=w).corpus_score(hyps, refs)
        assert (ours.name, ours.score, str(ours)) == (theirs.name, theirs.score, str(theirs))


def test_none_references_give_nrefs_var() -> None:
    hyps, refs = ["a b", "c d"], [["a b", "c"], [None, "c d"]]
    ours, theirs = CHRF(), SacreCHRF()
    assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(hyps, refs).score
    assert strip_version(str(ours.get_signature())) == str(theirs.get_signature())
    assert "nrefs:var" in str(ours.get_signature())


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_rows_add_across_splits_and_threads(threads: int) -> None:
    ref = read_lines(DATA / "wmt22.en-de" / "ref.A.de")[:700]
    hyps = read_lines(DATA / "wmt22.en-de" / "hyp.PROMT.de")[:700]
    for w in (0, 2):
        whole = CHRF(word_order=w, num_threads=1).statistics(hyps, [ref])
        metric = CHRF(word_order=w, num_threads=threads)
        assert (metric.statistics(hyps, [ref]) == whole).all()
        for split in (1, 99, 350, 699):
            parts = [
                metric.statistics(hyps[:split], [ref[:split]]),
                metric.statistics(hyps[split:], [ref[split:]]),
            ]
            assert (np.vstack(parts) == whole).all()
            total = metric.accumulate(metric.total(parts[0]), parts[1])
            assert metric.score_totals(total).score == metric.corpus_score(hyps, [ref]).score


# --- real data ------------------------------------------------------------------------------


def _golden(metric_names: tuple[str, ...]) -> list[dict[str, Any]]:
    with open(DATA / "golden.jsonl", encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    return [g for g in lines if g["metric"] in metric_names]


GOLDEN_CORPUS = _golden(("chrF", "chrF++"))
GOLDEN_SENTENCE = _golden(("chrF-sentence",))


def test_golden_lines_are_there() -> None:
    # tests/data ships every corpus-level chrF line of the full set's 39 + 39.
    assert len(GOLDEN_CORPUS) >= 30 and len(GOLDEN_SENTENCE) >= 50


@pytest.mark.parametrize("g", GOLDEN_CORPUS, ids=lambda g: f"{g['metric']}-{g['hyp']}")
def test_golden_corpus(g: dict[str, Any]) -> None:
    hyps = read_lines(DATA / g["hyp"])
    refs = [read_lines(DATA / r) for r in g["refs"]]
    metric = CHRF(**g["options"])
    score = metric.corpus_score(hyps, refs)
    assert score.score == g["score"]
    assert str(score) == g["score_str"]
    assert strip_version(str(metric.get_signature())) == g["signature"]


def test_golden_sentences() -> None:
    by_file: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for g in GOLDEN_SENTENCE:
        by_file.setdefault((g["hyp"], tuple(g["refs"])), []).append(g)
    for (hyp, refs), lines in by_file.items():
        hyps = read_lines(DATA / hyp)
        ref_lines = [read_lines(DATA / r) for r in refs]
        scores = CHRF(**lines[0]["options"]).sentence_scores(hyps, ref_lines)
        for g in lines:
            assert scores[g["line"] - 1] == g["score"], g
