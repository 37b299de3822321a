r"""jieba's dictionary and HMM in the core (``_core.JiebaDict``), for XL-Sum's Chinese.

XL-Sum's Chinese tokenizer is ``list(jieba.cut(text))``. The core ports jieba 0.42.1's
``cut`` (accurate mode with the HMM) and runs it on a copy of what the Python package has
loaded: ``jieba.dt.FREQ`` and ``total`` (the default dictionary, or the one of
``jieba.set_dictionary``, with the words of ``add_word``, ``del_word``, ``load_userdict`` and
``suggest_freq``), and ``jieba.finalseg``'s ``start_P``, ``trans_P``, ``emit_P`` and
``Force_Split_Words``. The copy is made once and made again when any of those changes through
jieba's API: every such call changes the dictionary object, its size, its total, the
force-split set, or the frequency of a force-split word, which :func:`jieba_dict` compares on
each call. (An edit of ``jieba.dt.FREQ`` by hand that changes none of them is not seen.)

The port is used only where ``jieba.cut`` is jieba 0.42.1's own, on its own regular
expressions; anything else (``jieba.enable_parallel``, another version, a changed
``re_han_default``) leaves the package's tokenizer in Python.

Example:
    >>> import jieba
    >>> jieba.setLogLevel(60)
    >>> jieba_dict(jieba).cut("我爱北京天安门")
    ['我', '爱', '北京', '天安门']
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

from rapidbleu import _core
from rapidbleu.errors import RapidBleuError

__all__ = ["jieba_dict"]

#: The version whose ``cut`` the core ports.
VERSION = "0.42.1"

#: ``jieba.re_han_default``, ``re_skip_default``, and ``finalseg``'s ``re_han`` and ``re_skip``.
_PATTERNS = {
    "re_han_default": "([\u4e00-\u9fd5a-zA-Z0-9+#&\\._%\\-]+)",
    "re_skip_default": "(\r\n|\\s)",
}
_FINALSEG_PATTERNS = {
    "re_han": "([\u4e00-\u9fd5]+)",
    "re_skip": "([a-zA-Z0-9]+(?:\\.\\d+)?%?)",
}

_cache: dict[str, Any] = {"key": None, "dict": None}


def _own(module: ModuleType, patterns: dict[str, str]) -> bool:
    return all(
        getattr(getattr(module, name, None), "pattern", None) == p for name, p in patterns.items()
    )


def _is_ported(jieba: ModuleType) -> bool:
    """Whether ``jieba.cut`` is 0.42.1's ``Tokenizer.cut`` of ``jieba.dt``, unchanged."""
    cut = getattr(jieba, "cut", None)
    finalseg = getattr(jieba, "finalseg", None)
    return (
        getattr(jieba, "__version__", None) == VERSION
        and finalseg is not None
        and getattr(cut, "__func__", None) is jieba.Tokenizer.cut
        and getattr(cut, "__self__", None) is jieba.dt
        and _own(jieba, _PATTERNS)
        and _own(finalseg, _FINALSEG_PATTERNS)
        and getattr(finalseg, "MIN_FLOAT", None) == -3.14e100
    )


def jieba_dict(jieba: ModuleType) -> _core.JiebaDict | None:
    """The core's copy of what ``jieba.cut`` reads now, or ``None``: the port does not apply.

    Args:
        jieba: The ``jieba`` module.

    Example:
        >>> import jieba
        >>> jieba_dict(jieba) is jieba_dict(jieba)
        True
    """
    if not _is_ported(jieba):
        return None
    dt = jieba.dt
    # What cut's first block of Chinese does (a dictionary set with set_dictionary loads here).
    dt.check_initialized()
    finalseg = jieba.finalseg
    freq, split = dt.FREQ, finalseg.Force_Split_Words
    key = (
        id(freq),
        len(freq),
        dt.total,
        id(finalseg.emit_P),
        id(split),
        len(split),
        # del_word of a word re-added since: its frequency goes back to 0.
        tuple(freq.get(w, 0) for w in split),
    )
    if _cache["key"] != key:
        try:
            copy = _core.JiebaDict(
                freq,
                math.log(dt.total),
                finalseg.start_P,
                finalseg.trans_P,
                finalseg.emit_P,
                split,
            )
        except (RapidBleuError, TypeError, ValueError, KeyError):
            # An odd dictionary (a negative frequency, a total of 0): jieba's own code decides.
            return None
        _cache.update(key=key, dict=copy)
    result: _core.JiebaDict = _cache["dict"]
    return result
