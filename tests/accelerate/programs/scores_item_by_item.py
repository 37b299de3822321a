"""rouge-score item by item, valid and refused calls: the same output with and without the mode.

Prints one JSON object: each call's ``repr`` (or its exception's class and text), and, in the
mode, which of ``score`` and its general path the mode's class wraps.
"""

import json

from rouge_score import rouge_scorer

scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
calls = [
    ("The cats sat on the mat", "a cat sat on a mat"),
    ("", "nothing to match"),
    ("Cristóbal \u212aelvin İstanbul", "cristbal kelvin i stanbul"),
    ("a lone \ud800 surrogate", "a lone surrogate"),  # a separator, as in rouge-score
    (None, "not a str"),  # both refuse, each with its own exception
]
out: list[str] = []


def record(target: object, prediction: object) -> None:
    try:
        out.append(repr(scorer.score(target, prediction)))  # type: ignore[arg-type]
    except Exception as e:
        out.append(f"{type(e).__name__}: {e}")


for target, prediction in calls:
    record(target, prediction)
scorer.rouge_types = ["rouge1", "rougeX"]  # rouge-score raises at the call; so does the mode
record("a b", "a b")
mode = type(scorer).__dict__
print(
    json.dumps(
        {"calls": out, "wrapped": sorted(m for m in ("score", "_score_general") if m in mode)}
    )
)
