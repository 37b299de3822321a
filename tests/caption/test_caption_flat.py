"""The COCO scorers' flat captions (``image_rows``, ``compute_flat``): the same rows and scores as
the per-image lists of the generic glue, and their counts checked."""

from __future__ import annotations

from typing import Any

import pytest

from rapidbleu import _core
from rapidbleu.errors import InputTypeError, LengthMismatchError, MissingReferenceError
from rapidbleu.metrics.caption.inputs import flat_images, images, log_table

GTS = {
    7: ["a cat sits on the mat", "a cat on a mat", "the cat"],
    3: ["ein Hund läuft", "zwei\u00a0Hunde laufen"],
    9: [""],
    1: ["x y z x y z", "x", "y", "z z z"],
}
RES = {7: ["a cat sits on a mat"], 3: ["ein Hund läuft schnell"], 9: ["nichts"], 1: ["x y z"]}


def test_flat_equals_per_image_lists() -> None:
    hyps, refs = images(GTS, RES)
    fh, fr, fc = flat_images(GTS, RES)
    assert fh == hyps and fr == [r for g in refs for r in g] and fc == [len(g) for g in refs]
    bleu = _core.CocoBleuOptions(4)
    rows, _ = bleu.statistics(hyps, refs, 1, per_segment=True)
    for threads in (1, 2):
        assert bleu.image_rows(fh, fr, fc, threads).tolist() == rows.tolist()
    cider = _core.CiderDOptions(4, 6.0)
    logs = log_table(len(hyps))
    mean, scores = cider.compute(hyps, refs, logs, 1)
    for threads in (1, 2):
        m, s = cider.compute_flat(fh, fr, fc, logs, threads)
        assert m == mean and s.tolist() == scores.tolist()


@pytest.mark.parametrize(
    ("counts", "error", "message"),
    [
        ([1, 1], LengthMismatchError, "3 hypotheses but 2 reference counts"),
        ([1, 1, 2], LengthMismatchError, "add up to 4 but there are 3 references"),
        ([2, 0, 1], MissingReferenceError, "image 1 has no reference caption"),
        ("abc", InputTypeError, "reference counts must be a list"),
    ],
)
def test_counts_are_checked(counts: Any, error: type[Exception], message: str) -> None:
    hyps, refs = ["a", "b", "c"], ["a", "b", "c"]
    with pytest.raises(error, match=message):
        _core.CocoBleuOptions(4).image_rows(hyps, refs, counts)
    with pytest.raises(error, match=message):
        _core.CiderDOptions(4, 6.0).compute_flat(hyps, refs, counts, log_table(3))
