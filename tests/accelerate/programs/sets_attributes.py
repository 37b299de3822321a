"""A sacreBLEU program that sets options after construction, falls back, and pickles.

Run plainly and under ``python -m rapidbleu.accelerate``; the JSON outputs must be ``==``.
"""

from __future__ import annotations

import copy
import json
import pickle
import sys
import warnings
from pathlib import Path
from typing import Any

from sacrebleu.metrics import BLEU, CHRF

warnings.simplefilter("ignore")
data = Path(sys.argv[1])


def lines(name: str, n: int = 200) -> list[str]:
    return (data / name).read_text(encoding="utf-8").splitlines()[:n]


hyps = lines("wmt22.en-de/hyp.PROMT.de")
ref_a, ref_b = lines("wmt22.en-de/ref.A.de"), lines("wmt22.en-de/ref.B.de")
out: dict[str, Any] = {}


def sig(metric: Any) -> str:
    return str(metric.get_signature()).split("|version:")[0]


bleu = BLEU()
bleu.lowercase = True
bleu.max_ngram_order = 3
out["bleu_lc3"] = [bleu.corpus_score(hyps, [ref_a]).score, sig(bleu)]
chrf = CHRF()
chrf.whitespace, chrf.beta = True, 1
out["chrf_ws"] = [chrf.corpus_score(hyps, [ref_a, ref_b]).score, sig(chrf)]
chrf.char_order = 4  # sacreBLEU keeps `order` from __init__: its error, in both runs
try:
    chrf.corpus_score(hyps, [ref_a])
except Exception as e:
    out["chrf_order"] = type(e).__name__
# A call rapidbleu refuses (a reference stream one line short) falls back; the signature
# must describe it (its nrefs), not the call before.
bleu = BLEU()
out["two_refs"] = [bleu.corpus_score(hyps, [ref_a, ref_b]).score, sig(bleu)]
out["fallback"] = [bleu.corpus_score(hyps, [ref_a[:-1]]).score, sig(bleu)]
cached = BLEU(references=[ref_a])
for name, copier in [
    ("deepcopy", copy.deepcopy),
    ("pickle", lambda m: pickle.loads(pickle.dumps(m))),
]:
    twin = copier(cached)
    out[name] = [twin.corpus_score(hyps, None).score, sig(twin)]
print(json.dumps(out))
