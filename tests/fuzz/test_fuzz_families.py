"""Every declared metric is fuzzed: by the families' loops, or by the test named for it."""

from __future__ import annotations

from pathlib import Path

from fuzz_families import FUZZED_ELSEWHERE, METRICS

from rapidbleu.metrics.declarations import DECLARATIONS

ROOT = Path(__file__).resolve().parents[2]


def test_every_declared_metric_is_fuzzed() -> None:
    families = [m.name for m in METRICS]
    assert len(families) == len(set(families))
    assert set(families).isdisjoint(FUZZED_ELSEWHERE)
    assert set(families) | set(FUZZED_ELSEWHERE) == {d.name for d in DECLARATIONS}
    for name, test in FUZZED_ELSEWHERE.items():
        path, _, function = test.partition("::")
        assert f"def {function}(" in (ROOT / path).read_text("utf-8"), (name, test)


def test_each_family_is_its_declared_metric() -> None:
    declared = {d.name: d for d in DECLARATIONS}
    for family in METRICS:
        assert family.ours.cli_name == family.name  # type: ignore[attr-defined]
        assert family.name in declared
