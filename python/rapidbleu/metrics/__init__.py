"""Metrics with sacreBLEU's class names (``sacrebleu.metrics``), on one template (:class:`Metric`).

Every metric here is a :class:`Metric`: significance tests, per-item scoring, streaming, pairwise
matrices, the command and the report work for each through the template's public surface.
The command's metrics are those of the registry (:mod:`rapidbleu.metrics.registry`):
``register(MyMetric)`` adds one.
"""

from typing import Any

from rapidbleu._lazy import submodule
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.metrics.bleu_score import BLEUScore, BLEUSignature
from rapidbleu.metrics.chrf import CHRF
from rapidbleu.metrics.chrf_score import CHRFScore, CHRFSignature
from rapidbleu.metrics.layout import RowLayout
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.registry import metric_classes, register, registered, unregister
from rapidbleu.metrics.rouge import ROUGE
from rapidbleu.metrics.rouge_score import ROUGEScore, ROUGESignature
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
    "register",
    "registered",
    "unregister",
]


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.metrics.<submodule>`, imported when named
