"""ROUGE's dialects and rouge-score's fastest exact peer, timed for ``bench_rouge.py``.

Each case runs the package once and rapidbleu ``rounds`` times on the same items (at least
10,000), checks that the results are equal with ``==``, and returns a row (times, ratio):

- ``pltrdy``: ``rouge`` 1.0.1 ``Rouge().get_scores(hyps, refs)`` against rapidbleu's;
- ``pltrdy_avg``: the same with ``avg=True``;
- ``rouge_chinese``: ``rouge-chinese`` 1.0.3 on WMT22 en-zh documents segmented with jieba
  beforehand (segmentation not timed), ``avg=False``;
- ``xlsum_en``, ``xlsum_en_nostem``, ``xlsum_zh``: ``multilingual-rouge`` 0.0.1
  ``RougeScorer(types, lang=..., use_stemmer=...)`` ``score`` per item against rapidbleu's
  ``score_batch``. ``xlsum_en`` (``lang=None``, the Porter stemmer) and ``xlsum_en_nostem``
  are tokenized in the core (the few documents with characters it does not read, such as
  ``è``, by the package's tokenizers); ``xlsum_zh`` (jieba) too, on the core's port of
  jieba 0.42.1's ``cut`` with the dictionary and model jieba has loaded;
- ``calls_vs_rs``: rouge-score's dialect one call per item, as an unchanged program makes
  through the accelerator (``rapidbleu.metrics.rouge.rouge_scorer.RougeScorer.score``), against
  ``rouge_score_rs.rouge_scorer.RougeScorer.score`` 0.2.1, both equal to rouge-score 0.1.2.
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _timed(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def _row(
    case: str, peer: str, theirs: Callable[[], Any], ours: Callable[[], Any], rounds: int
) -> dict[str, Any]:
    t_theirs, want = _timed(theirs)
    times, same = [], True
    for _ in range(rounds):
        t, got = _timed(ours)
        times.append(t)
        same = same and got == want
        # Checked and dropped, as a program that scores once holds one result: the results of
        # earlier runs, kept, would have Python's collector walk them in every later run
        # (10,000 dicts of 4 Score objects: about 0.08 s a run in xlsum_zh).
        del got
    t_ours = statistics.median(times)
    print(
        f"[{time.strftime('%H:%M:%S')}] {case}: {peer} {t_theirs:.2f} s, rapidbleu {t_ours:.3f} s",
        file=sys.stderr,
        flush=True,
    )
    return {
        "case": case,
        "peer": peer,
        "peer_s": t_theirs,
        "rapidbleu_s": t_ours,
        "ratio": t_theirs / t_ours,
        "same": same,
    }


def _chinese_documents(data: Path, items: int) -> tuple[list[str], list[str]]:
    """WMT22 en-zh documents of 3 to 5 lines, segmented with jieba (words joined by spaces)."""
    import jieba

    jieba.setLogLevel(60)
    d = data / "wmt22.en-zh"
    hyp = (d / "hyp.HuaweiTSC.zh").read_text(encoding="utf-8").split("\n")
    ref = (d / "ref.A.zh").read_text(encoding="utf-8").split("\n")
    seg = {s: " ".join(jieba.cut(s)) for s in set(hyp) | set(ref)}
    n = min(len(hyp), len(ref)) - 5
    preds, targets = [], []
    for i in range(items):
        start, k = (i * 37) % n, 3 + i % 3
        preds.append("".join(seg[x] for x in hyp[start : start + k]))
        targets.append("".join(seg[x] for x in ref[start : start + k]))
    return preds, targets


def cases(
    preds: list[str], targets: list[str], data: Path, rounds: int, only: set[str] | None = None
) -> list[dict[str, Any]]:
    """Every case's row (see the module's notes), or those named in ``only``."""
    rows = _cases(preds, targets, data, rounds, only or None)
    return [r for r in rows if not only or r["case"] in only]


def _cases(
    preds: list[str], targets: list[str], data: Path, rounds: int, only: set[str] | None
) -> list[dict[str, Any]]:
    def wanted(case: str) -> bool:
        return only is None or case in only

    def row(case: str, *args: Any) -> dict[str, Any] | None:
        return _row(case, *args) if wanted(case) else None

    import rouge
    import rouge_chinese
    from multilingual_rouge import rouge_scorer as mrs
    from rouge_score import rouge_scorer
    from rouge_score_rs import rouge_scorer as rs

    from rapidbleu.metrics.rouge import chinese, pltrdy, xlsum
    from rapidbleu.metrics.rouge.rouge_scorer import RougeScorer

    rows = [
        row(
            "pltrdy",
            "rouge 1.0.1",
            lambda: rouge.Rouge().get_scores(preds, targets),
            lambda: pltrdy.Rouge().get_scores(preds, targets),
            rounds,
        ),
        row(
            "pltrdy_avg",
            "rouge 1.0.1",
            lambda: rouge.Rouge().get_scores(preds, targets, avg=True),
            lambda: pltrdy.Rouge().get_scores(preds, targets, avg=True),
            rounds,
        ),
    ]
    zh_p, zh_t = _chinese_documents(data, len(preds))
    rows.append(
        row(
            "rouge_chinese",
            "rouge-chinese 1.0.3",
            lambda: rouge_chinese.Rouge().get_scores(zh_p, zh_t),
            lambda: chinese.Rouge().get_scores(zh_p, zh_t),
            rounds,
        )
    )
    raw_zh = [p.replace(" ", "") for p in zh_p], [t.replace(" ", "") for t in zh_t]
    for case, lang, stem, (ps, ts) in (
        ("xlsum_en", None, True, (preds, targets)),
        ("xlsum_en_nostem", None, False, (preds, targets)),
        ("xlsum_zh", "chinese", False, raw_zh),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = mrs.RougeScorer(TYPES, use_stemmer=stem, lang=lang)
            ours = xlsum.RougeScorer(TYPES, use_stemmer=stem, lang=lang)
            rows.append(
                row(
                    case,
                    "multilingual-rouge 0.0.1",
                    lambda s=theirs, ps=ps, ts=ts: [s.score(t, p) for t, p in zip(ts, ps)],
                    lambda s=ours, ps=ps, ts=ts: s.score_batch(ts, ps),
                    rounds,
                )
            )
    if not wanted("calls_vs_rs"):
        return [r for r in rows if r is not None]
    want = [
        {k: tuple(v) for k, v in d.items()}
        for d in (
            rouge_scorer.RougeScorer(TYPES, use_stemmer=True).score(t, p)
            for t, p in zip(targets, preds)
        )
    ]
    peer = rs.RougeScorer(TYPES, use_stemmer=True)
    ours_calls = RougeScorer(TYPES, use_stemmer=True)

    def as_tuples(results: list[dict[str, Any]]) -> list[dict[str, tuple[float, ...]]]:
        return [{k: tuple(v) for k, v in d.items()} for d in results]

    t_rs, got_rs = _timed(lambda: [peer.score(t, p) for t, p in zip(targets, preds)])
    cell = _row(
        "calls_vs_rs",
        "rouge-score-rs 0.2.1",
        lambda: as_tuples([peer.score(t, p) for t, p in zip(targets, preds)]),
        lambda: as_tuples([ours_calls.score(t, p) for t, p in zip(targets, preds)]),
        rounds,
    )
    cell["peer_s"] = min(cell["peer_s"], t_rs)
    cell["ratio"] = cell["peer_s"] / cell["rapidbleu_s"]
    cell["same"] = cell["same"] and as_tuples(got_rs) == want
    rows.append(cell)
    return [r for r in rows if r is not None]
