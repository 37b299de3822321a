"""TER against sacreBLEU 2.6.0 with ``==``, for every option, on generated text.

Corpora are drawn by hypothesis: words from the nasty pieces of ``conftest.PIECES`` (CJK, kana,
entities, punctuation, odd whitespace, case traps) and from a small per-corpus vocabulary, with
hypotheses made from the references by shuffling, repeating, cutting and editing them, so that
the shift search has work to do; lengths are very unequal at times; 1 to 3 reference streams
with missing (``None``) entries. Checked: corpus scores (score, num_edits, ref_length and their
Python types), every sentence score, signatures long and short, the tokenizer's strings, the
functional API and reference caching. Segments that reach the 1,000-candidate cap of the
shift search are checked on their own (a spy on sacreBLEU's ``_shift`` proves the cap is hit).
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable

import pytest
import sacrebleu
from conftest import PIECES, WORD, examples, seeded, strip_version
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTok

import rapidbleu
from rapidbleu.metrics import TER
from rapidbleu.tokenizers.tokenizer_ter import TercomTokenizer

#: Every combination of (normalized, no_punct, asian_support, case_sensitive).
COMBOS = list(itertools.product([False, True], repeat=4))
NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")


def kwargs(combo: tuple[bool, ...]) -> dict[str, bool]:
    return dict(zip(NAMES, combo))


def combo_id(combo: tuple[bool, ...]) -> str:
    return "-".join(n for n, on in zip(NAMES, combo) if on) or "default"


#: Pieces the Tercom tokenizer treats specially, on top of conftest's.
TER_PIECES = [
    *PIECES,
    "&apos;",
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "'s",
    "n't",
    "3.5",
    "1,000",
    "a-b",
    "「",
    "」",
    "、",
    "・",
    "．",
    "，",
    "！",
    "（",
    "）",
    "ひらがな",
    "カタカナ",
    "ｶﾀｶﾅ",
    "漢字",
    "한국",
    "\u3f22",
    "\u3f23",
    "\u31c0",
    "\u2e80",
    "\uff5f",
    # not idempotent under Tercom's normalisation (sacreBLEU tokenizes references twice)
    "'s,",
    "Squire's,",
    "&amp;lt;",
    "&amp;quot;",
    "&amp;amp;",
    "\n-",
]
TER_WORD = st.one_of(
    st.sampled_from(TER_PIECES),
    WORD,
    st.lists(st.sampled_from(TER_PIECES), min_size=2, max_size=3).map("".join),
)


@st.composite
def ter_corpora(draw: Callable[..., Any], nrefs: int) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and ``nrefs`` streams; hypotheses are edited, shuffled copies of references."""
    vocab = draw(st.lists(TER_WORD, min_size=1, max_size=10))
    word = st.sampled_from(vocab)
    sep = st.sampled_from([" ", " ", " ", "  ", "\t", "\u3000", ""])
    n = draw(st.integers(1, 4))

    def text(words: list[str]) -> str:
        seps = draw(st.lists(sep, min_size=len(words), max_size=len(words)))
        return "".join(w + s for w, s in zip(words, seps))

    hyps: list[str] = []
    refs: list[list[str | None]] = [[] for _ in range(nrefs)]
    for _ in range(n):
        ref_words = draw(st.lists(word, max_size=18))
        kind = draw(st.integers(0, 5))
        rng = random.Random(draw(st.integers(0, 2**32)))
        h = list(ref_words)
        if kind == 0:
            rng.shuffle(h)
        elif kind == 1:
            h = (h[: max(1, len(h) // 3)] * 3)[: 2 * len(h) + 1]
        elif kind == 2:
            h = [w if rng.random() < 0.7 else rng.choice(vocab) for w in h if rng.random() < 0.9]
        elif kind == 3:
            h = draw(st.lists(word, min_size=0, max_size=40))  # very unequal lengths
        elif kind == 4 and len(h) > 2:
            a = rng.randrange(len(h))
            b = rng.randrange(a, min(len(h), a + 8))
            block = h[a:b]
            del h[a:b]
            t = rng.randrange(len(h) + 1)
            h[t:t] = block
        hyps.append(text(h))
        for k in range(nrefs):
            if k == 0:
                refs[k].append(text(ref_words))
            elif draw(st.integers(0, 4)) == 0:
                refs[k].append(None)
            else:
                other = list(ref_words)
                rng.shuffle(other)
                refs[k].append(text(other[: draw(st.integers(0, len(other)))]))
    return hyps, refs


def assert_same(ours: Any, theirs: Any, context: str) -> None:
    """Score, edits, reference length and their types equal."""
    a = (ours.score, ours.num_edits, ours.ref_length, ours.format(), str(ours))
    b = (theirs.score, theirs.num_edits, theirs.ref_length, theirs.format(), str(theirs))
    assert a == b, context
    for k in ("score", "num_edits", "ref_length"):
        assert type(getattr(ours, k)) is type(getattr(theirs, k)), (context, k)


def signatures(metric: Any) -> tuple[str, str]:
    sig = metric.get_signature()
    return strip_version(sig.format()), strip_version(sig.format(short=True))


@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
@pytest.mark.parametrize("nrefs", [1, 2, 3])
def test_corpus_and_sentences(combo: tuple[bool, ...], nrefs: int) -> None:
    @seeded(f"ter-{combo}-{nrefs}", 12)
    @given(ter_corpora(nrefs))
    def check(corpus: tuple[list[str], list[list[str | None]]]) -> None:
        hyps, refs = corpus
        theirs, ours = SacreTER(**kwargs(combo)), TER(**kwargs(combo))
        context = f"{combo} {hyps!r} {refs!r}"
        assert_same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs), context)
        assert signatures(ours) == signatures(theirs), context
        per_seg = [[r[i] for r in refs if r[i] is not None] for i in range(len(hyps))]
        expected = [theirs.sentence_score(h, r) for h, r in zip(hyps, per_seg)]
        for h, r, e in zip(hyps, per_seg, expected):
            assert_same(ours.sentence_score(h, r), e, context)
        assert ours.sentence_scores(hyps, refs).tolist() == [e.score for e in expected], context
        rows = ours.statistics(hyps, refs)
        assert ours.score_rows(rows).tolist() == [e.score for e in expected], context

    check()


@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
def test_tokenizer_strings(combo: tuple[bool, ...]) -> None:
    @seeded(f"ter-tok-{combo}", 60)
    @given(st.lists(TER_WORD, max_size=8).map(" ".join) | st.text(max_size=30))
    def check(text: str) -> None:
        text = text.encode("utf-8", "replace").decode("utf-8", "replace")  # no lone surrogates
        assert TercomTokenizer(**kwargs(combo))(text) == SacreTok(**kwargs(combo))(text)

    check()


@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
def test_references_tokenized_twice(combo: tuple[bool, ...]) -> None:
    """sacreBLEU preprocesses references twice (``_cache_references``, then
    ``_extract_reference_info``); Tercom's normalisation is not idempotent."""
    hyps = ["Squire's, a b", "&lt; x", "a &amp;quot;b&amp;quot;", "it's, y"]
    refs = [["Squire's, a b", "&amp;lt; x", "a &amp;quot;b&amp;quot;", "It's, y."]]
    ours, theirs = TER(**kwargs(combo)), SacreTER(**kwargs(combo))
    assert_same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs), str(combo))
    for h, r in zip(hyps, refs[0]):
        assert_same(ours.sentence_score(h, [r]), theirs.sentence_score(h, [r]), str(combo))


