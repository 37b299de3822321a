"""The names of the package :mod:`rapidbleu`: one list, loaded on the first use of any of them.

:data:`__all__` is ``rapidbleu.__all__``: sacreBLEU's names (:data:`rapidbleu.sacrebleu.__all__`,
but its ``__version__``: rapidbleu keeps its own) and rapidbleu's own. ``import rapidbleu`` does
not import this module (PEP 562): code that imports a submodule directly loads only that. The
``rapidbleu`` command does, and so starts without NumPy (start-up is half of its time on 100k
lines).

Example:
    >>> import rapidbleu
    >>> rapidbleu.__all__ == __all__ and rapidbleu.corpus_bleu is corpus_bleu
    True
"""

from __future__ import annotations

import rapidbleu.errors as errors
import rapidbleu.sacrebleu as sacrebleu
import rapidbleu.tokenizers as tokenizers
import rapidbleu.utils as utils
from rapidbleu.analysis.nesting import check_references
from rapidbleu.items import BleuResult, bleu, bleu_per_item
from rapidbleu.metrics import BLEUScore, CHRFScore, TERScore
from rapidbleu.sacrebleu import *  # noqa: F403  (sacreBLEU's names, listed there)

# After sacreBLEU's names: `__version__` (in sacreBLEU's list) is rapidbleu's own here, not the
# drop-in namespace's.
from rapidbleu.version import SIGNATURE_VERSION, __version__  # noqa: F401

__all__ = [
    "SIGNATURE_VERSION",
    "BLEUScore",
    "BleuResult",
    "CHRFScore",
    "TERScore",
    "bleu",
    "bleu_per_item",
    # rapidbleu's own: are the references streams (references[k][i])? (reference nesting)
    "check_references",
    "errors",
    "tokenizers",
    "utils",
]
__all__ += sacrebleu.__all__  # with `__version__`
