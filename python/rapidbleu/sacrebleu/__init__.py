"""SacreBLEU's API: ``import rapidbleu.sacrebleu as sacrebleu`` is a drop-in ``sacrebleu``.

:data:`__all__` is the one list of sacreBLEU's module-level names that rapidbleu has: its
functions (:mod:`rapidbleu.sacrebleu.functions`, sacreBLEU's ``sacrebleu/compat.py``), its
metric classes, its file and test-set helpers. ``import rapidbleu as sacrebleu`` has the same
names (:mod:`rapidbleu` takes them from this list), with rapidbleu's own ``__version__``.

Code written for sacreBLEU checks its version (evaluate's ``sacrebleu`` metric refuses anything
below 1.4.12) and imports names from its modules (``sacrebleu.tokenizers.tokenizer_13a``,
``sacrebleu.metrics.helpers``, ``sacrebleu.utils``). This namespace answers both without
claiming to be sacreBLEU:

- its ``__version__`` is :data:`rapidbleu.SIGNATURE_VERSION`, ``2.6.0+rapidbleu.<version>``:
  the sacreBLEU release whose numbers it reproduces (so version checks pass: PEP 440 compares
  ``2.6.0+...`` as 2.6.0) with a local label naming rapidbleu, the same string that every
  signature carries;
- sacreBLEU's module paths below it (``rapidbleu.sacrebleu.tokenizers.tokenizer_13a``, ...) are
  rapidbleu's modules of the same shape (:data:`SUBMODULES`), registered in ``sys.modules`` so
  that ``from rapidbleu.sacrebleu.metrics.helpers import ...`` works. Accelerator mode
  (:mod:`rapidbleu.accelerate`) answers ``import sacrebleu`` with this namespace.

``DATASETS`` (sacreBLEU's test-set registry, the ``datasets`` extra) is imported when first
asked for, so it is not in :data:`__all__`.

Example:
    >>> import rapidbleu.sacrebleu as sacrebleu
    >>> sacrebleu.__version__.startswith("2.6.0+rapidbleu.")
    True
    >>> from rapidbleu.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    >>> Tokenizer13a()("Hello, world!")
    'Hello , world !'
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import rapidbleu.analysis.significance
import rapidbleu.datasets as datasets
import rapidbleu.metrics
import rapidbleu.metrics.base
import rapidbleu.metrics.bleu
import rapidbleu.metrics.chrf
import rapidbleu.metrics.helpers
import rapidbleu.metrics.ter
import rapidbleu.tokenizers
import rapidbleu.tokenizers.tokenizer_13a
import rapidbleu.tokenizers.tokenizer_base
import rapidbleu.tokenizers.tokenizer_char
import rapidbleu.tokenizers.tokenizer_intl
import rapidbleu.tokenizers.tokenizer_ja_mecab
import rapidbleu.tokenizers.tokenizer_ko_mecab
import rapidbleu.tokenizers.tokenizer_none
import rapidbleu.tokenizers.tokenizer_spm
import rapidbleu.tokenizers.tokenizer_ter
import rapidbleu.tokenizers.tokenizer_zh
import rapidbleu.utils
from rapidbleu.metrics import BLEU, CHRF, TER
from rapidbleu.metrics.helpers import extract_char_ngrams, extract_word_ngrams
from rapidbleu.sacrebleu.functions import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from rapidbleu.utils import (
    SACREBLEU_DIR,
    download_test_set,
    get_available_testsets,
    get_langpairs_for_testset,
    get_reference_files,
    get_source_file,
    smart_open,
)
from rapidbleu.version import SIGNATURE_VERSION

__all__ = [
    "BLEU",
    "CHRF",
    "DEFAULT_TOKENIZER",
    "SACREBLEU_DIR",
    "TER",
    "__version__",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "download_test_set",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "smart_open",
]

#: The version that ``rapidbleu.sacrebleu`` reports: ``2.6.0+rapidbleu.<version>``.
__version__: str = SIGNATURE_VERSION

#: sacreBLEU 1.x's module-level default tokenizer name (still read by older client code).
DEFAULT_TOKENIZER = "13a"

#: sacreBLEU's module paths (relative to the package) -> rapidbleu's module of that shape.
SUBMODULES: dict[str, ModuleType] = {
    "utils": rapidbleu.utils,
    "metrics": rapidbleu.metrics,
    "metrics.base": rapidbleu.metrics.base,
    "metrics.bleu": rapidbleu.metrics.bleu,
    "metrics.chrf": rapidbleu.metrics.chrf,
    "metrics.helpers": rapidbleu.metrics.helpers,
    "metrics.ter": rapidbleu.metrics.ter,
    "significance": rapidbleu.analysis.significance,
    "tokenizers": rapidbleu.tokenizers,
    "tokenizers.tokenizer_base": rapidbleu.tokenizers.tokenizer_base,
    "tokenizers.tokenizer_13a": rapidbleu.tokenizers.tokenizer_13a,
    "tokenizers.tokenizer_intl": rapidbleu.tokenizers.tokenizer_intl,
    "tokenizers.tokenizer_zh": rapidbleu.tokenizers.tokenizer_zh,
    "tokenizers.tokenizer_char": rapidbleu.tokenizers.tokenizer_char,
    "tokenizers.tokenizer_none": rapidbleu.tokenizers.tokenizer_none,
    "tokenizers.tokenizer_ja_mecab": rapidbleu.tokenizers.tokenizer_ja_mecab,
    "tokenizers.tokenizer_ko_mecab": rapidbleu.tokenizers.tokenizer_ko_mecab,
    "tokenizers.tokenizer_spm": rapidbleu.tokenizers.tokenizer_spm,
    "tokenizers.tokenizer_ter": rapidbleu.tokenizers.tokenizer_ter,
}


def module_paths(package: ModuleType) -> dict[str, ModuleType]:
    """SacreBLEU's module paths below ``package`` -> the module that answers each.

    :data:`SUBMODULES`, :mod:`rapidbleu.sacrebleu.compat` for ``compat`` (sacreBLEU's
    functions and its metric and score classes), and ``package`` itself for ``version`` (it
    holds ``__version__``).

    Example:
        >>> import rapidbleu.sacrebleu as ns
        >>> module_paths(ns)["version"] is ns, module_paths(ns)["metrics.bleu"].__name__
        (True, 'rapidbleu.metrics.bleu')
    """
    from rapidbleu.sacrebleu import compat

    return {**SUBMODULES, "compat": compat, "version": package}


def register(package: ModuleType, name: str | None = None) -> None:
    """Makes sacreBLEU's module paths (:func:`module_paths`) importable below ``package``.

    Args:
        package: The namespace module, :mod:`rapidbleu.sacrebleu`.
        name: The package name to register the paths under; default ``package.__name__``.
            sacreBLEU's own tests run with ``name="sacrebleu"`` (tests/upstream/sacrebleu).

    Example:
        >>> import sys, rapidbleu.sacrebleu as ns
        >>> register(ns, "sacrebleu_doctest")
        >>> sys.modules["sacrebleu_doctest.metrics.bleu"].BLEU is ns.BLEU
        True
        >>> for key in [k for k in sys.modules if k.startswith("sacrebleu_doctest.")]:
        ...     del sys.modules[key]
    """
    name = package.__name__ if name is None else name
    for rel, module in module_paths(package).items():
        sys.modules.setdefault(f"{name}.{rel}", module)
        if "." not in rel:
            setattr(package, rel, module)


register(sys.modules[__name__])


def __getattr__(name: str) -> Any:
    # sacreBLEU's registry (`DATASETS`, from the `datasets` extra), imported only when asked for.
    if name == "DATASETS":
        return datasets.registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
