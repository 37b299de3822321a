"""Times rapidbleu against sacreBLEU 2.6.0 on the same inputs, in one run.

Measurements (select with ``--only``, comma-separated):

- ``corpus``: corpus BLEU (13a) of a seeded synthetic corpus (100k segments by default),
  ``BLEU().corpus_score``; rapidbleu with all cores and with ``num_threads=1``.
- ``cached``: the same with the references cached, ``BLEU(references=...)`` then
  ``corpus_score(hyps, None)``; building the cache is timed as a row of its own.
- ``batch``: 10,000 sentence BLEUs: 10,000 ``sacrebleu.sentence_bleu`` calls against one batched
  rapidbleu call (``BLEU(effective_order=True).sentence_scores`` and ``bleu_per_item``).
- ``single``: the time of one ``sentence_bleu`` call (median over many different sentences).
- ``intl``, ``char``: corpus BLEU with those tokenizers (``char`` on a 10k subset: sacreBLEU's
  char tokenizer is slow and memory-hungry on the full corpus, about 130 s and 4 GB for 100k).
- ``real``: corpus BLEU of every system of every test set in the real data folder
  (``$RAPIDBLEU_DATA``, default ``../shared/data``), times summed per test set.
- ``mecab``: how fast rapidbleu could be on the ja / ko test sets at best: MeCab alone (the
  engine's model parsing each distinct line of the test set once, on 1 and 2 threads) against
  sacreBLEU's whole computation of that test set; then ``mecab_cold.py``'s ratios: rapidbleu's
  whole ja-mecab / ko-mecab BLEU against MeCab's own parse, each in a fresh process.
- ``spm``: corpus BLEU with ``tokenize="flores200"`` of every real test set, with a
  SentencePiece model (8k unigram) trained here on the references (nothing is downloaded).

Every measurement also checks that both tools give the same score with ``==`` and reports a
mismatch loudly (exit status 1). See benchmarks/README.md for how to read the output.

Usage::

    .venv/bin/python benchmarks/bench_bleu.py            # full run, a few minutes
    .venv/bin/python benchmarks/bench_bleu.py --quick    # smoke run, seconds
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gc
import json
import logging
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TypeVar

import mecab_cold
import numpy as np
import sacrebleu
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

import rapidbleu
from rapidbleu.metrics import BLEU as RapidBLEU

T = TypeVar("T")

#: Targets printed next to the ratios (sacreBLEU time / rapidbleu time).
TARGET_CORPUS = 100.0
TARGET_BATCH = 100.0
TARGET_SINGLE = 10.0
#: The issue's targets for the MeCab test sets, the SentencePiece row and all real sets.
TARGET_MECAB = 50.0
TARGET_SPM = 50.0
TARGET_REAL_ALL = 80.0

MEASUREMENTS = ("corpus", "cached", "batch", "single", "intl", "char", "real", "mecab", "spm")
REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_bleu.json"


def log(msg: str) -> None:
    """Progress line on stderr (the table goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# -- synthetic corpus ------------------------------------------------------------------------

#: English letter frequencies (a..z), for word shapes that look like text.
_LETTER_FREQ = np.array(
    [float(f) for f in "8.2 1.5 2.8 4.3 12.7 2.2 2.0 6.1 7.0 .15 .77 4.0 2.4 6.7 7.5 1.9 .095 "
     "6.0 6.3 9.1 2.8 .98 2.4 .15 2.0 .074".split()]
)  # fmt: skip
#: Tokens glued to the previous token when rendered (13a must split them off again).
_GLUE_LEFT = frozenset({",", ".", ";", ":", "!", "?", ")", "%", "'s", "n't"})
#: Tokens glued to the next token.
_GLUE_RIGHT = frozenset({"(", "$", "&quot;"})
#: Special tokens and the Zipf rank (1-based) each gets in the vocabulary.
_SPECIALS = dict(
    zip(
        ", . 's - ( ) : ; &quot; ? % $ n't ! &amp; 1990 2,000 3.5 42 100,000 1.25 [ ]".split(),
        (2, 3, 12, 25, 40, 41, 60, 90, 120, 150, 200, 260, 300, 400, 700, 800, 1200, 1500, 2000,
         3000, 5000, 8000, 8001),
    )
)  # fmt: skip


def _vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """``size`` distinct tokens in Zipf rank order: letter strings plus :data:`_SPECIALS`."""
    n_words = size - len(_SPECIALS)
    p = _LETTER_FREQ / _LETTER_FREQ.sum()
    words: dict[str, None] = {}
    while len(words) < n_words:
        lengths = rng.integers(1, 13, size=n_words)
        letters = rng.choice(26, size=int(lengths.sum()), p=p)
        caps = rng.random(n_words) < 0.1  # proper nouns
        pos = 0
        for length, cap in zip(lengths.tolist(), caps.tolist()):
            w = "".join(chr(97 + c) for c in letters[pos : pos + length].tolist())
            pos += length
            words[w.capitalize() if cap else w] = None
    # Shorter words are more frequent, capitalized ones (names) less: rank by length + noise.
    ranked = sorted(
        list(words)[:n_words], key=lambda w: len(w) + 3.0 * rng.random() + 6.0 * w[0].isupper()
    )
    for tok, rank in sorted(_SPECIALS.items(), key=lambda kv: kv[1]):
        ranked.insert(min(rank - 1, len(ranked)), tok)
    return ranked


def _render(tokens: list[str]) -> str:
    """Detokenized text: punctuation glued to words, ``-`` joining words, a final period."""
    out: list[str] = []
    glue_next = True
    for tok in tokens:
        if glue_next or tok in _GLUE_LEFT or tok == "-":
            out.append(tok)
        else:
            out.append(" " + tok)
        glue_next = tok in _GLUE_RIGHT or tok == "-"
    text = "".join(out)
    text = text[:1].upper() + text[1:]
    return text if tokens[-1] in _GLUE_LEFT else text + "."


def make_corpus(
    n_segments: int, seed: int, vocab_size: int = 50_000
) -> tuple[list[str], list[str]]:
    """A deterministic synthetic corpus: ``(hypotheses, references)``, one reference each.

    References have 10-40 tokens drawn from a Zipf (s=1) distribution over ``vocab_size``
    tokens; hypotheses are noisy copies (tokens dropped, replaced, swapped, inserted).

    Args:
        n_segments: Number of segments.
        seed: Seed of the NumPy generator; the same seed gives the same corpus.
        vocab_size: Vocabulary size.

    Returns:
        Hypotheses and references, ``n_segments`` strings each.
    """
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(vocab_size, rng)
    cdf = np.cumsum(1.0 / np.arange(1, vocab_size + 1))
    cdf /= cdf[-1]

    def zipf(k: int) -> list[str]:
        idx = np.minimum(np.searchsorted(cdf, rng.random(k)), vocab_size - 1)
        return [vocab[i] for i in idx.tolist()]

    lengths = rng.integers(10, 41, size=n_segments).tolist()
    pool = zipf(int(sum(lengths)))
    fill = iter(zipf(int(sum(lengths))))  # replacement / insertion tokens
    hyps: list[str] = []
    refs: list[str] = []
    pos = 0
    for n in lengths:
        ref = pool[pos : pos + n]
        pos += n
        hyp: list[str] = []
        for tok, u in zip(ref, rng.random(n).tolist()):
            if u < 0.05:  # drop
                continue
            if u < 0.12:  # replace
                hyp.append(next(fill))
            elif u < 0.16 and hyp:  # swap with the previous token
                hyp.insert(len(hyp) - 1, tok)
            elif u < 0.19:  # insert after
                hyp.extend((tok, next(fill)))
            else:
                hyp.append(tok)
        refs.append(_render(ref))
        hyps.append(_render(hyp or ref[:1]))
    return hyps, refs


# -- timing ----------------------------------------------------------------------------------


@dataclass
class Timing:
    """Wall-clock (``time.perf_counter``) seconds of each repetition, plus CPU seconds."""

    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """Median over repetitions."""
        return statistics.median(self.times)

    @property
    def min(self) -> float:
        """Fastest repetition."""
        return min(self.times)

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return {
            "median_s": self.median,
            "min_s": self.min,
            "times_s": self.times,
            "cpu_s": self.cpu,
        }


def clear_sacrebleu_caches() -> int:
    """Empties every ``lru_cache`` in sacreBLEU's tokenizers; returns how many were cleared.

    sacreBLEU decorates its tokenizers' ``__call__`` (and zh's ``_is_chinese_char``) with
    ``functools.lru_cache(maxsize=2**16)``, so a second run in the same process is faster than
    a first run in a fresh one. Clearing them before each repetition makes every repetition
    cost what it costs a user in a fresh process.
    """
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("sacrebleu.tokenizers.") or module is None:
            continue
        for obj in vars(module).values():
            members = vars(obj).values() if isinstance(obj, type) else [obj]
            for member in members:
                fn = getattr(member, "__func__", member)  # staticmethod / classmethod
                if hasattr(fn, "cache_clear"):
                    fn.cache_clear()
                    cleared += 1
    return cleared


def clear_rapidbleu_caches() -> None:
    """Drops rapidbleu's shared MeCab and SentencePiece tokenizers (and their line caches).

    Like sacreBLEU's class-level caches, they make a second run in the same process faster; they
    are dropped before each repetition so that both tools are timed cold. (The open MeCab
    models stay: they hold no results, only the dictionary.)
    """
    from rapidbleu import tokenizers

    tokenizers._MECAB.clear()
    tokenizers._SPM.clear()


def timed(fn: Callable[[], T], repeats: int, *, sacre: bool) -> tuple[Timing, T]:
    """Runs ``fn`` ``repeats`` times; returns the timings and the last result.

    sacreBLEU runs get their tokenizer caches cleared before each repetition and no warm-up
    (every repetition is a cold run); rapidbleu runs get one untimed warm-up call (which loads
    the extension and MeCab) and their shared MeCab caches dropped before each repetition.
    """
    timing = Timing()
    if not sacre:
        fn()
    result: Any = None
    for _ in range(repeats):
        if sacre:
            clear_sacrebleu_caches()
        else:
            clear_rapidbleu_caches()
        result = None
        gc.collect()
        c0, t0 = time.process_time(), time.perf_counter()
        result = fn()
        t1, c1 = time.perf_counter(), time.process_time()
        timing.times.append(t1 - t0)
        timing.cpu.append(c1 - c0)
    return timing, result


def warm_up(hyps: list[str], refs: list[str]) -> None:
    """One small untimed run of each tool and tokenizer, then empty sacreBLEU's caches.

    The first call in a process pays one-time costs (imports of tokenizer modules, regex
    compilation, thread pool start) that are not part of any workload.
    """
    h, r = hyps[:50] or ["a b c ."], refs[:50] or ["a b c ."]
    for tok in ("13a", "intl", "char", "zh"):
        SacreBLEU(tokenize=tok).corpus_score(h, [r])
        RapidBLEU(tokenize=tok).corpus_score(h, [r])
    sacrebleu.sentence_bleu(h[0], [r[0]])
    rapidbleu.sentence_bleu(h[0], [r[0]])
    clear_sacrebleu_caches()


# -- results ---------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: a sacreBLEU timing, a rapidbleu timing and their comparison."""

    key: str
    label: str
    n: int
    sacre: Timing
    rapid: Timing
    target: float | None
    check: tuple[bool, dict[str, Any]]  # (scores equal, the scores compared)
    note: str = ""

    @property
    def match(self) -> bool:
        """Whether both tools gave the same score(s), compared with ``==``."""
        return self.check[0]

    @property
    def ratio(self) -> float:
        """sacreBLEU median / rapidbleu median."""
        return self.sacre.median / self.rapid.median

    @property
    def ratio_best(self) -> float:
        """sacreBLEU min / rapidbleu min."""
        return self.sacre.min / self.rapid.min

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON-ready dict."""
        return {
            "measurement": self.key,
            "label": self.label,
            "n": self.n,
            "unit": "seconds per call" if self.key == "single" else "seconds per run",
            "sacrebleu": self.sacre.to_json(),
            "rapidbleu": self.rapid.to_json(),
            "ratio_median": self.ratio,
            "ratio_min": self.ratio_best,
            "target": self.target,
            "target_met": None if self.target is None else self.ratio >= self.target,
            "scores_equal": self.match,
            "scores": self.check[1],
            "note": self.note,
        }


def compare_scores(sacre: Any, rapid: Any) -> tuple[bool, dict[str, Any]]:
    """Compares two BLEUScores (score, counts, totals, lengths) with ``==``."""
    fields = ("score", "counts", "totals", "sys_len", "ref_len")
    same = all(plain(getattr(sacre, f)) == plain(getattr(rapid, f)) for f in fields)
    return same, {
        "sacrebleu": sacre.score,
        "rapidbleu": rapid.score,
        "sacrebleu_hex": float(sacre.score).hex(),
        "rapidbleu_hex": float(rapid.score).hex(),
        "fields": {f: [plain(getattr(sacre, f)), plain(getattr(rapid, f))] for f in fields},
    }


def plain(value: Any) -> Any:
    """Lists of counts as plain lists of Python numbers (for ``==`` and JSON)."""
    return (
        [int(v) if float(v).is_integer() else float(v) for v in value]
        if isinstance(value, (list, tuple))
        else value
    )


def compare_arrays(sacre: Sequence[float], rapid: Any) -> tuple[bool, dict[str, Any]]:
    """Compares sentence scores element by element with ``==``."""
    a = np.asarray(sacre, dtype=np.float64)
    b = np.asarray(rapid, dtype=np.float64)
    bad = np.flatnonzero(a != b) if a.shape == b.shape else np.arange(max(len(a), len(b)))
    info: dict[str, Any] = {"n": len(a), "n_differ": len(bad), "mean_sacrebleu": float(a.mean())}
    if len(bad):
        i = int(bad[0])
        info["first_difference"] = {
            "index": i,
            "sacrebleu": float(a[i]) if i < len(a) else None,
            "rapidbleu": float(b[i]) if i < len(b) else None,
        }
    return len(bad) == 0, info


# -- measurements ----------------------------------------------------------------------------


@dataclass
class Config:
    """What the command line asked for."""

    segments: int
    batch: int
    single: int
    char_segments: int
    repeats: int
    rapid_repeats: int
    seed: int
    data: Path
    systems_per_set: int | None


def corpus_rows(
    key: str, label: str, tok: str, hyps: list[str], refs: list[str], cfg: Config, note: str = ""
) -> list[Row]:
    """Corpus BLEU with tokenizer ``tok``: sacreBLEU vs rapidbleu (and, for 13a, 1 thread)."""
    log(f"{label}: sacreBLEU x{cfg.repeats} ...")
    st, ss = timed(
        lambda: SacreBLEU(tokenize=tok).corpus_score(hyps, [refs]), cfg.repeats, sacre=True
    )
    rows = []
    for suffix, threads in [("", None), (" (1 thread)", 1)][: 2 if tok == "13a" else 1]:
        log(f"{label}{suffix}: rapidbleu x{cfg.rapid_repeats} ...")

        def run(threads: int | None = threads) -> Any:
            return RapidBLEU(tokenize=tok, num_threads=threads).corpus_score(hyps, [refs])

        rt, rs = timed(run, cfg.rapid_repeats, sacre=False)
        check = compare_scores(ss, rs)
        rows.append(Row(key, label + suffix, len(hyps), st, rt, TARGET_CORPUS, check, note))
    return rows


def cached_rows(hyps: list[str], refs: list[str], cfg: Config) -> list[Row]:
    """Building ``BLEU(references=...)``, then ``corpus_score(hyps, None)``, both tools."""
    timings: dict[str, tuple[Timing, Timing]] = {}
    results: dict[str, Any] = {}
    for tool, cls, repeats in (
        ("sacreBLEU", SacreBLEU, cfg.repeats),
        ("rapidbleu", RapidBLEU, cfg.rapid_repeats),
    ):
        log(f"cached references: {tool} x{repeats} ...")
        sacre = tool == "sacreBLEU"
        build, score = Timing(), Timing()
        for i in range(repeats if sacre else repeats + 1):  # rapidbleu: one warm-up round
            if sacre:
                clear_sacrebleu_caches()
            gc.collect()
            c0, t0 = time.process_time(), time.perf_counter()
            metric = cls(references=[refs])
            c1, t1 = time.process_time(), time.perf_counter()
            if sacre:
                clear_sacrebleu_caches()
            c2, t2 = time.process_time(), time.perf_counter()
            results[tool] = metric.corpus_score(hyps, None)
            c3, t3 = time.process_time(), time.perf_counter()
            del metric
            if sacre or i > 0:
                build.times.append(t1 - t0)
                build.cpu.append(c1 - c0)
                score.times.append(t3 - t2)
                score.cpu.append(c3 - c2)
        timings[tool] = (build, score)
    check = compare_scores(results["sacreBLEU"], results["rapidbleu"])
    (sb, ss), (rb, rs) = timings["sacreBLEU"], timings["rapidbleu"]
    n = len(hyps)
    return [
        Row("cached", "cached refs: build BLEU(references=)", n, sb, rb, None, check),
        Row("cached", "cached refs: corpus_score(hyps, None)", n, ss, rs, TARGET_CORPUS, check),
    ]


def batch_rows(hyps: list[str], refs: list[str], cfg: Config) -> list[Row]:
    """N ``sacrebleu.sentence_bleu`` calls against one batched rapidbleu call."""
    h, r = hyps[: cfg.batch], refs[: cfg.batch]
    n = len(h)
    log(f"{n:,} sentence BLEUs: sacreBLEU x{cfg.repeats} ...")
    st, ss = timed(
        lambda: [sacrebleu.sentence_bleu(a, [b]).score for a, b in zip(h, r)],
        cfg.repeats,
        sacre=True,
    )
    items = [(a, [b]) for a, b in zip(h, r)]
    candidates: list[tuple[str, Callable[[], Any]]] = [
        ("sentence_scores", lambda: RapidBLEU(effective_order=True).sentence_scores(h, [r])),
        ("bleu_per_item", lambda: rapidbleu.bleu_per_item(items, scale="percent")),
    ]
    rows = []
    for name, fn in candidates:
        log(f"{n:,} sentence BLEUs: rapidbleu {name} x{cfg.rapid_repeats} ...")
        rt, rs = timed(fn, cfg.rapid_repeats, sacre=False)
        label = f"{n:,} sentence BLEUs: {name}"
        note = f"{n:,} sacrebleu.sentence_bleu calls vs one rapidbleu call"
        rows.append(Row("batch", label, n, st, rt, TARGET_BATCH, compare_arrays(ss, rs), note))
    return rows


def single_row(hyps: list[str], refs: list[str], cfg: Config) -> Row:
    """The time of one ``sentence_bleu`` call: per pass, the median over different sentences."""
    pairs = list(zip(hyps[: cfg.single], refs[: cfg.single]))
    timings: dict[str, Timing] = {}
    scores: dict[str, list[float]] = {}
    for tool, fn, repeats in (
        ("sacreBLEU", sacrebleu.sentence_bleu, cfg.repeats),
        ("rapidbleu", rapidbleu.sentence_bleu, cfg.rapid_repeats),
    ):
        log(f"single sentence_bleu: {tool}, {len(pairs):,} calls x{repeats} ...")
        sacre = tool == "sacreBLEU"
        timing = Timing()
        if not sacre:
            for a, b in pairs[:100]:  # warm-up
                fn(a, [b])
        for _ in range(repeats):
            if sacre:
                clear_sacrebleu_caches()
            gc.collect()
            calls, out = [], []
            c0 = time.process_time()
            for a, b in pairs:
                t0 = time.perf_counter()
                s = fn(a, [b])
                calls.append(time.perf_counter() - t0)
                out.append(s.score)
            timing.cpu.append((time.process_time() - c0) / len(pairs))
            timing.times.append(statistics.median(calls))
        timings[tool], scores[tool] = timing, out
    check = compare_arrays(scores["sacreBLEU"], scores["rapidbleu"])
    note = f"per-call median over {len(pairs):,} different sentences, per repetition"
    st, rt = timings["sacreBLEU"], timings["rapidbleu"]
    return Row("single", "one sentence_bleu call", len(pairs), st, rt, TARGET_SINGLE, check, note)


def read_lines(path: Path) -> list[str]:
    """Lines of a UTF-8 file, split on ``\\n`` only (other line breaks stay in the segment)."""
    text = path.read_bytes().decode("utf-8")
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def mecab_available() -> bool:
    """Whether both tools can build the ``ja-mecab`` and ``ko-mecab`` tokenizers."""
    try:
        SacreBLEU(tokenize="ja-mecab")
        SacreBLEU(tokenize="ko-mecab")
        RapidBLEU(tokenize="ja-mecab")
        RapidBLEU(tokenize="ko-mecab")
    except Exception:
        return False
    return True


def real_rows(cfg: Config) -> list[Row]:
    """Corpus BLEU of every system of every test set, summed per test set (and in total)."""
    if not cfg.data.is_dir():
        log(f"real data: {cfg.data} not found; skipped (set RAPIDBLEU_DATA or --data)")
        return []
    mecab = mecab_available()
    asian = "ja-mecab / ko-mecab (MeCab installed)" if mecab else "13a (MeCab not installed)"
    log(f"real data from {cfg.data}; en-ja / en-ko tokenizer: {asian}")
    rows: list[Row] = []
    total_s, total_r = Timing(), Timing()
    all_same = True
    for folder in sorted(p for p in cfg.data.iterdir() if p.is_dir() and "-" in p.name):
        trg = folder.name.rsplit("-", 1)[1]
        tok = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}.get(trg, "13a")
        if tok.endswith("mecab") and not mecab:
            tok = "13a"
        refs = [read_lines(p) for p in sorted(folder.glob("ref.*"))]
        hyps = {p.name: read_lines(p) for p in sorted(folder.glob("hyp.*"))}
        systems = list(hyps.items())[: cfg.systems_per_set]
        if not refs or not systems:
            continue
        if any(len(x) != len(refs[0]) for x in [*refs, *hyps.values()]):
            log(f"real data: {folder.name}: files of different lengths; skipped")
            continue

        def run(
            cls: Any,
            systems: list[tuple[str, list[str]]] = systems,
            tok: str = tok,
            refs: list[list[str]] = refs,
        ) -> list[Any]:
            return [cls(tokenize=tok).corpus_score(h, refs) for _, h in systems]

        log(f"real data: {folder.name} ({len(systems)} systems, {len(refs)} refs, tok {tok})")
        st, ss = timed(functools.partial(run, SacreBLEU), cfg.repeats, sacre=True)
        rt, rs = timed(functools.partial(run, RapidBLEU), cfg.rapid_repeats, sacre=False)
        per_system = {}
        for (name, _), a, b in zip(systems, ss, rs):
            same, info = compare_scores(a, b)
            per_system[name] = {"equal": same, "sacrebleu": a.score, "rapidbleu": b.score}
            if not same:
                per_system[name]["detail"] = info
        check = (all(v["equal"] for v in per_system.values()), per_system)
        all_same &= check[0]
        mecab_note = ""
        if tok.endswith("mecab"):
            mecab_note = (
                "MeCab's C library parses in both tools: sacreBLEU one line at a time through "
                f"the Python binding, rapidbleu ({_mecab_backend(tok)} backend) each distinct "
                "line once, on all cores; the `mecab` rows show MeCab's own time"
            )
        target = TARGET_MECAB if mecab_note else TARGET_CORPUS
        label = f"real {folder.name} [{tok}] {len(systems)} sys"
        lines = len(refs[0]) * len(systems)
        rows.append(Row("real", label, lines, st, rt, target, check, mecab_note))
        for total, t in ((total_s, st), (total_r, rt)):
            total.times = [a + b for a, b in zip(total.times, t.times)] if total.times else t.times
            total.cpu = [a + b for a, b in zip(total.cpu, t.cpu)] if total.cpu else t.cpu
    if rows:
        note = "sums of the test set rows, per repetition"
        n = sum(r.n for r in rows)
        rows.append(
            Row(
                "real",
                "real: all test sets",
                n,
                total_s,
                total_r,
                TARGET_REAL_ALL,
                (all_same, {}),
                note,
            )
        )
    return rows


def _mecab_backend(tok: str) -> str:
    """The backend rapidbleu's shared ``tok`` tokenizer uses (``engine`` or ``python``)."""
    from rapidbleu.tokenizers import get_python_tokenizer

    return str(getattr(get_python_tokenizer(tok), "backend", "python"))


def _test_sets(cfg: Config) -> list[tuple[str, str, list[list[str]], list[tuple[str, list[str]]]]]:
    """``(name, target language, references, systems)`` of each real test set, as ``real``."""
    sets = []
    for folder in sorted(p for p in cfg.data.iterdir() if p.is_dir() and "-" in p.name):
        refs = [read_lines(p) for p in sorted(folder.glob("ref.*"))]
        systems = [(p.name, read_lines(p)) for p in sorted(folder.glob("hyp.*"))]
        systems = systems[: cfg.systems_per_set]
        if refs and systems and all(len(x) == len(refs[0]) for x in refs + [h for _, h in systems]):
            sets.append((folder.name, folder.name.rsplit("-", 1)[1], refs, systems))
    return sets


def mecab_rows(cfg: Config) -> list[Row]:
    """MeCab alone (1 and 2 threads) against sacreBLEU's whole ja / ko computation."""
    from rapidbleu.tokenizers.mecab import TokenizerJaMecab, TokenizerKoMecab

    if not cfg.data.is_dir() or not mecab_available():
        log("mecab: real data or MeCab missing; skipped")
        return []
    rows = []
    for name, trg, refs, systems in _test_sets(cfg):
        if trg not in ("ja", "ko"):
            continue
        tok = f"{trg}-mecab"
        cls = TokenizerJaMecab if trg == "ja" else TokenizerKoMecab
        model = cls(backend="engine")._many.__self__
        every = [x for r in refs for x in r] + [x for _, h in systems for x in h]
        lines = list(dict.fromkeys(every))

        def sacre(tok: str = tok, refs: list[list[str]] = refs, systems: Any = systems) -> Any:
            return [SacreBLEU(tokenize=tok).corpus_score(h, refs) for _, h in systems]

        def parse(threads: int, model: Any = model, lines: list[str] = lines) -> list[str]:
            return list(model.tokenize(lines, threads))

        log(f"mecab: {name}: {len(lines):,} distinct lines of {len(every):,}")
        st, _ = timed(sacre, cfg.repeats, sacre=True)
        expected = parse(1)
        note = (
            "rapidbleu column: MeCab alone (the engine's model), each distinct line of the test "
            "set once; sacreBLEU column: its whole computation. The ratio bounds the real row's."
        )
        for threads in (1, 2):
            rt, out = timed(functools.partial(parse, threads), cfg.rapid_repeats, sacre=False)
            label = f"MeCab alone: {name}, {threads} thread{'s' if threads > 1 else ''}"
            rows.append(Row("mecab", label, len(lines), st, rt, None, (out == expected, {}), note))
    return rows


def _train_spm(home: Path, sets: list[Any]) -> Path:
    """An 8k unigram model trained on the references, at sacreBLEU's flores200 cache path."""
    import sacrebleu.tokenizers.tokenizer_spm as sacre_spm
    import sentencepiece

    text = home / "train.txt"
    text.write_text("\n".join(x for _, _, refs, _ in sets for r in refs for x in r), "utf-8")
    (home / "models").mkdir()
    log(f"spm: training an 8k unigram SentencePiece model on {text.stat().st_size:,} bytes")
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(home / "trained"), vocab_size=8000,
        model_type="unigram", character_coverage=0.9995, num_threads=2, minloglevel=2,
    )  # fmt: skip
    model = home / "models" / os.path.basename(sacre_spm.SPM_MODELS["flores200"]["url"])
    os.replace(home / "trained.model", model)
    return model