def test_tokenizer_fixed_traps() -> None:
    """The traps the issue names, each against sacreBLEU."""
    cases = [
        "a-b c'd e,f g.h",  # not in the normalisation's punctuation class
        "it&apos;s &quot;x&quot; &amp; &lt;y&gt;",  # &apos; is not unescaped
        "\u3f22\u3f23 \u31c0",  # the Enclosed CJK range ends at U+3F22
        "ひらがな",  # only kana: split
        "ひらがな漢字",  # kana with other characters: not split
        "a &amp; b",  # no_punct: &amp; loses just its ;
        "Σ ΟΔΟΣ İstanbul",
        "  trailing  \n",
    ]
    for text in cases:
        for combo in COMBOS:
            assert TercomTokenizer(**kwargs(combo))(text) == SacreTok(**kwargs(combo))(text), (
                text,
                combo,
            )


class CapSpy:
    """Whether sacreBLEU's shift search reached its 1,000-candidate cap."""

    def __init__(self) -> None:
        self.hit = False
        self._orig = lib_ter._shift

    def __enter__(self) -> CapSpy:
        def spy(*args: Any) -> Any:
            r = self._orig(*args)
            if r[2] >= lib_ter._MAX_SHIFT_CANDIDATES:
                self.hit = True
            return r

        lib_ter._shift = spy
        return self

    def __exit__(self, *exc: Any) -> None:
        lib_ter._shift = self._orig


