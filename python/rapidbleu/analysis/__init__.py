"""Analyses above the metrics: significance tests, pairwise matrices, self-BLEU and MBR.

Each works for any :class:`~rapidbleu.metrics.Metric` through its public statistics surface
(self-BLEU's conventions and linear-time MBR are BLEU's own).
"""

from typing import Any

from rapidbleu._lazy import submodule


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.analysis.<submodule>`, imported when named
