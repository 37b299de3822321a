"""Functions with the names and defaults of other packages.

:mod:`rapidbleu.compat.sacrebleu` holds sacreBLEU's functions (``corpus_bleu``,
``sentence_bleu``, ``raw_corpus_bleu``), also importable from :mod:`rapidbleu` itself.
``rapidbleu.compat.nltk``, ``.sacrebleu_r`` and ``.hf_evaluate`` are the old import paths of
:mod:`rapidbleu.dialects`.
"""

from typing import Any

from rapidbleu._lazy import submodule


def __getattr__(name: str) -> Any:
    return submodule(__name__, name)  # `rapidbleu.compat.<submodule>`, imported when named
