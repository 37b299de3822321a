"""In the mode, one real object is one object: identities and base classes as without it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROGRAM = """
import json, sacrebleu, sacrebleu.metrics, sacrebleu.metrics.bleu, sacrebleu.metrics.chrf
from rouge_score import rouge_scorer, scoring
print(json.dumps({
    "bleu": sacrebleu.metrics.bleu.BLEU is sacrebleu.BLEU is sacrebleu.metrics.BLEU,
    "chrf": sacrebleu.metrics.chrf.CHRF is sacrebleu.CHRF,
    "corpus_bleu": sacrebleu.corpus_bleu is sacrebleu.compat.corpus_bleu,
    "base_scorer": isinstance(rouge_scorer.RougeScorer(["rouge1"]), scoring.BaseScorer),
    "bleu_instance": isinstance(sacrebleu.BLEU(), sacrebleu.metrics.bleu.BLEU),
}))
"""


def run(*mode: str) -> dict[str, bool]:
    environ = {k: v for k, v in os.environ.items() if k != "RAPIDBLEU_ACCELERATE"}
    done = subprocess.run(
        [sys.executable, *mode, "-c", PROGRAM],
        capture_output=True,
        text=True,
        timeout=300,
        env=environ,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_identities_and_base_classes_as_without_the_mode() -> None:
    plain = run()
    assert all(plain.values()), plain
    assert run("-m", "rapidbleu.accelerate") == plain
