"""Arrow text input: columns that offer the Arrow PyCapsule interface, read by the core.

Any object with ``__arrow_c_stream__`` or ``__arrow_c_array__`` (pyarrow arrays and chunked
arrays, polars series, pandas' Arrow-backed strings, Hugging Face datasets' columns, Ray Data
blocks) holding ``string``, ``large_string`` or ``string_view`` values is text input wherever
a list of ``str`` is: the core reads it through the Arrow C data interface, without pyarrow,
copying the strings out in parallel, nulls as ``None`` (a missing reference; in hypotheses an
error, as ``None`` is). See ``crates/rapidbleu-py/src/arrow.rs``.

Example:
    >>> import pyarrow as pa
    >>> list(arrow_text(pa.array(["a b", None])))
    ['a b', None]
    >>> arrow_text(["a b"])
    ['a b']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rapidbleu._core as _core

__all__ = ["arrow_text", "is_arrow"]

# Lines the core holds are a read-only sequence of str (or None), like a list.
Sequence.register(_core.TokenizedLines)


def is_arrow(obj: Any) -> bool:
    """Whether ``obj`` offers the Arrow PyCapsule interface (a stream or an array).

    Example:
        >>> is_arrow(["a"])
        False
    """
    cls = type(obj)
    return hasattr(cls, "__arrow_c_stream__") or hasattr(cls, "__arrow_c_array__")


def arrow_text(obj: Any) -> Any:
    """``obj`` as lines the core holds if it is Arrow text, else ``obj`` itself.

    Raises:
        rapidbleu.errors.InputTypeError: ``obj`` is Arrow data of another type than text.
        rapidbleu.errors.InvalidTextError: a value is not valid UTF-8.
    """
    if type(obj) is list or not is_arrow(obj):
        return obj
    return _core.TokenizedLines.from_arrow(obj)
