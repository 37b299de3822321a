"""Metrics with sacreBLEU's class names (``sacrebleu.metrics``), on one template (:class:`Metric`).

Every metric here is a :class:`Metric`: significance tests, per-item scoring, streaming, pairwise
matrices, the command and the report work for each through the template's public surface.
The command's metrics are those of the registry (:mod:`rapidbleu.metrics.registry`):
``register(MyMetric)`` adds one.

Each name is imported when first used (PEP 562): ``from rapidbleu.metrics import BLEU`` loads
BLEU's modules only, not every metric's (a third of a cold ja-mecab score's imports).

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> BLEU.__module__
    'rapidbleu.metrics.bleu.metric'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rapidbleu._lazy import submodule

if TYPE_CHECKING:  # the names of `_HOMES`, for type checkers (`as`: re-exported)
    from rapidbleu.metrics.base import Metric as Metric
    from rapidbleu.metrics.bleu import BLEU as BLEU
    from rapidbleu.metrics.bleu.score import BLEUScore as BLEUScore
    from rapidbleu.metrics.bleu.score import BLEUSignature as BLEUSignature
    from rapidbleu.metrics.caption.metric import COCOBLEU as COCOBLEU
    from rapidbleu.metrics.caption.metric import CIDErD as CIDErD
    from rapidbleu.metrics.caption.metric import COCORougeL as COCORougeL
    from rapidbleu.metrics.chrf import CHRF as CHRF
    from rapidbleu.metrics.chrf.score import CHRFScore as CHRFScore
    from rapidbleu.metrics.chrf.score import CHRFSignature as CHRFSignature
    from rapidbleu.metrics.layout import RowLayout as RowLayout
    from rapidbleu.metrics.meteor import METEOR as METEOR
    from rapidbleu.metrics.meteor.score import METEORScore as METEORScore
    from rapidbleu.metrics.meteor.score import METEORSignature as METEORSignature
    from rapidbleu.metrics.options import CliOption as CliOption
    from rapidbleu.metrics.registry import metric_classes as metric_classes
    from rapidbleu.metrics.registry import register as register
    from rapidbleu.metrics.registry import registered as registered
    from rapidbleu.metrics.registry import unregister as unregister
    from rapidbleu.metrics.rouge import ROUGE as ROUGE
    from rapidbleu.metrics.rouge.score import ROUGEScore as ROUGEScore
    from rapidbleu.metrics.rouge.score import ROUGESignature as ROUGESignature
    from rapidbleu.metrics.score import Score as Score
    from rapidbleu.metrics.score import Signature as Signature
    from rapidbleu.metrics.ter import TER as TER
    from rapidbleu.metrics.ter import TERScore as TERScore
    from rapidbleu.metrics.ter import TERSignature as TERSignature

#: Each public name -> the submodule that defines it.
_HOMES = {
    "BLEU": "bleu",
    "CHRF": "chrf",
    "METEOR": "meteor",
    "ROUGE": "rouge",
    "TER": "ter",
    "BLEUScore": "bleu.score",
    "BLEUSignature": "bleu.score",
    "CIDErD": "caption.metric",
    "COCOBLEU": "caption.metric",
    "COCORougeL": "caption.metric",
    "CHRFScore": "chrf.score",
    "CHRFSignature": "chrf.score",
    "CliOption": "options",
    "METEORScore": "meteor.score",
    "METEORSignature": "meteor.score",
    "Metric": "base",
    "ROUGEScore": "rouge.score",
    "ROUGESignature": "rouge.score",
    "RowLayout": "layout",
    "Score": "score",
    "Signature": "score",
    "TERScore": "ter",
    "TERSignature": "ter",
    "metric_classes": "registry",
    "register": "registry",
    "registered": "registry",
    "unregister": "registry",
}

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        return submodule(__name__, name)  # `rapidbleu.metrics.<submodule>`, imported when named
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # found here from now on, without this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