def spm_rows(cfg: Config) -> list[Row]:
    """flores200 BLEU of every real test set with a model trained here, summed."""
    import tempfile

    import sacrebleu.tokenizers.tokenizer_spm as sacre_spm

    if not cfg.data.is_dir():
        log("spm: real data missing; skipped")
        return []
    sets = _test_sets(cfg)
    with tempfile.TemporaryDirectory() as home:
        model = _train_spm(Path(home), sets)
        sacre_spm.SACREBLEU_DIR = home  # sacreBLEU read its cache folder at import

        def run(cls: Any, **kw: Any) -> list[Any]:
            return [
                cls(tokenize="flores200", **kw).corpus_score(h, refs)
                for _, _, refs, systems in sets
                for _, h in systems
            ]

        st, ss = timed(functools.partial(run, SacreBLEU), cfg.repeats, sacre=True)
        rapid = functools.partial(run, RapidBLEU, spm_model=model)
        rt, rs = timed(rapid, cfg.rapid_repeats, sacre=False)
    names = [f"{name}/{system}" for name, _, _, systems in sets for system, _ in systems]
    compared = dict(zip(names, (compare_scores(a, b) for a, b in zip(ss, rs))))
    check = (all(same for same, _ in compared.values()), {k: v[1] for k, v in compared.items()})
    n = sum(len(refs[0]) * len(systems) for _, _, refs, systems in sets)
    label = "spm: flores200 (trained 8k unigram), all sets"
    note = "rapidbleu: sentencepiece's batch encoder; sacreBLEU: EncodeAsPieces per line"
    return [Row("spm", label, n, st, rt, TARGET_SPM, check, note)]


