"""Old import path of :mod:`rapidbleu.analysis.significance` (kept so that existing code works)."""

from rapidbleu.analysis.significance import (
    PairedTest,
    Result,
    bootstrap_scores,
    estimate_ci,
    paired_approximate_randomization,
    paired_bootstrap,
)

__all__ = [
    "PairedTest",
    "Result",
    "bootstrap_scores",
    "estimate_ci",
    "paired_approximate_randomization",
    "paired_bootstrap",
]
