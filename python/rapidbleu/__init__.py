"""rapidbleu: sacreBLEU's BLEU, chrF and TER, bit for bit, a hundred times faster.

``import rapidbleu as sacrebleu`` works for ``corpus_bleu``, ``sentence_bleu``,
``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter``, ``sentence_ter``,
``metrics.BLEU``, ``metrics.CHRF``, ``metrics.TER``, ``DEFAULT_TOKENIZER``, ``utils.smart_open``,
``tokenizers.tokenizer_13a.Tokenizer13a`` (and its siblings,
``tokenizers.tokenizer_ter.TercomTokenizer`` among them), ``metrics.helpers``, the n-gram helpers
and the test-set functions
(``get_reference_files``, ``get_source_file``, ...; extra ``datasets``). ``rapidbleu.__version__``
is rapidbleu's own; code that checks sacreBLEU's version imports :mod:`rapidbleu.compat.sacrebleu`
instead. The per-item API (:func:`bleu`, :func:`bleu_per_item`) scores lists of
``{"candidate": ..., "references": [...]}`` items on a 0..1 scale. :func:`check_references`
says whether references are nested as streams (``references[k][i]``), as every metric reads
them.

Example:
    >>> import rapidbleu
    >>> score = rapidbleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
    >>> round(score.score, 2)
    53.73
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rapidbleu._lazy import submodule
from rapidbleu.version import SIGNATURE_VERSION, __version__

if TYPE_CHECKING:
    from rapidbleu import errors, tokenizers, utils
    from rapidbleu.compat.sacrebleu import (
        DEFAULT_TOKENIZER,
        SACREBLEU_DIR,
        corpus_bleu,
        corpus_chrf,
        corpus_ter,
        download_test_set,
        extract_char_ngrams,
        extract_word_ngrams,
        get_available_testsets,
        get_langpairs_for_testset,
        get_reference_files,
        get_source_file,
        raw_corpus_bleu,
        sentence_bleu,
        sentence_chrf,
        sentence_ter,
        smart_open,
    )
    from rapidbleu.items import BleuResult, bleu, bleu_per_item
    from rapidbleu.metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
    from rapidbleu.metrics.nesting import check_references

#: The package's names, by the module that defines them. They are imported together on the
#: first use of any of them (PEP 562), not by ``import rapidbleu``: code that imports a
#: submodule directly loads only that. The ``rapidbleu`` command does, and so starts without
#: NumPy (start-up is half of its time on 100k lines). Submodules are imported when first
#: named (``rapidbleu.tokenizers.tokenizer_13a``, as in sacreBLEU).
_FACE = {
    "rapidbleu.compat.sacrebleu": (
        "DEFAULT_TOKENIZER",
        "SACREBLEU_DIR",
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
    ),
    "rapidbleu.items": ("BleuResult", "bleu", "bleu_per_item"),
    "rapidbleu.metrics": ("BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore"),
    # rapidbleu's own: are the references streams (references[k][i])? (reference nesting)
    "rapidbleu.metrics.nesting": ("check_references",),
}

__all__ = [
    "BLEU",
    "CHRF",
    "DEFAULT_TOKENIZER",
    "SACREBLEU_DIR",
    "SIGNATURE_VERSION",
    "TER",
    "BLEUScore",
    "BleuResult",
    "CHRFScore",
    "TERScore",
    "__version__",
    "bleu",
    "bleu_per_item",
    "check_references",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "download_test_set",
    "errors",
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
    "tokenizers",
    "utils",
]


def _load_face() -> None:
    for module, names in _FACE.items():
        found = importlib.import_module(module)
        globals().update({name: getattr(found, name) for name in names})


def __getattr__(name: str) -> Any:
    # sacreBLEU's `DATASETS` (the `datasets` extra), imported only when asked for.
    if name == "DATASETS":
        from rapidbleu.datasets import registry

        return registry()
    if any(name in names for names in _FACE.values()):
        _load_face()
        return globals()[name]
    # A submodule (`rapidbleu.metrics`, ...), also as `from rapidbleu import _core` asks for
    # it: that asks here first, so nothing more than the submodule may be imported.
    return submodule(__name__, name)


def __dir__() -> list[str]:
    _load_face()
    return sorted(globals())
