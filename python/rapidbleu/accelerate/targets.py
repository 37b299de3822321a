"""The module paths the accelerator answers, and rapidbleu's module behind each.

One table per package: sacreBLEU's paths (every one that rapidbleu's drop-in namespace has,
:func:`sacrebleu_modules`), NLTK's ``bleu_score`` module, rouge-score's ``rouge_scorer`` and
``scoring`` modules, and
the names ``evaluate.load`` resolves to rapidbleu's loading scripts. A path of the real package
that is not in a table (``sacrebleu.dataset``, ``sacrebleu.metrics.lib_ter``, ...) is the real
package's own module.

Example:
    >>> sacrebleu_modules()["metrics.bleu"].__name__
    'rapidbleu.metrics.bleu'
    >>> sorted(EVALUATE)
    ['bleu', 'chrf', 'google_bleu', 'meteor', 'rouge', 'sacrebleu', 'ter']
"""

from __future__ import annotations

from types import ModuleType

__all__ = ["EVALUATE", "NLTK_BLEU", "NLTK_METEOR", "ROUGE_SCORE", "sacrebleu_modules"]


def sacrebleu_modules() -> dict[str, ModuleType]:
    """SacreBLEU's module paths below ``sacrebleu`` ("" is the package) -> rapidbleu's module.

    The drop-in namespace's own table (:func:`rapidbleu.sacrebleu.module_paths`), plus the
    package itself. Imported on first use: building it imports rapidbleu's sacreBLEU-shaped
    modules.
    """
    import rapidbleu.sacrebleu as face

    return {"": face, **face.module_paths(face)}


#: NLTK's BLEU module -> rapidbleu's NLTK dialect.
NLTK_BLEU: dict[str, str] = {"nltk.translate.bleu_score": "rapidbleu.dialects.nltk"}

#: NLTK's METEOR module -> rapidbleu's module of its shape.
NLTK_METEOR: dict[str, str] = {"nltk.translate.meteor_score": "rapidbleu.metrics.meteor.nltk"}

#: rouge-score's modules -> rapidbleu's modules of their shape (ROUGE and its aggregator).
ROUGE_SCORE: dict[str, str] = {
    "rouge_score.rouge_scorer": "rapidbleu.metrics.rouge.rouge_scorer",
    "rouge_score.scoring": "rapidbleu.metrics.rouge.scoring",
}

#: The names ``evaluate.load`` answers with rapidbleu's loading scripts: the keys of
#: :data:`rapidbleu.evaluate.metrics.METRICS` (``tests/evaluate/test_evaluate_metrics.py`` checks).
EVALUATE = frozenset({"sacrebleu", "bleu", "google_bleu", "chrf", "ter", "rouge", "meteor"})
