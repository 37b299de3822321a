"""What the rest of the house asks of each metric, declared once per metric, in strings only.

Each built-in metric has one :class:`Declaration`: where its class lives, the oracle it
reproduces, the names ``evaluate.load`` answers with it, and the module paths of other packages
that accelerator mode serves with its modules. The registry (:mod:`.registry`), the accelerator's
import hook (:mod:`rapidbleu.accelerate.targets`) and :mod:`rapidbleu.evaluate` read this table
instead of naming metrics, so adding a metric is one entry here.

The table imports nothing: the accelerator's import hook reads it at interpreter start, before
any metric is imported (importing the registry there would import every metric: about 35 ms on
each start of every accelerated program).

Example:
    >>> [d.name for d in DECLARATIONS]
    ['bleu', 'chrf', 'cider', 'coco_bleu', 'meteor', 'rouge', 'rouge_l', 'ter']
    >>> accelerated_modules()["rouge_score.scoring"]
    ('rapidbleu.metrics.rouge.scoring', 'rouge-score==0.1.2')
    >>> resolve("rapidbleu.metrics.bleu:BLEU").__name__
    'BLEU'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DECLARATIONS", "Declaration", "accelerated_modules", "evaluate_functions", "resolve"]


@dataclass(frozen=True)
class Declaration:
    """One metric's answers to the rest of the house.

    Attributes:
        name: Its registry name (the class's ``cli_name``, ``-m NAME``).
        home: ``module:Class`` of its :class:`~rapidbleu.metrics.base.Metric` class.
        oracle: ``module:name`` of what it equals with ``==`` (the package its parity tests and
            fuzzing compare with).
        evaluate: ``evaluate.load`` names it answers -> ``module:function`` computing evaluate's
            dict (:data:`rapidbleu.evaluate.METRICS`; each name has a loading script in
            ``rapidbleu/evaluate/scripts/``).
        accelerates: Module paths of other packages that accelerator mode answers -> (rapidbleu's
            module of the same shape, the requirement named when the real one is missing).
    """

    name: str
    home: str
    oracle: str
    evaluate: Mapping[str, str] = field(default_factory=dict)
    accelerates: Mapping[str, tuple[str, str]] = field(default_factory=dict)


_EVALUATE = "rapidbleu.evaluate.metrics"
_COCO = "pycocoevalcap==1.2"

#: The built-in metrics, in registry order (sorted by name).
DECLARATIONS: tuple[Declaration, ...] = (
    Declaration(
        "bleu",
        "rapidbleu.metrics.bleu:BLEU",
        oracle="sacrebleu.metrics.bleu:BLEU",
        evaluate={
            "sacrebleu": f"{_EVALUATE}:sacrebleu",
            "bleu": "rapidbleu.evaluate.nmt_bleu:compute",
            "google_bleu": f"{_EVALUATE}:google_bleu",
        },
        accelerates={"nltk.translate.bleu_score": ("rapidbleu.dialects.nltk", "nltk")},
    ),
    Declaration(
        "chrf",
        "rapidbleu.metrics.chrf:CHRF",
        oracle="sacrebleu.metrics.chrf:CHRF",
        evaluate={"chrf": f"{_EVALUATE}:chrf"},
    ),
    Declaration(
        "cider",
        "rapidbleu.metrics.caption.metric:CIDErD",
        oracle="pycocoevalcap.cider.cider:Cider",
        accelerates={
            "pycocoevalcap.cider.cider": ("rapidbleu.metrics.caption.cider", _COCO),
            # The whole caption evaluation, whose CIDEr-D, BLEU and ROUGE-L are rapidbleu's.
            "pycocoevalcap.eval": ("rapidbleu.caption.eval", _COCO),
        },
    ),
    Declaration(
        "coco_bleu",
        "rapidbleu.metrics.caption.metric:COCOBLEU",
        oracle="pycocoevalcap.bleu.bleu:Bleu",
        accelerates={"pycocoevalcap.bleu.bleu": ("rapidbleu.metrics.caption.bleu", _COCO)},
    ),
    Declaration(
        "meteor",
        "rapidbleu.metrics.meteor:METEOR",
        oracle="nltk.translate.meteor_score:meteor_score",
        evaluate={"meteor": "rapidbleu.evaluate.meteor:meteor"},
        accelerates={"nltk.translate.meteor_score": ("rapidbleu.metrics.meteor.nltk", "nltk")},
    ),
    Declaration(
        "rouge",
        "rapidbleu.metrics.rouge:ROUGE",
        oracle="rouge_score.rouge_scorer:RougeScorer",
        evaluate={"rouge": f"{_EVALUATE}:rouge"},
        accelerates={
            "rouge_score.rouge_scorer": (
                "rapidbleu.metrics.rouge.rouge_scorer",
                "rouge-score==0.1.2",
            ),
            "rouge_score.scoring": ("rapidbleu.metrics.rouge.scoring", "rouge-score==0.1.2"),
            # ROUGE's other packages: `rouge` and `rouge_chinese` import Rouge and FilesRouge
            # from these modules (docs/rouge_dialects.md).
            "rouge.rouge": ("rapidbleu.metrics.rouge.pltrdy", "rouge==1.0.1"),
            "rouge_chinese.rouge": ("rapidbleu.metrics.rouge.chinese", "rouge-chinese==1.0.3"),
            "multilingual_rouge.rouge_scorer": (
                "rapidbleu.metrics.rouge.xlsum",
                "multilingual-rouge==0.0.1",
            ),
        },
    ),
    Declaration(
        "rouge_l",
        "rapidbleu.metrics.caption.metric:COCORougeL",
        oracle="pycocoevalcap.rouge.rouge:Rouge",
        accelerates={"pycocoevalcap.rouge.rouge": ("rapidbleu.metrics.caption.rouge", _COCO)},
    ),
    Declaration(
        "ter",
        "rapidbleu.metrics.ter:TER",
        oracle="sacrebleu.metrics.ter:TER",
        evaluate={"ter": f"{_EVALUATE}:ter"},
    ),
)


def evaluate_functions() -> dict[str, str]:
    """Every ``evaluate.load`` name the metrics answer -> ``module:function``.

    Example:
        >>> sorted(evaluate_functions())
        ['bleu', 'chrf', 'google_bleu', 'meteor', 'rouge', 'sacrebleu', 'ter']
    """
    return {name: path for d in DECLARATIONS for name, path in d.evaluate.items()}


def accelerated_modules() -> dict[str, tuple[str, str]]:
    """Every module path the metrics answer in accelerator mode -> (module, requirement).

    Example:
        >>> sorted(accelerated_modules())[:2]
        ['multilingual_rouge.rouge_scorer', 'nltk.translate.bleu_score']
    """
    return {path: home for d in DECLARATIONS for path, home in d.accelerates.items()}


def resolve(path: str) -> Any:
    """The object a ``module:name`` path names, its module imported.

    Example:
        >>> resolve("rapidbleu.evaluate.metrics:chrf").__name__
        'chrf'
    """
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
