"""Hugging Face evaluate's MT metrics loaded by name, as harnesses call them.

``evaluate.load(NAME).compute(predictions=..., references=..., **options)`` for ``sacrebleu``,
``bleu``, ``google_bleu``, ``chrf`` and ``ter``, with their defaults and with options, one and
two references per prediction. The loading scripts are evaluate's own (huggingface/evaluate at
the tag of the installed version, kept in tests/upstream/evaluate); offline, run
evaluate_cache.py first with the same ``HF_HOME`` and set ``HF_EVALUATE_OFFLINE=1``.

    python evaluate_metrics.py --out result.json [--n 300]
"""

from __future__ import annotations

from typing import Any

import evaluate
from _common import Recorder, parser, wmt22_en_de

#: (metric, options) pairs, each run with one and with two references per prediction.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("sacrebleu", {}),
    ("sacrebleu", {"tokenize": "intl", "lowercase": True}),
    ("bleu", {}),
    ("bleu", {"max_order": 2, "smooth": True}),
    ("google_bleu", {}),
    ("google_bleu", {"min_len": 2, "max_len": 3}),
    ("chrf", {}),
    ("chrf", {"word_order": 2, "lowercase": True}),
    ("ter", {}),
    ("ter", {"normalized": True, "case_sensitive": True}),
]


def main() -> None:
    args = parser(__doc__, n=300).parse_args()
    hyps, ref_a, ref_b = wmt22_en_de(args.data, args.n)
    references = {
        "1 ref": [[a] for a in ref_a],
        "2 refs": [[a, b] for a, b in zip(ref_a, ref_b)],
    }
    rec = Recorder()
    for name, options in CALLS:
        metric = evaluate.load(name)
        for refs_name, refs in references.items():
            rec.run(
                " ".join([name, *(f"{k}={v}" for k, v in options.items()), refs_name]),
                lambda m=metric, refs=refs, o=options: m.compute(
                    predictions=hyps, references=refs, **o
                ),
            )
    rec.write(args.out)


if __name__ == "__main__":
    main()
