"""rapidbleu.torch on real WMT22 en-de token IDs, against sacreBLEU, NLTK and the CPU engine.

Two kinds of real IDs, both as padded 2-D tensors with two references per segment:

- word IDs: sacreBLEU's ``13a`` tokens mapped to integers (one vocabulary over the files), so
  sacreBLEU 2.6.0 on the raw *text* is the oracle, sentence by sentence and for the corpus;
- subword IDs from a Hugging Face tokenizer (``tests/fixtures/tokenizer.json``: a small
  WordPiece vocabulary, so many pieces and repeated n-grams), scored against the CPU engine
  and NLTK.
"""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path

import pytest
import sacrebleu
import torch
from conftest import DATA, read_lines
from nltk.translate import bleu_score as nb
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.io.tokens import encode
from rapidbleu.metrics import BLEU
from rapidbleu.metrics.bleu.tokens import token_statistics
from rapidbleu.torch import corpus_bleu, sentence_bleu, statistics

PAIR = DATA / "wmt22.en-de"
FILES = ("hyp.Online-B.de", "ref.A.de", "ref.B.de")
TOKENIZER = Path(__file__).resolve().parents[1] / "fixtures" / "tokenizer.json"
PAD = -1  # no tokenizer makes a negative ID


@cache
def _lines(name: str) -> tuple[str, ...]:
    return tuple(read_lines(PAIR / name))


@cache
def _word_ids() -> tuple[list[list[int]], ...]:
    tok, vocab = Tokenizer13a(), {}
    out = []
    for name in FILES:
        seqs = [tok(line.rstrip()).split() for line in _lines(name)]
        out.append([[vocab.setdefault(t, len(vocab)) for t in s] for s in seqs])
    return tuple(out)


@cache
def _subword_ids() -> tuple[list[list[int]], ...]:
    return tuple(encode(list(_lines(name)), str(TOKENIZER)) for name in FILES)


def _padded(seqs: list[list[int]]) -> torch.Tensor:
    width = max(len(s) for s in seqs)
    return torch.tensor([s + [PAD] * (width - len(s)) for s in seqs], dtype=torch.int64)


def _batch(ids: tuple[list[list[int]], ...]) -> tuple[torch.Tensor, torch.Tensor]:
    hyp, ref_a, ref_b = ids
    refs = _padded(ref_a + ref_b).view(2, len(ref_a), -1).transpose(0, 1)
    return _padded(hyp), refs


def test_word_ids_equal_sacrebleu_on_the_text() -> None:
    h, r = _batch(_word_ids())
    hyp, ref_a, ref_b = (list(_lines(n)) for n in FILES)
    got = sentence_bleu(h, r, pad_id=PAD)
    oracle = sacrebleu.BLEU(effective_order=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [oracle.sentence_score(x, [a, b]).score for x, a, b in zip(hyp, ref_a, ref_b)]
    assert got.tolist() == want
    assert float(corpus_bleu(h, r, pad_id=PAD)) == sacrebleu.corpus_bleu(hyp, [ref_a, ref_b]).score
    # Lengths instead of pad_id: the padding is then junk past each end.
    lengths = [len(s) for s in _word_ids()[0]]
    ref_lengths = [[len(a), len(b)] for a, b in zip(*_word_ids()[1:])]
    again = sentence_bleu(h, r, lengths=lengths, ref_lengths=ref_lengths, chunk_tokens=20_000)
    assert again.tolist() == want


@pytest.mark.parametrize("smoothing", ["method0", "method1", "method2", "method3", "method4"])
def test_subword_ids_equal_nltk_and_the_cpu_engine(smoothing: str) -> None:
    h, r = _batch(_subword_ids())
    hyp, ref_a, ref_b = _subword_ids()
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    smooth = getattr(nb.SmoothingFunction(), smoothing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sentence_bleu(h, r, pad_id=PAD, dialect="nltk", smoothing=smoothing)
        engine = rb_nltk.sentence_bleu_batch(list(r), h, smoothing_function=smooth, pad_id=PAD)
        assert got.tolist() == engine.tolist()
        # NLTK itself on the first 300 segments (it takes a while), and on the corpus.
        first = [
            nb.sentence_bleu(rs, x, smoothing_function=smooth) for x, rs in zip(hyp[:300], refs)
        ]
        assert got[:300].tolist() == first
        corpus = corpus_bleu(h, r, pad_id=PAD, dialect="nltk", smoothing=smoothing)
        assert float(corpus) == nb.corpus_bleu(refs, hyp, smoothing_function=smooth)


def test_subword_rows_and_sacrebleu_dialect() -> None:
    h, r = _batch(_subword_ids())
    rows = statistics(h, r, pad_id=PAD)
    want, _ = token_statistics(
        *_subword_ids()[:1], [list(x) for x in zip(*_subword_ids()[1:])], per_segment=True
    )
    assert rows.tolist() == want.tolist()
    engine = BLEU(tokenize="none", effective_order=True)
    assert sentence_bleu(h, r, pad_id=PAD).tolist() == engine.score_rows(want).tolist()
