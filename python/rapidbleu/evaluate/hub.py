"""The ``evaluate.Metric`` classes of rapidbleu's loading scripts (the ``evaluate`` extra).

``evaluate.load(rapidbleu.evaluate.script_path("sacrebleu"))`` loads ``scripts/sacrebleu.py``,
whose one line ``Sacrebleu = hub.metric_class("sacrebleu")`` builds the class here: the same
input features as evaluate's own script (a string prediction; a list of string references or one
string), and a ``_compute`` that calls :data:`rapidbleu.evaluate.metrics.METRICS`. Imported only
by those scripts, never by ``import rapidbleu``.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from rapidbleu.evaluate.metrics import METRICS
from rapidbleu.version import SIGNATURE_VERSION

__all__ = ["metric_class"]

_CITATION = """\
@inproceedings{post-2018-call,
    title = "A Call for Clarity in Reporting {BLEU} Scores",
    author = "Post, Matt",
    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",
    year = "2018",
    url = "https://www.aclweb.org/anthology/W18-6319",
}
"""


def _features() -> list[Any]:
    # evaluate's scripts accept both shapes of references.
    return [
        datasets.Features(
            {
                "predictions": datasets.Value("string", id="sequence"),
                "references": datasets.Sequence(
                    datasets.Value("string", id="sequence"), id="references"
                ),
            }
        ),
        datasets.Features(
            {
                "predictions": datasets.Value("string", id="sequence"),
                "references": datasets.Value("string", id="sequence"),
            }
        ),
    ]


def metric_class(name: str) -> type[Any]:
    """An ``evaluate.Metric`` subclass computing evaluate's metric ``name`` with rapidbleu.

    Args:
        name: a key of :data:`rapidbleu.evaluate.metrics.METRICS`.

    Returns:
        The class (evaluate instantiates it).
    """
    compute = METRICS[name]

    def _info(self: Any) -> Any:
        return evaluate.MetricInfo(
            description=(
                f"evaluate's {name!r} metric, computed by rapidbleu ({SIGNATURE_VERSION}): "
                "the same options, keys and values."
            ),
            citation=_CITATION,
            inputs_description=compute.__doc__ or "",
            features=_features(),
            codebase_urls=["https://github.com/mjpost/sacreBLEU"],
        )

    def _compute(self: Any, predictions: Any, references: Any, **kwargs: Any) -> Any:
        return compute(predictions, references, **kwargs)

    cls_name = "".join(part.capitalize() for part in name.split("_"))
    return type(cls_name, (evaluate.Metric,), {"_info": _info, "_compute": _compute})
