"""The mode's nesting warning: only where the nesting is the likely cause, once per call site.

Real WMT22 en-de text in 2 x 2 windows: valid streams whose hypotheses are shifted by one line
(a misaligned system, not nested references) get no warning; references nested per segment do.
"""

from __future__ import annotations

import itertools
import warnings

from conftest import DATA

from rapidbleu.accelerate.nesting import warn_if_nested

N = 300
SITES = itertools.count()


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()[: N + 2]


REF_A, REF_B = _lines("wmt22.en-de/ref.A.de"), _lines("wmt22.en-de/ref.B.de")
HYP = _lines("wmt22.en-de/hyp.PROMT.de")


def _proxy_run(hyps: list[str], refs: list[list[str]]) -> None:
    # The mode calls the check from two frames below the program's call (proxies._run).
    (lambda: warn_if_nested("corpus_bleu", (hyps, refs), {}))()


def _warned(hyps: list[str], refs: list[list[str]]) -> int:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        # A fresh call site per window (the warning is once per site): compile each call.
        exec(compile("_proxy_run(hyps, refs)", f"<window {next(SITES)}>", "exec"))
    return len(seen)


def test_valid_streams_with_shifted_hypotheses_are_not_warned_about() -> None:
    warned = sum(
        _warned(HYP[i + 1 : i + 3], [REF_A[i : i + 2], REF_B[i : i + 2]]) for i in range(N)
    )
    assert warned == 0


def test_references_nested_per_segment_are_warned_about() -> None:
    warned = sum(
        _warned(HYP[i : i + 2], [[REF_A[i], REF_B[i]], [REF_A[i + 1], REF_B[i + 1]]])
        for i in range(N)
    )
    assert warned > N // 2  # where the text tells (some windows share too few words)


def test_once_per_call_site_whatever_the_filters() -> None:
    hyps = HYP[:2]
    nested = [[REF_A[0], REF_B[0]], [REF_A[1], REF_B[1]]]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for _ in range(3):
            warn_if_nested("corpus_bleu", (hyps, nested), {})
    assert len(seen) == 1
    assert "transpos" not in str(seen[0].message)
