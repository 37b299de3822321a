"""The module paths the accelerator answers, and rapidbleu's module behind each.

sacreBLEU's paths (every one that rapidbleu's drop-in namespace has, :func:`sacrebleu_modules`);
the single modules of other packages that the metrics declare (:data:`METRIC_MODULES`: NLTK's
``bleu_score``, rouge-score's ``rouge_scorer`` and ``scoring``, ...); and the names
``evaluate.load`` resolves to rapidbleu's loading scripts (:data:`EVALUATE`). Both come from the
metrics' declarations (:mod:`rapidbleu.metrics.declarations`), which import no metric. A path of
a real package that is not in a table (``sacrebleu.dataset``, ``sacrebleu.metrics.lib_ter``,
...) is the real package's own module.

Example:
    >>> sacrebleu_modules()["metrics.bleu"].__name__
    'rapidbleu.metrics.bleu'
    >>> sorted(EVALUATE)
    ['bleu', 'chrf', 'google_bleu', 'rouge', 'sacrebleu', 'ter']
    >>> METRIC_MODULES["nltk.translate.bleu_score"]
    ('rapidbleu.dialects.nltk', 'nltk')
"""

from __future__ import annotations

from types import ModuleType

from rapidbleu.metrics.declarations import accelerated_modules, evaluate_functions

__all__ = ["EVALUATE", "METRIC_MODULES", "sacrebleu_modules"]


def sacrebleu_modules() -> dict[str, ModuleType]:
    """SacreBLEU's module paths below ``sacrebleu`` ("" is the package) -> rapidbleu's module.

    The drop-in namespace's own table (:func:`rapidbleu.sacrebleu.module_paths`), plus the
    package itself. Imported on first use: building it imports rapidbleu's sacreBLEU-shaped
    modules.
    """
    import rapidbleu.sacrebleu as face

    return {"": face, **face.module_paths(face)}


#: Single modules of other packages -> (rapidbleu's module of their shape, what to install).
METRIC_MODULES: dict[str, tuple[str, str]] = accelerated_modules()

#: The names ``evaluate.load`` answers with rapidbleu's loading scripts (the keys of
#: :data:`rapidbleu.evaluate.METRICS`; ``tests/evaluate/test_evaluate_metrics.py`` checks).
EVALUATE = frozenset(evaluate_functions())
