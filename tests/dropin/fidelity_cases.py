"""The parity suites' calls, observed as a program sees them: one JSON record per case.

``python fidelity_cases.py oracle|dropin`` runs every case against the real packages
(``oracle``: sacreBLEU, NLTK's ``bleu_score``, rouge-score, as imported by name; run it under
``python -m rapidbleu.accelerate`` and the names are the mode's) or rapidbleu's drop-in
namespaces (``dropin``: ``rapidbleu.sacrebleu``, ``rapidbleu.dialects.nltk``,
``rapidbleu.metrics.rouge.rouge_scorer`` / ``scoring``), and prints one JSON list: per case
what it returned (every value with its type, ``repr`` with addresses taken out), or the
exception it raised (its classes, its message), the warnings (category, text, the file they
are attributed to) and sacreBLEU's log records (logger, level, text).
``tests/dropin/test_fidelity.py`` compares the three runs.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import re
import sys
import warnings
from collections.abc import Callable
from typing import Any

ADDRESS = re.compile(r" at 0x[0-9a-f]+")
#: The private copies' prefix in the mode (rapidbleu.accelerate.real.PREFIX): a fallback's
#: exception is the real package's class, loaded under that name.
PRIVATE = "_rapidbleu_real."


def qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}".replace(PRIVATE, "")


def describe(value: Any, depth: int = 0) -> Any:
    """The value as a program can see it: its type, and its parts or ``repr``."""
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    if isinstance(value, float):
        return [kind, "nan" if math.isnan(value) else repr(value)]
    if value is None or isinstance(value, (bool, int, str)):
        return [kind, repr(value)]
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return [kind, [describe(v, depth + 1) for v in value], repr(value)]
    if isinstance(value, (list, tuple)):
        return [kind, [describe(v, depth + 1) for v in value]]
    if isinstance(value, dict):
        return [kind, [[str(k), describe(v, depth + 1)] for k, v in value.items()]]
    if kind == "builtins.dict_keys":
        return [kind, list(value)]
    public = {}
    if depth < 2 and hasattr(value, "__dict__"):
        # Its instance attributes (the oracle's are compared), and the attributes that
        # programs read whether or not they are in the instance's dict.
        names = [k for k in vars(value) if not k.startswith("_")] + [
            k for k in READ if hasattr(value, k)
        ]
        public = {k: describe(getattr(value, k), depth + 1) for k in sorted(set(names))}
    return [kind, ADDRESS.sub("", repr(value)), ADDRESS.sub("", str(value)), public]


#: Attributes programs read that are not all in an instance's dict (private ones, properties).
READ = ("prec_str", "tokenizer", "_tokenizer", "_split_summaries", "_force", "rouge_types")


class Logs(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[list[str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append([record.name, record.levelname, record.getMessage()])


def observe(call: Callable[[], Any], logs: Logs) -> dict[str, Any]:
    logs.records = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out: dict[str, Any] = {"value": describe(call())}
        except Exception as e:  # what the program sees
            out = {"raised": [qualname(c) for c in type(e).__mro__[:-2]]}
    out["warnings"] = [
        [w.category.__name__, str(w.message), os.path.basename(w.filename)] for w in caught
    ]
    out["logs"] = logs.records
    return out


# -- the inputs: the parity suites' kinds of text -----------------------------------------

WORDS = (
    "the a cat cats sat sitting on mat mats running ran dog . , ! ? ( ) - 's 3.5 1,000 "
    "é ü straße İstanbul 中文 日本語 한국어 — « » ' \" ; : x-y a.b Hello, world"
).split(" ")


def sentence(rng: random.Random) -> str:
    n = rng.choice([0, 1, 2, 4, 7, 12])
    text = " ".join(rng.choice(WORDS) for _ in range(n))
    return text.upper() if rng.random() < 0.1 else text


def corpus(seed: int, n: int, nrefs: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    hyps = [sentence(rng) for _ in range(n)]
    refs = [[sentence(rng) if rng.random() < 0.8 else h for h in hyps] for _ in range(nrefs)]
    return hyps, refs


def cases(which: str) -> list[tuple[str, Callable[[], Any]]]:
    if which == "dropin":
        import rapidbleu.dialects.nltk as bleu_score
        import rapidbleu.metrics.rouge.rouge_scorer as rouge_scorer
        import rapidbleu.metrics.rouge.scoring as scoring
        import rapidbleu.sacrebleu as sacrebleu
    else:
        import nltk.translate.bleu_score as bleu_score  # type: ignore[import-untyped, no-redef]
        import rouge_score.rouge_scorer as rouge_scorer  # type: ignore[import-untyped, no-redef]
        import rouge_score.scoring as scoring  # type: ignore[import-untyped, no-redef]
        import sacrebleu  # type: ignore[import-untyped, no-redef]
    out: list[tuple[str, Callable[[], Any]]] = []

    def add(name: str, call: Callable[[], Any]) -> None:
        out.append((name, call))

    # sacreBLEU's BLEU: tokenizers x smoothing x lowercase x effective order, 1 or 2 streams.
    bleu_options = [
        dict(tokenize=t, smooth_method=s, smooth_value=v, lowercase=lc, effective_order=e)
        for t in ("13a", "intl", "zh", "char", "none")
        for s, v in (("exp", None), ("floor", 0.013), ("add-k", 3), ("none", None))
        for lc in (False, True)
        for e in (False, True)
    ]
    for k, opts in enumerate(bleu_options):
        hyps, refs = corpus(k, 6, 1 + k % 2)
        for kind in ("corpus", "sentence", "signature", "vars"):

            def call(opts: dict[str, Any] = opts, h: Any = hyps, r: Any = refs, kind: str = kind):
                m = sacrebleu.BLEU(**opts)
                if kind == "corpus":
                    return m.corpus_score(h, r)
                if kind == "sentence":
                    return [m.sentence_score(x, [s[i] for s in r]) for i, x in enumerate(h)]
                if kind == "signature":
                    m.corpus_score(h, r)
                    return [str(m.get_signature()).split("|version:")[0]]
                return m

            add(f"BLEU {k} {kind}", call)
    for k in range(6):
        hyps, refs = corpus(100 + k, 5, 1 + k % 3)
        add(f"corpus_bleu {k}", lambda h=hyps, r=refs: sacrebleu.corpus_bleu(h, r))
        add(f"sentence_bleu {k}", lambda h=hyps, r=refs: sacrebleu.sentence_bleu(h[0], [r[0][0]]))
        add(f"raw_corpus_bleu {k}", lambda h=hyps, r=refs: sacrebleu.raw_corpus_bleu(h, r))
        add(f"corpus_chrf {k}", lambda h=hyps, r=refs: sacrebleu.corpus_chrf(h, r))
        add(f"sentence_chrf {k}", lambda h=hyps, r=refs: sacrebleu.sentence_chrf(h[0], [r[0][0]]))
        add(f"corpus_ter {k}", lambda h=hyps, r=refs: sacrebleu.corpus_ter(h, r))
        add(f"sentence_ter {k}", lambda h=hyps, r=refs: sacrebleu.sentence_ter(h[0], [r[0][0]]))
        add(f"BLEU refs= {k}", lambda h=hyps, r=refs: sacrebleu.BLEU(references=r).corpus_score(h))
    # chrF: the parity suite's orders and flags.
    for k, (c, w, lc, ws, eps) in enumerate(
        (c, w, lc, ws, eps)
        for c, w in ((6, 0), (6, 2), (0, 2), (1, 1), (3, 4))
        for lc, ws, eps in ((False, False, False), (True, True, False), (False, True, True))
    ):
        hyps, refs = corpus(200 + k, 5, 1 + k % 2)
        opts = dict(char_order=c, word_order=w, lowercase=lc, whitespace=ws, eps_smoothing=eps)
        add(
            f"CHRF {k} corpus",
            lambda o=opts, h=hyps, r=refs: sacrebleu.CHRF(**o).corpus_score(h, r),
        )
        add(
            f"CHRF {k} sentence",
            lambda o=opts, h=hyps, r=refs: [
                sacrebleu.CHRF(**o).sentence_score(x, [r[0][i]]) for i, x in enumerate(h)
            ],
        )
        add(f"CHRF {k} vars", lambda o=opts: sacrebleu.CHRF(**o))
    # TER: every flag combination.
    for k in range(16):
        flags = dict(
            normalized=bool(k & 1),
            no_punct=bool(k & 2),
            asian_support=bool(k & 4),
            case_sensitive=bool(k & 8),
        )
        hyps, refs = corpus(300 + k, 4, 1 + k % 2)
        add(
            f"TER {k} corpus", lambda o=flags, h=hyps, r=refs: sacrebleu.TER(**o).corpus_score(h, r)
        )
        add(
            f"TER {k} sentence",
            lambda o=flags, h=hyps, r=refs: sacrebleu.TER(**o).sentence_score(h[0], [r[0][0]]),
        )
        add(f"TER {k} vars", lambda o=flags: sacrebleu.TER(**o))
    # Bad options and inputs (each a call a program might make).
    bad: dict[str, Callable[[], Any]] = {
        "smooth_method": lambda: sacrebleu.BLEU(smooth_method="bogus"),
        "tokenize": lambda: sacrebleu.BLEU(tokenize="bogus"),
        "smooth_value str": lambda: sacrebleu.BLEU(smooth_method="floor", smooth_value="x"),
        "trg_lang": lambda: sacrebleu.BLEU(trg_lang="xx").tokenizer_signature,
        "max_ngram_order 0": lambda: sacrebleu.BLEU(max_ngram_order=0).corpus_score(["a"], [["a"]]),
        "chrf order 0": lambda: sacrebleu.CHRF(char_order=0, word_order=0),
        "hyp not str": lambda: sacrebleu.BLEU().corpus_score([1], [["a"]]),
        "refs flat": lambda: sacrebleu.BLEU().corpus_score(["a"], ["a"]),
        "refs str": lambda: sacrebleu.corpus_bleu("a", "a"),
        "sentence hyp list": lambda: sacrebleu.BLEU().sentence_score(["a"], ["a"]),
        "sentence refs str": lambda: sacrebleu.sentence_bleu("a b", "a b"),
        "empty corpus": lambda: sacrebleu.corpus_bleu([], [[]]),
        "no refs": lambda: sacrebleu.BLEU().corpus_score(["a"], None),
        "chrf hyp none": lambda: sacrebleu.CHRF().corpus_score([None], [["a"]]),
        "ter hyp int": lambda: sacrebleu.TER().corpus_score([3], [["a"]]),
        "ter sentence refs str": lambda: sacrebleu.sentence_ter("a", "a"),
        "tokenizers": lambda: sacrebleu.BLEU.TOKENIZERS,
        "trg_lang None": lambda: sacrebleu.BLEU(trg_lang=None).corpus_score(["a"], [["a"]]),
        "trg_lang int": lambda: sacrebleu.BLEU(trg_lang=3).corpus_score(["a"], [["a"]]),
        "tokenize int": lambda: sacrebleu.corpus_bleu(["a"], [["a"]], tokenize=3),
        "smooth_method None": lambda: sacrebleu.BLEU(smooth_method=None),
        "lowercase str": lambda: sacrebleu.BLEU(lowercase="x").corpus_score(["A"], [["a"]]),
        "max_ngram_order str": lambda: sacrebleu.BLEU(max_ngram_order="4"),
        "chrf beta str": lambda: sacrebleu.CHRF(beta="x").corpus_score(["a"], [["a"]]),
        "chrf char_order str": lambda: sacrebleu.CHRF(char_order="6"),
        "chrf word_order -1": lambda: sacrebleu.CHRF(word_order=-1).corpus_score(["a"], [["a"]]),
        "ter case str": lambda: sacrebleu.TER(case_sensitive="x").corpus_score(["A"], [["a"]]),
        "ref None": lambda: sacrebleu.BLEU().corpus_score(["a"], [[None]]),
        "chrf ref None": lambda: sacrebleu.CHRF().corpus_score(["a"], [[None]]),
        "ter ref None": lambda: sacrebleu.TER().corpus_score(["a"], [[None]]),
        "sentence hyp int": lambda: sacrebleu.sentence_bleu(3, ["a"]),
        "sentence_chrf refs None": lambda: sacrebleu.sentence_chrf("a", None),
        "sentence_ter refs int": lambda: sacrebleu.sentence_ter("a", [3]),
    }
    for name, call in bad.items():
        add(f"bad {name}", call)

    # BLEU.tokenizer assigned after construction: sacreBLEU tokenizes with it.
    class Lower:
        def __call__(self, line: str) -> str:
            return line.lower()

        def signature(self) -> str:
            return "lower"

    import importlib

    intl = importlib.import_module(f"{sacrebleu.__name__}.tokenizers.tokenizer_intl")
    for k, make in enumerate([intl.TokenizerV14International, Lower]):
        hyps, refs = corpus(150 + k, 6, 2)

        def assigned(make: Any = make, h: Any = hyps, r: Any = refs) -> Any:
            m = sacrebleu.BLEU()
            m.tokenizer = make()
            return [m.corpus_score(h, r), str(m.get_signature()).split("|version:")[0]]

        add(f"tokenizer assigned {make.__name__}", assigned)

    # NLTK: its smoothing functions on token lists.
    smooth = bleu_score.SmoothingFunction()
    methods = [None, smooth.method0, smooth.method1, smooth.method2, smooth.method3]
    methods += [smooth.method4, smooth.method5, smooth.method7]
    for k, method in enumerate(methods):
        hyps, refs = corpus(400 + k, 5, 2)
        th = [h.split() for h in hyps]
        tr = [[r[i].split() for r in refs] for i in range(len(hyps))]
        kw = {} if method is None else {"smoothing_function": method}
        add(f"nltk corpus {k}", lambda th=th, tr=tr, kw=kw: bleu_score.corpus_bleu(tr, th, **kw))
        add(
            f"nltk sentence {k}",
            lambda th=th, tr=tr, kw=kw: [
                bleu_score.sentence_bleu(r, h, **kw) for r, h in zip(tr, th)
            ],
        )
    add(
        "nltk weights",
        lambda: bleu_score.sentence_bleu([["a", "b"]], ["a", "b"], weights=(0.5, 0.5)),
    )
    add("nltk empty", lambda: bleu_score.sentence_bleu([["a"]], []))
    add(
        "nltk auto_reweigh",
        lambda: bleu_score.sentence_bleu([["a", "b"]], ["a", "b"], auto_reweigh=True),
    )

    # rouge-score: types x stemmer, score and score_multi, and the scorer's attributes.
    types_sets = [["rouge1"], ["rouge2", "rougeL"], ["rouge1", "rouge2", "rougeL", "rougeLsum"]]
    for k, types in enumerate(types_sets):
        for stem in (False, True):
            hyps, refs = corpus(500 + 2 * k + stem, 6, 2)
            name = f"rouge {k} {stem}"
            add(
                f"{name} score",
                lambda t=types, s=stem, h=hyps, r=refs: [
                    rouge_scorer.RougeScorer(t, use_stemmer=s).score(r[0][i], x)
                    for i, x in enumerate(h)
                ],
            )
            add(
                f"{name} score_multi",
                lambda t=types, s=stem, h=hyps, r=refs: [
                    rouge_scorer.RougeScorer(t, use_stemmer=s).score_multi([r[0][i], r[1][i]], x)
                    for i, x in enumerate(h)
                ],
            )
            add(f"{name} scorer", lambda t=types, s=stem: rouge_scorer.RougeScorer(t, s))
    add("rouge bad type", lambda: rouge_scorer.RougeScorer(["rougeX"]).score("a", "a"))
    add(
        "rouge score_multi empty", lambda: rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    )
    add("rouge aggregator", lambda: _aggregate(scoring, rouge_scorer))

    # Custom ROUGE tokenizers (objects with .tokenize): generators, unhashable, NaN, non-str.
    tokenizers: dict[str, Callable[[str], Any]] = {
        "list": lambda t: t.split(),
        "generator": lambda t: (w for w in t.split()),
        "unhashable": lambda t: [[w] for w in t.split()],
        "nan": lambda t: [float("nan") for _ in t.split()],
        "ints": lambda t: [len(w) for w in t.split()],
        "tuple": lambda t: tuple(t.split()),
        "none": lambda t: None,
    }
    for name, fn in tokenizers.items():
        tok = type("Tok", (), {"tokenize": staticmethod(fn)})()
        for types in (["rouge1", "rouge2"], ["rougeL"], ["rougeLsum"]):
            add(
                f"rouge tokenizer {name} {types}",
                lambda tok=tok, t=types: rouge_scorer.RougeScorer(t, tokenizer=tok).score(
                    "a b c a", "a b d a"
                ),
            )
    return out


def _aggregate(scoring: Any, rouge_scorer: Any) -> Any:
    import numpy as np

    np.random.seed(0)
    agg = scoring.BootstrapAggregator(n_samples=20)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    hyps, refs = corpus(600, 8, 1)
    for h, r in zip(hyps, refs[0]):
        agg.add_scores(scorer.score(r, h))
    return agg.aggregate()


def main(which: str) -> None:
    logs = Logs()
    # A program written for sacreBLEU configures sacreBLEU's logger; rapidbleu's drop-in
    # namespaces log under rapidbleu's own name (docs/accelerate.md).
    for name in ("sacrebleu", "rapidbleu") if which == "dropin" else ("sacrebleu",):
        logger = logging.getLogger(name)
        logger.addHandler(logs)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
    records = [{"case": name, **observe(call, logs)} for name, call in cases(which)]
    json.dump(records, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
