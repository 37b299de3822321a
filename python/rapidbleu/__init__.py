"""rapidbleu: sacreBLEU's BLEU, bit for bit, a hundred times faster.

``import rapidbleu as sacrebleu`` works for ``corpus_bleu``, ``sentence_bleu``,
``raw_corpus_bleu``, ``metrics.BLEU``, ``DEFAULT_TOKENIZER``, ``utils.smart_open``,
``tokenizers.tokenizer_13a.Tokenizer13a`` (and its siblings), ``metrics.helpers``, the n-gram
helpers and the test-set functions (``get_reference_files``, ``get_source_file``, ...; extra
``datasets``). ``rapidbleu.__version__`` is rapidbleu's own; code that checks sacreBLEU's version
imports :mod:`rapidbleu.compat.sacrebleu` instead. The per-item API (:func:`bleu`,
:func:`bleu_per_item`) scores lists of ``{"candidate": ..., "references": [...]}`` items on a
0..1 scale.

Example:
    >>> import rapidbleu
    >>> score = rapidbleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
    >>> round(score.score, 2)
    53.73
"""

from typing import Any

from rapidbleu import errors, tokenizers, utils
from rapidbleu.compat.sacrebleu import (
    DEFAULT_TOKENIZER,
    SACREBLEU_DIR,
    corpus_bleu,
    download_test_set,
    extract_char_ngrams,
    extract_word_ngrams,
    get_available_testsets,
    get_langpairs_for_testset,
    get_reference_files,
    get_source_file,
    raw_corpus_bleu,
    sentence_bleu,
    smart_open,
)
from rapidbleu.items import BleuResult, bleu, bleu_per_item
from rapidbleu.metrics import BLEU, BLEUScore
from rapidbleu.version import SIGNATURE_VERSION, __version__

__all__ = [
    "BLEU",
    "DEFAULT_TOKENIZER",
    "SACREBLEU_DIR",
    "SIGNATURE_VERSION",
    "BLEUScore",
    "BleuResult",
    "__version__",
    "bleu",
    "bleu_per_item",
    "corpus_bleu",
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
    "smart_open",
    "tokenizers",
    "utils",
]


def __getattr__(name: str) -> Any:
    # sacreBLEU's `DATASETS` (the `datasets` extra), imported only when asked for.
    if name == "DATASETS":
        from rapidbleu.datasets import registry

        return registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