# -- output ----------------------------------------------------------------------------------


def fmt_time(seconds: float) -> str:
    """Seconds in s, ms or µs."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


def print_table(rows: list[Row]) -> None:
    """The table of times (median, min) and ratios on stdout, then the rows' notes."""
    head = "measurement|n|sacreBLEU med (min)|rapidbleu med (min)|ratio med (best)|target|scores"
    table = [head.split("|")]
    for r in rows:
        target = "-"
        if r.target is not None:
            target = f">={r.target:g}x " + ("ok" if r.ratio >= r.target else "MISS")
        sacre = f"{fmt_time(r.sacre.median)} ({fmt_time(r.sacre.min)})"
        rapid = f"{fmt_time(r.rapid.median)} ({fmt_time(r.rapid.min)})"
        ratio = f"{r.ratio:,.1f}x ({r.ratio_best:,.1f}x)"
        same = "==" if r.match else "DIFFER!"
        table.append([r.label, f"{r.n:,}", sacre, rapid, ratio, target, same])
    widths = [max(len(cells[i]) for cells in table) for i in range(len(table[0]))]
    line = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    table.insert(1, ["-" * w for w in widths])
    for cells in table:
        print(line.format(*cells))
    for r in rows:
        if r.note:
            print(f"  note: {r.label}: {r.note}")


