"""rapidbleu.torch on generated batches: every row and score ``==`` the CPU engine's and oracles'.

Batches are drawn by hypothesis: ragged rows, padding on the left, right and inside (``pad_id``)
or junk past each row's end (``lengths``), few distinct IDs (so n-grams repeat), IDs 0,
2**62 and negative ones, R = 1..4 references, empty rows. The oracles are the CPU engine
(:func:`rapidbleu.metrics.bleu.tokens.token_statistics`, ``BLEU``,
``rapidbleu.dialects.nltk``) on the same tensors, and sacreBLEU 2.6.0 (IDs as text,
``tokenize="none"``) and nltk 3.10.4 on the sequences. The same code runs on CUDA
(``scripts/check_gpu.py``); here, on CPU tensors.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import sacrebleu
import torch
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nb

from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.metrics import BLEU
from rapidbleu.metrics.bleu.tokens import token_statistics
from rapidbleu.torch import corpus_bleu, sentence_bleu, statistics
from rapidbleu.torch.ngrams import compact, count_rows

#: Token IDs drawn from a prefix of this pool: a small alphabet repeats n-grams.
POOL = (0, 2**62, 1, -7, 2, 3, 5)
#: Padding IDs that no sequence holds (the extremes of int64 included).
PADS = (99, 2**63 - 1, -(2**63))


@dataclass
class Case:
    """One batch: its sequences, and the tensors and layout that hold them."""

    hyps: list[list[int]]
    refs: list[list[list[int]]]
    h: torch.Tensor
    r: torch.Tensor
    layout: dict[str, Any]

    def engine_layout(self) -> dict[str, Any]:
        """The same layout for the CPU engine (references per segment)."""
        if "pad_id" in self.layout:
            return {"pad_id": self.layout["pad_id"]}
        return {
            "lengths": self.layout["lengths"],
            "ref_lengths": [list(x) for x in self.layout["ref_lengths"]],
        }

    def engine_refs(self) -> list[torch.Tensor]:
        return [self.r[i] for i in range(len(self.hyps))]


def _rows(seqs: list[list[int]], layout: str, pad: int, rnd: random.Random) -> torch.Tensor:
    """``seqs`` in one 2-D tensor: with pads anywhere (``pad``), or junk after each end."""
    rows = []
    for s in seqs:
        row = list(s)
        if layout == "pad":
            for _ in range(rnd.randint(0, 3)):
                row.insert(rnd.randint(0, len(row)), pad)
        rows.append(row)
    width = max(len(row) for row in rows) + rnd.randint(0, 2)
    fill = [pad] if layout == "pad" else list(POOL)
    out = [row + [rnd.choice(fill) for _ in range(width - len(row))] for row in rows]
    return torch.tensor(out, dtype=torch.int64).reshape(len(seqs), width)


@st.composite
def cases(draw: Any, max_rows: int = 5) -> Case:
    b, r = draw(st.integers(1, max_rows)), draw(st.integers(1, 4))
    alphabet = st.sampled_from(POOL[: draw(st.integers(1, len(POOL)))])
    seq = st.lists(alphabet, max_size=9)
    hyps = [draw(seq) for _ in range(b)]
    refs = [[draw(seq) for _ in range(r)] for _ in range(b)]
    layout = draw(st.sampled_from(["pad", "lengths"]))
    pad = draw(st.sampled_from(PADS))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    h = _rows(hyps, layout, pad, rnd)
    flat = _rows([x for rs in refs for x in rs], layout, pad, rnd)
    ref = flat.view(b, r, -1)
    if layout == "pad":
        return Case(hyps, refs, h, ref, {"pad_id": pad})
    lengths = {
        "lengths": [len(x) for x in hyps],
        "ref_lengths": [[len(x) for x in rs] for rs in refs],
    }
    return Case(hyps, refs, h, ref, lengths)


def _text(seq: list[int]) -> str:
    return " ".join(str(t) for t in seq)


@settings(max_examples=examples(150))
@given(cases(), st.integers(1, 5), st.sampled_from([None, 1, 5, 40]))
def test_rows_equal_the_cpu_engine(case: Case, order: int, chunk_tokens: int | None) -> None:
    got = statistics(
        case.h, case.r, max_ngram_order=order, chunk_tokens=chunk_tokens, **case.layout
    )
    want, _ = token_statistics(
        case.h, case.engine_refs(), max_order=order, per_segment=True, **case.engine_layout()
    )
    assert got.dtype == torch.int64
    assert got.tolist() == want.tolist()
    # The sequences as lists (no layout at all) give the same rows.
    plain, _ = token_statistics(case.hyps, case.refs, max_order=order, per_segment=True)
    assert got.tolist() == plain.tolist()


SACRE_OPTIONS = [
    {},
    {"smoothing": "floor"},
    {"smoothing": "floor", "smooth_value": 0.25},
    {"smoothing": "add-k", "smooth_value": 2},
    {"smoothing": "none"},
    {"effective_order": False},
    {"max_ngram_order": 2, "smoothing": "add-k"},
]


@settings(max_examples=examples(60))
@given(cases(), st.sampled_from(SACRE_OPTIONS))
def test_sacrebleu_dialect(case: Case, options: dict[str, Any]) -> None:
    got = sentence_bleu(case.h, case.r, **case.layout, **options)
    bleu_options = {
        "smooth_method": options.get("smoothing", "exp"),
        "smooth_value": options.get("smooth_value"),
        "max_ngram_order": options.get("max_ngram_order", 4),
    }
    engine = BLEU(
        tokenize="none", effective_order=options.get("effective_order", True), **bleu_options
    )
    want = engine.sentence_scores(
        case.h, case.engine_refs(), per_segment=True, **case.engine_layout()
    )
    assert got.dtype == torch.float64 and got.device == case.h.device
    assert got.tolist() == want.tolist()
    oracle = sacrebleu.BLEU(
        tokenize="none", effective_order=options.get("effective_order", True), **bleu_options
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        texts = [
            oracle.sentence_score(_text(h), [_text(x) for x in rs]).score
            for h, rs in zip(case.hyps, case.refs)
        ]
    assert got.tolist() == texts
    # Corpus: sacreBLEU's corpus_bleu defaults (no effective order unless asked).
    corpus = corpus_bleu(case.h, case.r, **case.layout, **options)
    streams = [[_text(rs[k]) for rs in case.refs] for k in range(len(case.refs[0]))]
    cbleu = sacrebleu.BLEU(
        tokenize="none", effective_order=options.get("effective_order", False), **bleu_options
    )
    assert (
        corpus.shape == ()
        and float(corpus) == cbleu.corpus_score([_text(h) for h in case.hyps], streams).score
    )


NLTK_OPTIONS = [
    {"smoothing": "method0"},
    {"smoothing": "method1"},
    {"smoothing": "method2"},
    {"smoothing": "method3"},
    {"smoothing": "method4"},
    {"smoothing": "method1", "weights": (0.5, 0.5)},
    {"smoothing": "method2", "weights": (0.2, 0.3, 0.1, 0.3, 0.1)},
    {"smoothing": "method3", "auto_reweigh": True},
    {"smoothing": "method4", "weights": (1.0,)},
]


def _nltk_method(name: str) -> Any:
    return getattr(nb.SmoothingFunction(), name)


def _outcome(f: Any) -> Any:
    """``f()``, or the type of the exception it raises (NLTK's own for some rows)."""
    try:
        return f()
    except (ZeroDivisionError, OverflowError, ValueError) as e:
        return type(e)


@settings(max_examples=examples(60))
@given(cases(), st.sampled_from(NLTK_OPTIONS))
def test_nltk_dialect(case: Case, options: dict[str, Any]) -> None:
    smooth = _nltk_method(options["smoothing"])
    weights = options.get("weights", (0.25, 0.25, 0.25, 0.25))
    reweigh = options.get("auto_reweigh", False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _outcome(
            lambda: sentence_bleu(case.h, case.r, dialect="nltk", **case.layout, **options).tolist()
        )
        engine = _outcome(
            lambda: rb_nltk.sentence_bleu_batch(
                case.engine_refs(), case.h, weights, smooth, reweigh, **case.engine_layout()
            ).tolist()
        )
        oracle = [
            _outcome(lambda h=h, rs=rs: nb.sentence_bleu(rs, h, weights, smooth, reweigh))
            for h, rs in zip(case.hyps, case.refs)
        ]
        corpus = _outcome(
            lambda: float(corpus_bleu(case.h, case.r, dialect="nltk", **case.layout, **options))
        )
        corpus_oracle = _outcome(
            lambda: nb.corpus_bleu(case.refs, case.hyps, weights, smooth, reweigh)
        )
    assert got == engine
    failed = [o for o in oracle if isinstance(o, type)]
    # NLTK raises for the first such row; the batch raises the same exception.
    assert got == (failed[0] if failed else oracle)
    assert corpus == corpus_oracle


def test_the_issue_call_and_reference_shapes() -> None:
    h = torch.tensor([[3, 4, 5, 6, 0, 0], [7, 8, 9, 10, 11, 0], [0, 0, 12, 13, 14, 15]])
    r = torch.tensor([[[3, 4, 5, 7, 0, 0]], [[7, 8, 9, 10, 11, 12]], [[12, 13, 14, 15, 16, 0]]])
    got = sentence_bleu(h, r, pad_id=0, smoothing="method1", dialect="nltk")
    seqs = [[t for t in row if t != 0] for row in h.tolist()]
    refs = [[[t for t in row if t != 0]] for row in r[:, 0].tolist()]
    smooth = nb.SmoothingFunction().method1
    assert got.tolist() == [
        nb.sentence_bleu(rs, s, smoothing_function=smooth) for s, rs in zip(seqs, refs)
    ]
    # (B, L) references are R = 1.
    assert (
        sentence_bleu(h, r[:, 0], pad_id=0, smoothing="method1", dialect="nltk").tolist()
        == got.tolist()
    )
    assert sentence_bleu(h, r[:, 0], pad_id=0).tolist() == sentence_bleu(h, r, pad_id=0).tolist()


def test_id_zero_is_a_token_with_lengths() -> None:
    # TensorBLEU's pad id 0 drops real tokens with id 0; with lengths no ID is special.
    h = torch.tensor([[0, 0, 1, 2]])
    r = torch.tensor([[0, 0, 1, 2]])
    assert sentence_bleu(h, r, lengths=[4], ref_lengths=[4]).tolist() == [
        sacrebleu.sentence_bleu("0 0 1 2", ["0 0 1 2"], tokenize="none").score
    ]
    assert statistics(h, r, lengths=[4], ref_lengths=[4])[0, 2:6].tolist() == [4, 3, 2, 1]


def test_weight_lists_give_one_column_each() -> None:
    h = torch.tensor([[1, 2, 3, 4, 5], [1, 2, 2, 1, 9]])
    r = torch.tensor([[1, 2, 3, 4, 6], [2, 1, 2, 2, 1]])
    weights = [(0.5, 0.5), (0.25, 0.25, 0.25, 0.25), [1.0]]
    smooth = nb.SmoothingFunction().method2
    got = sentence_bleu(h, r, pad_id=-1, dialect="nltk", weights=weights, smoothing=smooth)
    assert got.shape == (2, 3)
    seqs, refs = h.tolist(), [[x] for x in r.tolist()]
    assert got.tolist() == [nb.sentence_bleu(rs, s, weights, smooth) for s, rs in zip(seqs, refs)]
    corpus = corpus_bleu(h, r, pad_id=-1, dialect="nltk", weights=weights, smoothing=smooth)
    assert corpus.tolist() == nb.corpus_bleu(refs, seqs, weights, smooth)


def test_smoothing_function_objects_carry_epsilon_and_k() -> None:
    h = torch.tensor([[1, 2, 3, 4, 5, 6]])
    r = torch.tensor([[1, 2, 3, 9, 5, 6]])
    for name in ("method1", "method3", "method4"):
        for owner in (
            nb.SmoothingFunction(epsilon=0.3, k=3),
            rb_nltk.SmoothingFunction(epsilon=0.3, k=3),
        ):
            got = sentence_bleu(h, r, pad_id=-1, dialect="nltk", smoothing=getattr(owner, name))
            want = nb.sentence_bleu(
                r.tolist(), h[0].tolist(), smoothing_function=getattr(owner, name)
            )
            assert got.tolist() == [want]


@pytest.mark.parametrize(
    "dtype",
    [
        torch.int8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.uint8,
        torch.uint16,
        torch.uint32,
        torch.uint64,
        torch.bool,
    ],
)
def test_integer_dtypes_read_as_the_cpu_engine_reads_them(dtype: torch.dtype) -> None:
    base = torch.tensor([[1, 0, 1, 1, 0, 1, 1, 1]])
    refs = torch.tensor([[[1, 1, 0, 1, 1, 0, 1, 1], [0, 1, 1, 1, 1, 1, 0, 0]]])
    got = statistics(base.to(dtype), refs.to(dtype), lengths=[7], ref_lengths=[[8, 5]])
    want, _ = token_statistics(
        base.to(dtype), [refs[0].to(dtype)], per_segment=True, lengths=[7], ref_lengths=[[8, 5]]
    )
    assert got.tolist() == want.tolist()


def test_views_and_big_batches_in_chunks() -> None:
    gen = torch.Generator().manual_seed(7)
    h = torch.randint(0, 6, (64, 30), generator=gen)
    r = torch.randint(0, 6, (64, 3, 25), generator=gen)
    lengths = torch.randint(0, 31, (64,), generator=gen)
    ref_lengths = torch.randint(0, 26, (64, 3), generator=gen)
    whole = statistics(h, r, lengths=lengths, ref_lengths=ref_lengths)
    for chunk_tokens in (1, 200, 1000, 10**9):
        assert (
            statistics(
                h, r, lengths=lengths, ref_lengths=ref_lengths, chunk_tokens=chunk_tokens
            ).tolist()
            == whole.tolist()
        )
    # Non-contiguous views read as their values.
    hv = h.t().contiguous().t()
    assert statistics(hv, r, lengths=lengths, ref_lengths=ref_lengths).tolist() == whole.tolist()
    want, _ = token_statistics(
        h, list(r), per_segment=True, lengths=lengths.tolist(), ref_lengths=ref_lengths.tolist()
    )
    assert whole.tolist() == want.tolist()
    scores = sentence_bleu(h, r, lengths=lengths, ref_lengths=ref_lengths, chunk_tokens=300)
    assert scores.tolist() == sentence_bleu(h, r, lengths=lengths, ref_lengths=ref_lengths).tolist()


def test_scores_come_back_on_the_input_device_as_float64() -> None:
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    h = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
    for device in devices:
        got = sentence_bleu(h.to(device), h.to(device), pad_id=0)
        assert got.device.type == device and got.dtype == torch.float64
        assert corpus_bleu(h.to(device), h.to(device), pad_id=0).device.type == device
    assert np.array_equal(
        sentence_bleu(h, h, pad_id=0).numpy(),
        BLEU(tokenize="none", effective_order=True).sentence_scores(h, [h], pad_id=0),
    )


@settings(max_examples=examples(60))
@given(cases(), st.integers(1, 4))
def test_a_known_id_range_gives_the_same_rows(case: Case, order: int) -> None:
    # count_rows(id_range=...) reads nothing from the device (for CUDA graphs): same rows,
    # whether the range is tight or merely holds every ID, padding included.
    want = statistics(case.h, case.r, max_ngram_order=order, **case.layout)
    b, r, width = case.r.shape
    if "pad_id" in case.layout:
        h, lengths = compact(case.h, case.layout["pad_id"])
        flat, flat_lengths = compact(case.r.reshape(b * r, width), case.layout["pad_id"])
        ref, ref_lengths = flat.view(b, r, width), flat_lengths.view(b, r)
    else:
        h, lengths = case.h, torch.tensor(case.layout["lengths"])
        ref, ref_lengths = case.r, torch.tensor(case.layout["ref_lengths"])
    everything = torch.cat([case.h.reshape(-1), case.r.reshape(-1)])
    if everything.numel() == 0:
        return
    lo, hi = int(everything.min()), int(everything.max())
    for id_range in ((lo, hi), (min(lo, -(2**40)), max(hi, 2**40))):
        got = count_rows(h, lengths, ref, ref_lengths, order, id_range=id_range)
        assert got.tolist() == want.tolist()
