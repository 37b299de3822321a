"""Token-ID and pre-tokenised input: every form gives the same rows and scores."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import rapidbleu
from rapidbleu import errors
from rapidbleu.io.tokens import encode, is_pretokenized
from rapidbleu.metrics import BLEU
from rapidbleu.metrics.bleu.tokens import token_statistics

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tokenizer.json"


class FakeTensor:
    """Stands in for a torch CPU tensor (cheap, any dtype; tests/torch checks real ones): its
    class lives in a module named ``torch``, and ``.detach().numpy()`` returns a NumPy view."""

    def __init__(self, array: Any) -> None:
        self._a = np.asarray(array)

    def detach(self) -> FakeTensor:
        return self

    def numpy(self) -> Any:
        return self._a

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._a.shape)

    @property
    def dtype(self) -> str:
        return f"torch.{self._a.dtype}"  # torch's dtypes print as torch.float32, torch.int64

    def __len__(self) -> int:
        return len(self._a)

    def __getitem__(self, i: int) -> FakeTensor:
        return FakeTensor(self._a[i])


FakeTensor.__module__ = "torch"


ids = st.lists(st.integers(0, 6), max_size=30)


@st.composite
def id_corpus(draw: Any) -> tuple[list[list[int]], list[list[list[int]]]]:
    n = draw(st.integers(1, 6))
    hyps = [draw(ids) for _ in range(n)]
    refs = [draw(st.lists(ids, min_size=1, max_size=4)) for _ in range(n)]
    return hyps, refs


@settings(max_examples=80, deadline=None)
@given(id_corpus(), st.sampled_from(["int8", "int16", "int32", "int64", "uint16", "uint64"]))
def test_lists_numpy_and_tensors_agree(corpus: Any, dtype: str) -> None:
    hyps, refs = corpus
    expected, kind = token_statistics(hyps, refs, per_segment=True)
    assert kind in ("ids", "empty")
    as_np = [np.array(h, dtype=dtype) for h in hyps]
    refs_np = [[np.array(r, dtype=dtype) for r in rs] for rs in refs]
    assert (token_statistics(as_np, refs_np, per_segment=True)[0] == expected).all()
    as_t = [FakeTensor(np.array(h, dtype=dtype)) for h in hyps]
    refs_t = [[FakeTensor(np.array(r, dtype=dtype)) for r in rs] for rs in refs]
    assert (token_statistics(as_t, refs_t, per_segment=True)[0] == expected).all()
    # A padded 2-D batch (pad id 99 never occurs), with lengths or with pad_id.
    width = max(len(h) for h in hyps) + 2
    batch = np.full((len(hyps), width), 99, dtype=dtype)
    for i, h in enumerate(hyps):
        batch[i, : len(h)] = h
    lengths = [len(h) for h in hyps]
    assert (token_statistics(batch, refs, lengths=lengths, per_segment=True)[0] == expected).all()
    assert (token_statistics(batch, refs, pad_id=99, per_segment=True)[0] == expected).all()
    assert (
        token_statistics(FakeTensor(batch), refs, pad_id=99, per_segment=True)[0] == expected
    ).all()
    # Scores too, through every entry point.
    a = rapidbleu.bleu_per_item(list(zip(hyps, refs)))
    b = rapidbleu.bleu_per_item(list(zip(as_np, refs_np)))
    assert a.tolist() == b.tolist()


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["a", "b", "ç", "日本", "x.", "&amp;", "\x00"]), max_size=12),
            st.lists(st.sampled_from(["a", "b", "ç", "日本", "x."]), max_size=12),
        ),
        min_size=1,
        max_size=5,
    ),
    st.booleans(),
)
def test_tokens_equal_text_tokenised_with_none(pairs: Any, lowercase: bool) -> None:
    hyp_toks = [h for h, _ in pairs]
    ref_toks = [r for _, r in pairs]
    hyps = [" ".join(h) for h in hyp_toks]
    refs = [" ".join(r) for r in ref_toks]
    expected = sacrebleu.corpus_bleu(hyps, [refs], tokenize="none", lowercase=lowercase)
    got = rapidbleu.corpus_bleu(hyp_toks, [ref_toks], lowercase=lowercase)
    assert got.score == expected.score and got.counts == expected.counts
    bleu = BLEU(tokenize="none", effective_order=True)
    assert (
        bleu.sentence_scores(hyps, [refs]).tolist()
        == BLEU(effective_order=True).sentence_scores(hyp_toks, [ref_toks]).tolist()
    )
    s = rapidbleu.sentence_bleu(hyp_toks[0], [ref_toks[0]])
    assert s.score == sacrebleu.sentence_bleu(hyps[0], [refs[0]], tokenize="none").score


def test_is_pretokenized() -> None:
    assert is_pretokenized(np.zeros((2, 3), dtype=np.int64))
    assert is_pretokenized(FakeTensor(np.zeros((2, 3))))
    assert is_pretokenized([np.array([1])]) and is_pretokenized([(1, 2)])
    assert not is_pretokenized(["a"]) and not is_pretokenized([]) and not is_pretokenized("ab")


def test_torch_is_not_imported() -> None:
    import subprocess

    code = (
        "import rapidbleu, rapidbleu.dialects.nltk, rapidbleu.metrics.bleu.tokens, sys; "
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("hyps", "refs", "kw", "exc", "words"),
    [
        ([[1, "a"]], [[[1]]], {}, errors.InputTypeError, "mixes token IDs"),
        ([[1.5]], [[[1]]], {}, errors.InputTypeError, "must be integers"),
        ([[2**70]], [[[1]]], {}, errors.InputError, "64-bit"),
        ([[1]], [[[1]], [[2]]], {}, errors.LengthMismatchError, "reference lists"),
        ([[1]], [[]], {}, errors.MissingReferenceError, "no reference"),
        ([np.array([1.0])], [[[1]]], {}, errors.InputTypeError, "integers"),
        (
            np.zeros((2, 2), dtype=int),
            [[[1]], [[1]]],
            {"lengths": [1]},
            errors.LengthMismatchError,
            "lengths",
        ),
        (np.zeros((1, 2), dtype=int), [[[1]]], {"lengths": [3]}, errors.InputError, "outside"),
        ([[1]], [[[1]]], {"lengths": [1]}, errors.InvalidOptionError, "2-D"),
        ([[1]], [[[1]]], {"max_order": 0}, errors.InvalidOptionError, "positive"),
        ([[1]], [[[1]]], {"ref_len_rule": "x"}, errors.InvalidOptionError, "closest"),
        (["a b"], [[[1]]], {}, errors.InputTypeError, "str"),
        ([np.zeros((2, 2, 2), dtype=int)], [[[1]]], {}, errors.InputTypeError, "1-D"),
    ],
)
def test_errors(hyps: Any, refs: Any, kw: dict[str, Any], exc: type, words: str) -> None:
    with pytest.raises(exc, match=words):
        token_statistics(hyps, refs, **kw, per_segment=True)


def test_reference_length_rules() -> None:
    hyps, refs = [[1, 2, 3, 4]], [[[1, 2, 3, 4, 5], [1, 2, 3], [1]]]
    assert token_statistics(hyps, refs, ref_len_rule="closest", per_segment=True)[0][0, 1] == 3
    assert (
        token_statistics(hyps, refs, ref_len_rule="closest-first", per_segment=True)[0][0, 1] == 5
    )
    assert token_statistics(hyps, refs, ref_len_rule="shortest", per_segment=True)[0][0, 1] == 1


def test_streams_layout_and_bleu_class() -> None:
    hyps = np.array([[1, 2, 3, 4, 0], [5, 6, 7, 0, 0]])
    refs = [np.array([[1, 2, 3, 4, 0], [5, 6, 8, 0, 0]]), [[1, 2], [5, 6, 7]]]
    rows = token_statistics(hyps, refs, per_segment=False, pad_id=0)[0]
    per_seg = [[[1, 2, 3, 4], [1, 2]], [[5, 6, 8], [5, 6, 7]]]
    assert (rows == token_statistics([[1, 2, 3, 4], [5, 6, 7]], per_seg, per_segment=True)[0]).all()
    bleu = BLEU()
    assert bleu.corpus_score([[1, 2, 3, 4], [5, 6, 7]], [[[1, 2, 3, 4], [5, 6, 8]]]).score == (
        rapidbleu.corpus_bleu(["1 2 3 4", "5 6 7"], [["1 2 3 4", "5 6 8"]]).score
    )


def test_hf_tokenizer_and_tiktoken() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    tok = tokenizers.Tokenizer.from_file(str(FIXTURE))
    texts = ["The cats sat on the mat!", "hello world"]
    by_obj = encode(texts, tok)
    assert by_obj == encode(texts, str(FIXTURE)) == encode(texts, FIXTURE)
    assert by_obj[1] == [tok.token_to_id("hello"), tok.token_to_id("world")]
    assert encode(texts, tok, add_special_tokens=True)[1][0] == tok.token_to_id("[CLS]")
    with pytest.raises(errors.MissingModelError):
        encode(texts, "bert-base-cased")
    tiktoken = pytest.importorskip("tiktoken")
    ranks = {bytes([b]): b for b in range(256)}
    ranks[b"th"] = 256
    ranks[b"the"] = 257
    enc = tiktoken.Encoding(
        name="tiny", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={}
    )
    assert encode(["the then"], enc) == [[257, 32, 257, 110]]
    with pytest.raises(errors.InputTypeError):
        encode(["a"], 42)


# IDs on both sides of the engine's direct-table bound (2**18), large and negative ones.
wide_ids = st.lists(
    st.sampled_from([0, 1, 7, 2**18 - 1, 2**18, 2**40, -1, -(2**63), 2**63 - 1]), max_size=20
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(wide_ids, st.lists(wide_ids, min_size=1, max_size=3)), min_size=1))
def test_any_int64_id_counts_as_its_own_token(segments: Any) -> None:
    # The engine looks small IDs up by index and others by hash: the rows must be those of
    # the same sequences as str tokens, whatever the mix.
    hyps = [h for h, _ in segments]
    refs = [rs for _, rs in segments]
    as_str = lambda seq: [f"t{t}" for t in seq]  # noqa: E731
    expected, _ = token_statistics(
        [as_str(h) for h in hyps], [[as_str(r) for r in rs] for rs in refs], per_segment=True
    )
    assert (token_statistics(hyps, refs, per_segment=True)[0] == expected).all()


@settings(max_examples=40, deadline=None)
@given(id_corpus())
def test_strided_and_fortran_arrays_equal_contiguous(corpus: Any) -> None:
    hyps, refs = corpus
    width = max(len(h) for h in hyps) + 1
    batch = np.full((len(hyps), width), 99, dtype=np.int64)
    for i, h in enumerate(hyps):
        batch[i, : len(h)] = h
    lengths = [len(h) for h in hyps]
    expected = token_statistics(batch, refs, lengths=lengths, per_segment=True)[0]
    fortran = np.asfortranarray(batch)
    strided = np.repeat(batch, 2, axis=1)[:, ::2]
    for b in (fortran, strided):
        assert (token_statistics(b, refs, lengths=lengths, per_segment=True)[0] == expected).all()
        assert (token_statistics(b, refs, pad_id=99, per_segment=True)[0] == expected).all()
    # 1-D rows that are views with a stride.
    rows = [np.repeat(np.array(h, dtype=np.int64), 2)[::2] for h in hyps]
    assert (token_statistics(rows, refs, per_segment=True)[0] == expected).all()


def test_str_as_chars() -> None:
    # NLTK's convention: a str sequence is its characters.
    hyps, refs = ["ab\u00e9c", "xyz"], [["abc"], ["xy", "z"]]
    rows = token_statistics(hyps, refs, str_as_chars=True, per_segment=True)[0]
    listed = token_statistics(
        [list(h) for h in hyps], [[list(r) for r in rs] for rs in refs], per_segment=True
    )
    assert (rows == listed[0]).all()
    with pytest.raises(errors.InputTypeError, match="is a str"):
        token_statistics(hyps, refs, per_segment=True)
    # A lone surrogate is not text, as a character or a token (the text path's rule).
    with pytest.raises(errors.InvalidTextError, match=r"hypotheses\[0\]\[2\].*surrogate"):
        token_statistics(["ab\ud800c"], [["abc"]], str_as_chars=True, per_segment=True)


def test_a_list_changed_while_it_is_read_is_not_read_past_its_end() -> None:
    # The reader borrows list items without a reference count; an `__index__` that empties
    # the list must end the read, not reach a freed item.
    seq: list[Any] = []

    class Shrinker:
        def __index__(self) -> int:
            seq.clear()
            return 5

    seq.extend([1, 2, Shrinker(), 3, 4])
    rows = token_statistics([seq], [[[1, 2, 5]]], per_segment=True)[0]
    assert (
        rows.tolist() == token_statistics([[1, 2, 5]], [[[1, 2, 5]]], per_segment=True)[0].tolist()
    )


def test_flags_are_read_by_truth_value() -> None:
    # As `lowercase`: 1 and 0 (or numpy bools) work like True and False.
    hyps, refs = ["ab"], [["abc"]]
    want = token_statistics(hyps, refs, str_as_chars=True, per_segment=True)[0]
    assert (
        token_statistics(hyps, refs, str_as_chars=np.bool_(True), per_segment=True)[0] == want
    ).all()
    assert (token_statistics(hyps, refs, per_segment=1, str_as_chars=1)[0] == want).all()
    streams = token_statistics([[1, 2]], [[[1, 2]]], per_segment=0)[0]
    assert (streams == token_statistics([[1, 2]], [[[1, 2]]], per_segment=False)[0]).all()


def test_a_float_tensor_is_named_as_a_tensor() -> None:
    """Finding 10: a float torch tensor was described as "a NumPy array of dtype float32"."""
    for seq in ([FakeTensor(np.array([1.0, 2.0], dtype=np.float32))], FakeTensor(np.ones((1, 2)))):
        with pytest.raises(errors.InputTypeError, match=r"torch tensor of dtype torch\.float") as e:
            token_statistics(seq, [[[1, 2]]], per_segment=True, pad_id=0)
        assert "NumPy" not in str(e.value)
