"""Accelerator mode: unchanged programs using sacreBLEU, NLTK or evaluate run on rapidbleu.

Like RAPIDS' ``cudf.pandas``, it needs no change to the program::

    python -m rapidbleu.accelerate script.py ARGS        # a script
    python -m rapidbleu.accelerate -m lm_eval ARGS       # a module (python -m lm_eval ARGS)

or one line at the top of a program (before it imports sacrebleu), or in IPython/Jupyter::

    import rapidbleu.accelerate; rapidbleu.accelerate.install()
    %load_ext rapidbleu.accelerate

In this mode ``import sacrebleu`` (and every module path programs import: ``sacrebleu.metrics``,
``sacrebleu.metrics.bleu``, ``sacrebleu.tokenizers.tokenizer_13a``, ``sacrebleu.utils``,
``sacrebleu.compat``, ``sacrebleu.significance``, ...), ``nltk.translate.bleu_score`` and
``evaluate.load("sacrebleu" | "bleu" | "google_bleu" | "chrf" | "ter")`` reach rapidbleu, which
gives the same numbers. Whatever rapidbleu does not implement (sacreBLEU's test-set downloads,
a name it lacks, an option value or input it refuses) goes to the real package when it is
installed (:mod:`rapidbleu.accelerate.proxies`), or raises a named error when it is not: never
a different number. Programs that the program starts (``subprocess``, ``multiprocessing``
spawn and forkserver) inherit the mode through ``RAPIDBLEU_ACCELERATE=1`` (a ``.pth`` file
installed with rapidbleu reads it at interpreter start-up).

``RAPIDBLEU_ACCELERATE_REPORT=1`` prints at exit which calls ran on rapidbleu and which fell
back, with counts and seconds; ``RAPIDBLEU_ACCELERATE_REPORT=FILE.json`` writes them to a file.

Example:
    >>> import sys
    >>> install()
    >>> import sacrebleu
    >>> sacrebleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]]).score
    100.00000000000004
    >>> sacrebleu.__version__.startswith("2.6.0+rapidbleu")
    True
    >>> uninstall()
    >>> sys.modules.get("sacrebleu") is sacrebleu
    False
"""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["install", "is_installed", "load_ipython_extension", "uninstall"]

#: The environment variable that child interpreters read to enter the mode.
ENV = "RAPIDBLEU_ACCELERATE"
#: The environment variable naming where the report goes (``1``: stderr; ``*.json``: a file).
REPORT_ENV = "RAPIDBLEU_ACCELERATE_REPORT"

_reporting: list[int] = []  # the pid whose exit handler is registered (one per process)
_displaced: dict[str, Any] = {}  # real modules imported before install(), given back by uninstall()


def is_installed() -> bool:
    """Whether accelerator mode is on in this process.

    Example:
        >>> is_installed() in (True, False)
        True
    """
    from rapidbleu.accelerate.finder import FINDER

    return FINDER in sys.meta_path


def install() -> None:
    """Turns accelerator mode on for this process and the processes it starts.

    Modules of the mode that were imported before (a real ``sacrebleu``) are taken out of
    :data:`sys.modules`, so the next import gets rapidbleu; names a program bound before
    (``from sacrebleu import corpus_bleu``) stay what they were, so call this first. Calling it
    again does nothing.
    """
    from rapidbleu.accelerate.finder import FINDER, loaded_modules

    if FINDER not in sys.meta_path:
        for name in loaded_modules():
            _displaced[name] = sys.modules.pop(name)
        sys.meta_path.insert(0, FINDER)
        evaluate = sys.modules.get("evaluate")
        if evaluate is not None:
            from rapidbleu.accelerate.evaluate_load import patch

            patch(evaluate)
        _patch_mbrs(install=True)
        from rapidbleu.accelerate.logs import forward

        forward(True)
    os.environ[ENV] = "1"
    setting = os.environ.get(REPORT_ENV, "")
    if setting and setting != "0" and os.getpid() not in _reporting:
        # The report includes worker processes' calls (rapidbleu.accelerate.workers).
        from rapidbleu.accelerate.workers import start

        _reporting.append(os.getpid())
        start(setting)


def uninstall() -> None:
    """Turns accelerator mode off: imports get the real packages again.

    Example:
        >>> uninstall()
        >>> is_installed()
        False
    """
    from rapidbleu.accelerate.finder import FINDER, loaded_modules

    while FINDER in sys.meta_path:
        sys.meta_path.remove(FINDER)
    for name, module in loaded_modules().items():
        if getattr(module, "__rapidbleu_accelerated__", False) or module.__name__ != name:
            del sys.modules[name]
    sys.modules.update(_displaced)
    _displaced.clear()
    evaluate = sys.modules.get("evaluate")
    if evaluate is not None:
        from rapidbleu.accelerate.evaluate_load import unpatch

        unpatch(evaluate)
    _patch_mbrs(install=False)
    from rapidbleu.accelerate.logs import forward
    from rapidbleu.accelerate.result_names import restore

    forward(False)
    restore()
    os.environ.pop(ENV, None)


def _patch_mbrs(install: bool) -> None:
    """Patches (or unpatches) mbrs' metric modules imported before the mode changed."""
    from rapidbleu.accelerate.targets import MBRS

    if any(name in sys.modules for name in MBRS):
        from rapidbleu.accelerate import mbrs_metrics

        for name in MBRS:
            if name in sys.modules:
                (mbrs_metrics.patch if install else mbrs_metrics.unpatch)(sys.modules[name])


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext rapidbleu.accelerate``: :func:`install` in an IPython or Jupyter session."""
    install()


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext rapidbleu.accelerate``: :func:`uninstall`."""
    uninstall()
