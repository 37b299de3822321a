"""pycocoevalcap 1.2's caption metrics, scored by the core and equal with ``==``.

COCO BLEU-1..4 (:class:`Bleu`), ROUGE-L (:class:`Rouge`) and CIDEr-D (:class:`Cider`), with
pycocoevalcap's ``compute_score(gts, res)`` and return types; CIDEr-D as a training reward in
:mod:`rapidbleu.metrics.caption.reward`. The evaluation as users run it is
:mod:`rapidbleu.caption`.

Example:
    >>> from rapidbleu.metrics.caption import Bleu, Cider, Rouge
    >>> [m().method() for m in (Bleu, Rouge, Cider)]
    ['Bleu', 'Rouge', 'CIDEr']
"""

from rapidbleu.metrics.caption.bleu import Bleu
from rapidbleu.metrics.caption.cider import Cider
from rapidbleu.metrics.caption.rouge import Rouge

__all__ = ["Bleu", "Cider", "Rouge"]