def machine_info() -> dict[str, Any]:
    """CPU, Python, platform and package versions, for the JSON file."""
    cpu_model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu_count": os.cpu_count(),
        "cpu_affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cpu_model": cpu_model or platform.processor(),
        "loadavg_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "python": sys.version,
        "python_implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "rapidbleu": rapidbleu.__version__,
        "sacrebleu": sacrebleu.__version__,
        "numpy": np.__version__,
        "RAPIDBLEU_NUM_THREADS": os.environ.get("RAPIDBLEU_NUM_THREADS"),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--segments", type=int, default=None, help="synthetic corpus size (100000)")
    p.add_argument("--batch", type=int, default=None, help="sentence BLEUs in `batch` (10000)")
    p.add_argument("--single", type=int, default=None, help="calls in `single` (2000)")
    p.add_argument("--char-segments", type=int, default=None, help="segments for `char` (10000)")
    p.add_argument("--repeats", type=int, default=None, help="sacreBLEU repetitions (3)")
    p.add_argument("--rapid-repeats", type=int, default=None, help="rapidbleu repetitions (7)")
    p.add_argument("--seed", type=int, default=12345, help="seed of the synthetic corpus")
    p.add_argument(
        "--data",
        type=Path,
        default=Path(os.environ.get("RAPIDBLEU_DATA") or DEFAULT_DATA),
        help="real data folder (default: $RAPIDBLEU_DATA or ../shared/data)",
    )
    p.add_argument(
        "--only",
        default=",".join(MEASUREMENTS),
        help="comma-separated measurements: " + ",".join(MEASUREMENTS),
    )
    p.add_argument("--quick", action="store_true", help="small sizes and 1 repetition (smoke run)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"JSON file ({DEFAULT_OUT})")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the selected measurements, prints the table, writes the JSON; 1 on a mismatch."""
    args = parse_args(argv)
    only = [m.strip() for m in args.only.split(",") if m.strip()]
    unknown = sorted(set(only) - set(MEASUREMENTS))
    if unknown:
        print(f"unknown measurement(s) {unknown}; choose from {MEASUREMENTS}", file=sys.stderr)
        return 2
    q = args.quick

    def pick(given: int | None, full: int, quick: int) -> int:
        return given if given is not None else (quick if q else full)

    cfg = Config(
        segments=pick(args.segments, 100_000, 2_000),
        batch=pick(args.batch, 10_000, 1_000),
        single=pick(args.single, 2_000, 200),
        char_segments=pick(args.char_segments, 10_000, 1_000),
        repeats=pick(args.repeats, 3, 1),
        rapid_repeats=pick(args.rapid_repeats, 7, 3),
        seed=args.seed,
        data=args.data,
        systems_per_set=1 if q else None,
    )
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    logging.getLogger("rapidbleu").setLevel(logging.ERROR)
    info = machine_info()
    log(
        f"rapidbleu {info['rapidbleu']}, sacrebleu {info['sacrebleu']}, "
        f"{info['cpu_count']} CPUs, Python {platform.python_version()}"
    )

    rows: list[Row] = []
    cold: list[dict[str, object]] = []
    hyps: list[str] = []
    refs: list[str] = []
    if set(only) - {"real", "mecab", "spm"}:
        n_corpus = max(cfg.segments, cfg.batch, cfg.single, cfg.char_segments)
        log(f"generating {n_corpus:,} synthetic segments (seed {cfg.seed}) ...")
        hyps, refs = make_corpus(n_corpus, cfg.seed)
    warm_up(hyps, refs)
    h, r = hyps[: cfg.segments], refs[: cfg.segments]
    for key in only:
        if key == "corpus":
            rows += corpus_rows("corpus", "corpus BLEU 13a", "13a", h, r, cfg)
        elif key == "cached":
            rows += cached_rows(h, r, cfg)
        elif key == "batch":
            rows += batch_rows(hyps, refs, cfg)
        elif key == "single":
            rows.append(single_row(hyps, refs, cfg))
        elif key == "intl":
            rows += corpus_rows("intl", "corpus BLEU intl", "intl", h, r, cfg)
        elif key == "char":
            n = cfg.char_segments
            note = f"first {n:,} segments only: sacreBLEU's char tokenizer is very slow"
            rows += corpus_rows("char", "corpus BLEU char", "char", hyps[:n], refs[:n], cfg, note)
        elif key == "real":
            rows += real_rows(cfg)
        elif key == "mecab":
            rows += mecab_rows(cfg)
            cold = mecab_cold.cold_ratios(cfg.data, (1, 2), cfg.repeats, cfg.systems_per_set)
        elif key == "spm":
            rows += spm_rows(cfg)

    print()
    print(
        f"rapidbleu {info['rapidbleu']} vs sacreBLEU {info['sacrebleu']}; "
        f"{info['cpu_count']} CPUs; ratio = sacreBLEU time / rapidbleu time; "
        f"sacreBLEU x{cfg.repeats}, rapidbleu x{cfg.rapid_repeats} repetitions"
    )
    print_table(rows)
    if cold:
        print(
            "\nja-mecab / ko-mecab BLEU against MeCab's own parse, cold (benchmarks/mecab_cold.py):"
        )
        mecab_cold.print_rows(cold)
    mismatches = [r.label for r in rows if not r.match]
    for label in mismatches:
        print(f"!!! SCORE MISMATCH: {label}: sacreBLEU and rapidbleu differ (see JSON)")

    info["loadavg_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    report = {
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": [sys.executable, *sys.argv],
        "machine": info,
        "config": {
            **{k: v for k, v in vars(cfg).items() if k != "data"},
            "data": str(cfg.data),
            "quick": q,
            "only": only,
            "corpus_segments_generated": len(hyps),
        },
        "targets": {"corpus": TARGET_CORPUS, "batch": TARGET_BATCH, "single": TARGET_SINGLE},
        "rows": [r.to_json() for r in rows],
        "mecab_cold": cold,
        "mismatches": mismatches,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"\nJSON: {args.out}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
