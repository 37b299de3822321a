"""Metrics with sacreBLEU's class names (``sacrebleu.metrics``), on one template (:class:`Metric`).

Every metric here is a :class:`Metric`: significance tests, per-item scoring, streaming, pairwise
matrices, the command and the report work for each through the template's public surface.
"""

from typing import Any

from rapidbleu._lazy import submodule
from rapidbleu.metrics.base import Metric, metric_classes
from rapidbleu.metrics.bleu import BLEU, BLEUScore, BLEUSignature
from rapidbleu.metrics.chrf import CHRF, CHRFScore, CHRFSignature
from rapidbleu.metrics.layout import RowLayout
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.rouge import ROUGE, ROUGEScore, ROUGESignature
from rapidbleu.metrics.score import Score, Signature
from rapidbleu.metrics.ter import TER, TERScore, TERSignature

__all__ = [
    "BLEU",
    "CHRF",
    "ROUGE",
    "TER",
    "BLEUScore",
    "BLEUSignature",
    "CHRFScore",
    "CHRFSignature",
    "CliOption",
    "Metric",
    "ROUGEScore",
    "ROUGESignature",
    "RowLayout",
    "Score",
    "Signature",
    "TERScore",
    "TERSignature",
    "metric_classes",
]


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.metrics.<submodule>`, imported when named
