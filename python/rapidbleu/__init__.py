"""rapidbleu: sacreBLEU's BLEU, chrF and TER, bit for bit, a hundred times faster.

``import rapidbleu as sacrebleu`` works for ``corpus_bleu``, ``sentence_bleu``,
``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter``, ``sentence_ter``,
``metrics.BLEU``, ``metrics.CHRF``, ``metrics.TER``, ``DEFAULT_TOKENIZER``, ``utils.smart_open``,
``tokenizers.tokenizer_13a.Tokenizer13a`` (and its siblings,
``tokenizers.tokenizer_ter.TercomTokenizer`` among them), ``metrics.helpers``, the n-gram helpers
and the test-set functions
(``get_reference_files``, ``get_source_file``, ...; extra ``datasets``). ``rapidbleu.__version__``
is rapidbleu's own; code that checks sacreBLEU's version imports :mod:`rapidbleu.sacrebleu`
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
from rapidbleu.version import SIGNATURE_VERSION as SIGNATURE_VERSION
from rapidbleu.version import __version__ as __version__

if TYPE_CHECKING:
    # The package's names, listed in `rapidbleu._face` (sacreBLEU's in `rapidbleu.sacrebleu`).
    from rapidbleu._face import *  # noqa: F403
    from rapidbleu.sacrebleu import *  # noqa: F403


def _load_face() -> None:
    # The package's names (`rapidbleu._face.__all__`, `__all__` itself among them), imported
    # together on the first use of any of them (PEP 562), not by `import rapidbleu`: code that
    # imports a submodule directly loads only that. The command does, and so starts without
    # NumPy (start-up is half of its time on 100k lines).
    face = importlib.import_module("rapidbleu._face")
    globals().update({name: getattr(face, name) for name in face.__all__})
    globals()["__all__"] = list(face.__all__)


def __getattr__(name: str) -> Any:
    # sacreBLEU's `DATASETS` (the `datasets` extra), imported only when asked for.
    if name == "DATASETS":
        from rapidbleu.datasets import registry

        return registry()
    try:
        # A submodule (`rapidbleu.metrics`, ...), imported when first named, as in sacreBLEU;
        # also as `from rapidbleu import _core` asks for it: that asks here first, so nothing
        # more than the submodule may be imported.
        return submodule(__name__, name)
    except AttributeError:
        if name.startswith("_") and name != "__all__":
            raise
    _load_face()
    if name in globals():
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    _load_face()
    return sorted(globals())
