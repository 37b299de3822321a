"""Other packages' BLEU, on rapidbleu's engine: NLTK's and the R package sacRebleu's.

The engine counts once (:func:`rapidbleu.metrics.bleu.tokens.token_statistics`,
with each package's rule for the reference length); each dialect turns the summed rows into a
:class:`~rapidbleu.dialects.result.BleuResult` with its own formula, and names itself in a
:class:`~rapidbleu.dialects.result.DialectSignature`. Hugging Face evaluate's ``"bleu"``
(TF-NMT's) is one of evaluate's metrics, all in :mod:`rapidbleu.evaluate`
(:mod:`rapidbleu.evaluate.nmt_bleu`). See ``docs/dialects.md``.
"""

from typing import Any

from rapidbleu._lazy import submodule


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.dialects.<submodule>`, imported when named
