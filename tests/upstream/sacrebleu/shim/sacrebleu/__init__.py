"""``sacrebleu`` for sacreBLEU's own tests: rapidbleu's drop-in namespace under sacreBLEU's name.

``import sacrebleu`` gives :mod:`rapidbleu.sacrebleu` itself (this module replaces itself
in ``sys.modules``), and sacreBLEU's module paths (``sacrebleu.compat``, ``sacrebleu.metrics``,
``sacrebleu.metrics.bleu``, ``sacrebleu.significance``, ``sacrebleu.utils``,
``sacrebleu.tokenizers.tokenizer_13a``, ...) are rapidbleu's modules, registered by
:func:`rapidbleu.sacrebleu.register` (its ``SUBMODULES`` is the one map).

``sacrebleu.dataset`` is the one exception: it is sacreBLEU's own test-set registry, which
rapidbleu does not reimplement but uses as it is (the ``datasets`` extra,
:mod:`rapidbleu.datasets`). As ``sacrebleu`` names rapidbleu here, the installed sacreBLEU
package is loaded under the private name ``_sacrebleu_installed`` (its imports are all relative)
and its ``dataset`` package is registered as ``sacrebleu.dataset``, for the upstream tests and for
rapidbleu alike.

This directory is put on ``sys.path`` only by ``tests/upstream/sacrebleu/conftest.py``, in the
pytest subprocess of ``tests/compat/test_sacrebleu_upstream.py``: the rest of the suite imports
the real sacreBLEU as its oracle.
"""

import importlib.machinery
import importlib.util
import os
import sys

import rapidbleu.sacrebleu as _namespace
from rapidbleu.sacrebleu import register

_SHIM = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PATH = [p for p in sys.path if os.path.abspath(p or os.curdir) != _SHIM]
_FOUND = importlib.machinery.PathFinder.find_spec("sacrebleu", _PATH)
if _FOUND is None or _FOUND.origin is None:
    raise ImportError("sacreBLEU's own tests need the installed sacrebleu==2.6.0 (the test extra)")
_SPEC = importlib.util.spec_from_file_location(
    "_sacrebleu_installed",
    _FOUND.origin,
    submodule_search_locations=_FOUND.submodule_search_locations,
)
assert _SPEC is not None and _SPEC.loader is not None
_installed = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = _installed
_SPEC.loader.exec_module(_installed)

register(_namespace, "sacrebleu")
sys.modules["sacrebleu.dataset"] = sys.modules["_sacrebleu_installed.dataset"]
sys.modules[__name__] = _namespace
