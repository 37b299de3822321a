"""Other packages' BLEU, on rapidbleu's engine: NLTK, the R package sacRebleu, HF evaluate.

The engine counts once (:func:`rapidbleu.metrics.bleu_tokens.token_statistics`,
with each package's rule for the reference length); each dialect turns the summed rows into a
:class:`~rapidbleu.dialects.result.BleuResult` with its own formula, and names itself in a
:class:`~rapidbleu.dialects.result.DialectSignature`. See ``docs/dialects.md``.
"""

from typing import Any

from rapidbleu._lazy import submodule


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.dialects.<submodule>`, imported when named
