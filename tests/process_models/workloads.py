"""Every kind of scoring, computed in one process, for comparison across process models.

A parent computes :func:`results` first (which starts the core's thread pools, loads MeCab and
SentencePiece models and fills their per-thread state), then a child made by some process
model computes it again; the two must be ``==``. Each workload has more segments than the
core's parallel threshold (64), so the child uses its thread pools, not the calling thread.

Run by ``driver.py`` (in a subprocess with a timeout), never collected by pytest itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import rapidbleu
from rapidbleu.analysis.pairwise import pairwise_scores
from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.metrics import BLEU, CHRF, TER

#: Segments per workload: above the core's parallel threshold (64 segments).
N = 160


def _lines(path: Path, n: int = N) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:n]


def _pair(data: Path, folder: str, hyp: str, ref: str) -> tuple[list[str], list[list[str]]]:
    return _lines(data / folder / hyp), [_lines(data / folder / ref)]


def results(data: Path, spm_model: str) -> dict[str, Any]:
    """Scores, statistics rows and matrices of every metric and tokenizer, as plain values.

    Args:
        data: The WMT data folder (``tests/data`` or the full data).
        spm_model: A SentencePiece model file for the ``spm`` tokenizer.
    """
    de = _pair(data, "wmt22.en-de", "hyp.PROMT.de", "ref.A.de")
    zh = _pair(data, "wmt22.en-zh", "hyp.HuaweiTSC.zh", "ref.A.zh")
    ja = _pair(data, "wmt22.en-ja", "hyp.NT5.ja", "ref.A.ja")
    ko = _pair(data, "wmt24chat.en-ko", "hyp.baseline.ko", "ref.A.ko")
    out: dict[str, Any] = {"pid_differs": os.getpid()}
    for name, (hyps, refs), options in [
        ("13a", de, {}),
        ("intl", de, {"tokenize": "intl", "lowercase": True}),
        ("zh", zh, {"tokenize": "zh"}),
        ("char", zh, {"tokenize": "char"}),
        ("ja-mecab", ja, {"tokenize": "ja-mecab"}),
        ("ko-mecab", ko, {"tokenize": "ko-mecab"}),
        ("spm", de, {"tokenize": "spm", "spm_model": spm_model}),
    ]:
        bleu = BLEU(**options)
        out[f"bleu/{name}"] = str(bleu.corpus_score(hyps, refs))
        out[f"bleu/{name}/rows"] = bleu.statistics(hyps, refs).tolist()
        out[f"bleu/{name}/sentences"] = bleu.sentence_scores(hyps, refs).tolist()
    hyps, refs = de
    out["corpus_bleu"] = rapidbleu.corpus_bleu(hyps, refs).score
    out["chrf"] = CHRF().corpus_score(hyps, refs).score
    out["chrf++/sentences"] = CHRF(word_order=2).sentence_scores(hyps, refs).tolist()
    out["ter"] = TER().corpus_score(hyps, refs).score
    out["ter/rows"] = TER().statistics(hyps, refs).tolist()
    out["pairwise/bleu"] = [m.tolist() for m in pairwise_scores([hyps[:80]])]
    out["pairwise/chrf"] = [m.tolist() for m in pairwise_scores([hyps[:80]], metric=CHRF())]
    toks = [h.split() for h in hyps]
    ref_toks = [[r.split()] for r in refs[0]]
    out["nltk/corpus"] = rb_nltk.corpus_bleu(ref_toks, toks)
    out["nltk/batch"] = list(rb_nltk.sentence_bleu_batch(ref_toks, toks))
    ids = [[len(w) * 1000 + ord(w[0]) for w in h.split()] for h in hyps]
    ref_ids = [[[len(w) * 1000 + ord(w[0]) for w in r.split()] for r in refs[0]]]
    out["ids/sentences"] = BLEU(tokenize="none").sentence_scores(ids, ref_ids).tolist()
    return out


def same(parent: dict[str, Any], child: dict[str, Any]) -> list[str]:
    """The keys whose values differ (``pid_differs`` must differ: the child is another process)."""
    bad = [k for k in parent if k != "pid_differs" and parent[k] != child.get(k)]
    if parent["pid_differs"] == child.get("pid_differs"):
        bad.append("pid_differs")
    return bad
