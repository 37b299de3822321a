"""A program cannot tell the drop-in from the oracles: the parity suites' calls, observed.

``fidelity_cases.py`` runs about 560 calls (sacreBLEU's BLEU over tokenizers x smoothing x case x
effective order, chrF's orders and flags, TER's 16 flag sets, the compat functions, bad options
and inputs, NLTK's smoothing functions, rouge-score's types x stemmer, its aggregator, and user
tokenizers that return generators, unhashable tokens, NaN, ints, tuples or ``None``) and records
what a program sees of each: the value's type and ``repr`` (and each part's), the instance
attributes and the private ones programs read, the exception's classes, the warnings (category,
text, attributed file) and sacreBLEU's log records. It runs three times, each in its own
interpreter: on the real packages, on the same program in ``python -m rapidbleu.accelerate``,
and on rapidbleu's drop-in namespaces.

- **In the mode** every record equals the real packages', type paths, exception classes and
  logger names included (objects that the real package built, where rapidbleu refused the
  options, included).
- **Through the drop-in namespaces** (no mode) the values, types, ``repr`` (module paths aside:
  the classes are rapidbleu's), warnings and log texts are the same; an exception is an instance
  of the oracle's class (rapidbleu's named errors derive from it); sacreBLEU's log records come
  from the ``rapidbleu`` logger; and where rapidbleu's API refuses what the oracle takes
  (:data:`REFUSED`) it raises a named :mod:`rapidbleu.errors` exception instead of a number.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
PROGRAM = str(HERE / "fidelity_cases.py")

#: Calls rapidbleu's own API refuses (a named error) and the oracle answers; the mode hands them
#: to the oracle.
REFUSED = {
    "bad smooth_value str",  # sacreBLEU keeps "x" and fails only when it smooths
    "bad max_ngram_order 0",  # sacreBLEU scores an empty geometric mean
    "bad chrf order 0",  # sacreBLEU builds a chrF of no n-grams
    "bad refs flat",  # sacreBLEU reads each string as a stream of characters
    "bad refs str",
    "tokenizer assigned Lower",  # a tokenizer object that is none of the core's
    "bad max_ngram_order str",  # sacreBLEU keeps "4" and fails when it counts
    "bad chrf word_order -1",  # sacreBLEU builds a chrF with negative word order
}
#: Where sacreBLEU fails inside its arithmetic, rapidbleu's check says what is wrong with a
#: named error of another class: option values of the wrong type (sacreBLEU's ``TypeError``;
#: rapidbleu's ``InvalidOptionError``, a ``ValueError``), TER of a segment without references
#: (sacreBLEU's ``ZeroDivisionError``). In the mode these calls go to sacreBLEU.
OTHER_ERROR = {
    "bad chrf beta str": "rapidbleu.errors.InvalidOptionError",
    "bad chrf char_order str": "rapidbleu.errors.InvalidOptionError",
    "bad ter ref None": "rapidbleu.errors.MissingReferenceError",
}
MODULE_PATH = re.compile(r"<[\w.]+\.(\w+) object>")
#: A type as a record names it (``module.qualname``), of which the drop-in shows the name.
TYPE = re.compile(r"^[\w.]+\.(\w+)$")


def _run(*argv: str) -> list[dict[str, Any]]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("RAPIDBLEU_ACCELERATE")}
    done = subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, timeout=300, env=environ
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def oracle() -> list[dict[str, Any]]:
    return _run(PROGRAM, "oracle")


def _same(oracle: Any, ours: Any, dropin: bool) -> bool:
    """Whether ``ours`` shows what ``oracle`` shows (an object may have more attributes)."""
    if isinstance(oracle, dict):
        return isinstance(ours, dict) and all(
            k in ours and _same(v, ours[k], dropin) for k, v in oracle.items()
        )
    if isinstance(oracle, list):
        return (
            isinstance(ours, list)
            and len(ours) == len(oracle)
            and all(_same(a, b, dropin) for a, b in zip(oracle, ours))
        )
    if dropin and isinstance(oracle, str) and isinstance(ours, str):

        def plain(text: str) -> str:
            return TYPE.sub(r"\1", MODULE_PATH.sub(r"<\1 object>", text))

        return plain(oracle) == plain(ours)
    return bool(oracle == ours)


def _differences(oracle: list[dict[str, Any]], ours: list[dict[str, Any]], dropin: bool) -> list:
    assert [r["case"] for r in ours] == [r["case"] for r in oracle]
    out = []
    for want, got in zip(oracle, ours):
        case = want["case"]
        logs = (lambda r: [x[1:] for x in r["logs"]]) if dropin else (lambda r: r["logs"])
        if dropin and case in OTHER_ERROR:
            ok = OTHER_ERROR[case] in got.get("raised", [])
        elif "raised" in want:
            raised = got.get("raised", [])
            ok = want["raised"][0] in raised if dropin else raised == want["raised"]
        elif dropin and case in REFUSED:
            ok = "raised" in got and "rapidbleu.errors.RapidBleuError" in got["raised"]
        else:
            ok = "value" in got and _same(want["value"], got["value"], dropin)
        if not (ok and got["warnings"] == want["warnings"] and logs(got) == logs(want)):
            out.append((case, want, got))
    return out


def test_the_mode_shows_what_the_real_packages_show(oracle: list[dict[str, Any]]) -> None:
    ours = _run("-m", "rapidbleu.accelerate", PROGRAM, "oracle")
    assert len(oracle) > 500
    assert _differences(oracle, ours, dropin=False) == []


def test_the_drop_in_namespaces_show_what_the_oracles_show(oracle: list[dict[str, Any]]) -> None:
    ours = _run(PROGRAM, "dropin")
    assert _differences(oracle, ours, dropin=True) == []
    raised = {r["case"] for r in oracle if "raised" in r}
    assert {r["case"] for r in ours if "raised" in r} - raised == REFUSED
    assert set(OTHER_ERROR) <= raised
