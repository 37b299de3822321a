"""The generated and real captions of make_golden.py, for the tests of this folder.

Loaded from this folder's file under a name of its own: tests/meteor and tests/rouge_dialects
have a make_golden.py too, and pytest puts every test folder on sys.path, so a plain
``import make_golden`` would get whichever was imported first.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_NAME = "caption_make_golden"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        _NAME, Path(__file__).resolve().parent / "make_golden.py"
    )
    assert _spec is not None and _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)

generated = sys.modules[_NAME].generated
real_images = sys.modules[_NAME].real_images

__all__ = ["generated", "real_images"]