@pytest.mark.parametrize("seed", range(4))
def test_candidate_cap(seed: int) -> None:
    """Shuffled 50-70-word segments over a small vocabulary reach the cap; scores still equal."""
    rng = random.Random(seed)
    refs, hyps = [], []
    for k in range(2):
        words = [f"w{rng.randrange(12 + 6 * seed)}" for _ in range(50 + 10 * k)]
        refs.append(" ".join(words))
        rng.shuffle(words)
        hyps.append(" ".join(words))
    with CapSpy() as spy:
        theirs = SacreTER().corpus_score(hyps, [refs])
    assert spy.hit, "the case no longer reaches sacreBLEU's candidate cap"
    assert_same(TER().corpus_score(hyps, [refs]), theirs, f"seed {seed}")


def test_functional_api_and_drop_in() -> None:
    hyps = ["The cat sat on the mat .", "a b c d"]
    refs = [["the mat had a cat on it", "d c b a"], ["The cat sat on the mat.", None]]
    for combo in COMBOS[::5]:
        assert_same(
            rapidbleu.corpus_ter(hyps, refs, **kwargs(combo)),
            sacrebleu.corpus_ter(hyps, refs, **kwargs(combo)),
            str(combo),
        )
        assert_same(
            rapidbleu.sentence_ter(hyps[0], [refs[0][0], refs[1][0]], **kwargs(combo)),
            sacrebleu.sentence_ter(hyps[0], [refs[0][0], refs[1][0]], **kwargs(combo)),
            str(combo),
        )
    from rapidbleu.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as T2

    import rapidbleu.sacrebleu as drop_in

    assert drop_in.metrics.TER is TER and T2 is TercomTokenizer
    assert drop_in.corpus_ter is rapidbleu.corpus_ter


@pytest.mark.parametrize("nrefs", [1, 3])
def test_cached_references(nrefs: int) -> None:
    @seeded(f"ter-cache-{nrefs}", examples(8))
    @given(ter_corpora(nrefs))
    def check(corpus: tuple[list[str], list[list[str | None]]]) -> None:
        hyps, refs = corpus
        theirs = SacreTER(references=refs).corpus_score(hyps, None)
        cached = TER(references=refs)
        assert_same(cached.corpus_score(hyps, None), theirs, repr(corpus))
        assert signatures(cached) == signatures(SacreTER(references=refs)), repr(corpus)

    check()


def test_three_references_sum_in_segment_order() -> None:
    """The float reference lengths add in segment order (another order changes the digits)."""
    rng = random.Random(7)
    hyps, refs = [], [[], [], []]
    for _ in range(300):
        ws = [f"w{rng.randrange(20)}" for _ in range(rng.randrange(1, 25))]
        hyps.append(" ".join(ws))
        for r in refs:
            r.append(" ".join(ws[: rng.randrange(0, len(ws) + 3)]))
    ter = TER()
    ours, theirs = ter.corpus_score(hyps, refs), SacreTER().corpus_score(hyps, refs)
    assert_same(ours, theirs, "3 refs")
    rows = ter.statistics(hyps, refs)
    terms = [int(r[1]) / int(r[2]) for r in rows]
    reverse = 0.0
    for t in reversed(terms):
        reverse += t
    # This corpus is one where the order shows: the reverse order gives other digits.
    assert reverse != theirs.ref_length
    for cut in (1, 150, 299):  # any split, folded in order, gives sacreBLEU's float
        assert ter.accumulate(ter.accumulate(None, rows[:cut]), rows[cut:])[1] == theirs.ref_length
