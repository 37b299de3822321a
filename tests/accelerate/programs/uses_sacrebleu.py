"""A program written for sacreBLEU, NLTK and evaluate: prints its results as JSON.

Run plainly and under ``python -m rapidbleu.accelerate``; the outputs must be ``==``. It uses
the module paths programs import, the functional and object APIs, significance tests, and the
cases rapidbleu refuses but the real packages answer (they must fall back, same result).
"""

from __future__ import annotations

import json
import pickle
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

import nltk.translate.bleu_score as nltk_bleu
import sacrebleu
import sacrebleu.compat
import sacrebleu.metrics.bleu
import sacrebleu.metrics.chrf
import sacrebleu.metrics.helpers
import sacrebleu.metrics.ter
import sacrebleu.tokenizers.tokenizer_13a
import sacrebleu.tokenizers.tokenizer_intl
import sacrebleu.tokenizers.tokenizer_ter
import sacrebleu.utils
from nltk.translate.bleu_score import SmoothingFunction
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

warnings.simplefilter("ignore")
data = Path(sys.argv[1])


def lines(name: str, n: int = 300) -> list[str]:
    return (data / name).read_text(encoding="utf-8").splitlines()[:n]


hyps = lines("wmt22.en-de/hyp.PROMT.de")
other = lines("wmt22.en-de/hyp.OpenNMT.de")
refs = [lines("wmt22.en-de/ref.A.de"), lines("wmt22.en-de/ref.B.de")]


def attempt(f: Callable[[], Any]) -> Any:
    """The result, or the exception's type and message (the same in both modes)."""
    try:
        return f()
    except Exception as e:
        return f"{type(e).__name__}: {e}"


out: dict[str, Any] = {
    "corpus_bleu": str(sacrebleu.corpus_bleu(hyps, refs)),
    "compat.corpus_bleu": sacrebleu.compat.corpus_bleu(hyps, refs, tokenize="intl").score,
    "raw_corpus_bleu": sacrebleu.raw_corpus_bleu(hyps, refs).score,
    "sentence_bleu": [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs[0])],
    "corpus_chrf++": sacrebleu.corpus_chrf(hyps, refs, word_order=2).score,
    "sentence_chrf": [sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, refs[0])],
    "corpus_ter": sacrebleu.corpus_ter(hyps[:100], [r[:100] for r in refs]).score,
    "BLEU": str(BLEU(lowercase=True).corpus_score(hyps, refs)),
    "CHRF": CHRF(word_order=2).corpus_score(hyps, refs).score,
    "chrf.CHRF sentence": CHRF().sentence_score(hyps[0], [refs[0][0]]).score,
    "TER": TER(normalized=True).corpus_score(hyps[:100], [r[:100] for r in refs]).score,
    "ter.TER": sacrebleu.metrics.ter.TER().sentence_score(hyps[1], [refs[0][1]]).score,
    "compute_bleu": BLEU.compute_bleu([4, 3, 2, 1], [4, 3, 2, 1], 4, 4).score,
    "isinstance": isinstance(BLEU(), sacrebleu.metrics.bleu.BLEU),
    "helpers": sorted(sacrebleu.metrics.helpers.extract_all_word_ngrams("a b a", 1, 2)[0].items()),
    "13a": sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()("Hello, world!"),
    "intl": sacrebleu.tokenizers.tokenizer_intl.TokenizerV14International()("Hi—there."),
    "tercom": sacrebleu.tokenizers.tokenizer_ter.TercomTokenizer(normalized=True)("Jim's car."),
    "sum_of_lists": sacrebleu.utils.sum_of_lists([[1, 2], [3, 4]]),
    "paired bootstrap": str(
        PairedTest(
            [("base", hyps), ("other", other)],
            {"BLEU": BLEU(), "chrF": CHRF()},
            refs,
            test_type="bs",
            n_samples=200,
        )()[1]
    ),
    "nltk corpus_bleu": nltk_bleu.corpus_bleu(
        [[r.split()] for r in refs[0]], [h.split() for h in hyps]
    ),
    "nltk sentence_bleu method1": [
        nltk_bleu.sentence_bleu(
            [r.split()], h.split(), smoothing_function=SmoothingFunction().method1
        )
        for h, r in zip(hyps, refs[0])
    ],
    "nltk bleu_1": nltk_bleu.sentence_bleu(
        [refs[0][3].split()], hyps[3].split(), weights=(1, 0, 0, 0)
    ),
    # rapidbleu refuses these, sacreBLEU or NLTK answer them: the real package must answer.
    "fallback: lone surrogate": attempt(
        lambda: sacrebleu.corpus_bleu(["a \ud800 b"], [["a b"]]).score
    ),
    "fallback: nltk lone surrogate": attempt(
        lambda: nltk_bleu.sentence_bleu([["a", "\ud800", "c"]], ["a", "\ud800", "c"])
    ),
    "fallback: unknown tokenizer": attempt(lambda: BLEU(tokenize="no-such-tokenizer")),
    "fallback: negative floor": attempt(
        lambda: BLEU(smooth_method="floor", smooth_value=-1).corpus_score(["a b"], [["a c"]]).score
    ),
    # lighteval#1112's shape: one "stream" per segment; sacreBLEU scores part of the corpus.
    "fallback: references nested per segment": attempt(
        lambda: CHRF().corpus_score(hyps[:5], [[r] for r in refs[0][:5]]).score
    ),
    "pickled metric": pickle.loads(pickle.dumps(BLEU())).corpus_score(hyps, refs).score,
    "names rapidbleu lacks": [len(sacrebleu.DATASETS) > 0, sacrebleu.dataset.DATASETS is not None],
}
bleu = sacrebleu.metrics.bleu.BLEU()
bleu.corpus_score(hyps, refs)
out["signature"] = str(bleu.get_signature()).split("|version")[0]
print(json.dumps(out, sort_keys=True))
