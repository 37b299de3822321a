"""The checks of a metric's inputs and options, with sacreBLEU's layouts and clear errors.

Every metric calls these before its Rust core sees anything, so that bad input raises a
:mod:`rapidbleu.errors` exception whose message says what was wrong and what is allowed
(sacreBLEU would fail later, or silently score something else). :func:`add_sums` and
:func:`check_totals` check and fold the running totals of a streamed corpus.

Example:
    >>> check_flag(0, "lowercase"), count_tokenized(["a .", "b"])
    (False, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.errors import (
    EmptyInputError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    ReferenceNestingError,
)
from rapidbleu.io.arrow import arrow_text, is_arrow
from rapidbleu.io.tokens import is_pretokenized

__all__ = [
    "EXPECTED",
    "TRANSPOSE",
    "TRANSPOSE_RAGGED",
    "add_sums",
    "check_flag",
    "check_hypotheses",
    "check_int",
    "check_sentence_references",
    "check_shape",
    "check_streams",
    "check_totals",
    "count_tokenized",
    "hypotheses_phrase",
    "num_refs",
]


def check_streams(references: Any) -> Sequence[Any]:
    """``references`` as reference streams, or a clear error (sacreBLEU's layout).

    Example:
        >>> check_streams("a b")
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InputTypeError: references must be a sequence of reference streams, ...
    """
    if isinstance(references, (str, bytes)) or not (
        isinstance(references, Sequence) or is_pretokenized(references)
    ):
        raise InputTypeError(
            "references must be a sequence of reference streams, each a sequence of str with "
            "one entry per hypothesis, e.g. [[ref1_seg1, ref1_seg2], [ref2_seg1, ref2_seg2]]"
            f"; got a {type(references).__name__} (generators and iterators are read only "
            "once, sets have no order: pass list(...) of them)"
        )
    if len(references) == 0:
        raise EmptyInputError(
            "no reference streams: references is empty; give at least one stream, "
            "e.g. [[ref_seg1, ref_seg2, ...]]"
        )
    if any(is_arrow(stream) for stream in references):  # Arrow text: lines the core holds
        return [arrow_text(stream) for stream in references]
    return references  # type: ignore[no-any-return]


def check_flag(value: Any, name: str) -> bool:
    """An on/off option: its Python truth value, as sacreBLEU's ``if self.lowercase:`` takes it.

    ``None``, ``0`` and ``""`` are off; ``2`` and ``"yes"`` (and ``"no"``) are on, as in
    sacreBLEU. Only a value without a truth value (a NumPy array of several entries) is
    refused.

    Example:
        >>> import numpy as np
        >>> check_flag(np.True_, "lowercase"), check_flag(0, "force"), check_flag(None, "force")
        (True, False, False)
        >>> check_flag("yes", "lowercase")
        True
    """
    try:
        return bool(value)
    except Exception as e:  # NumPy's "truth value of an array ... is ambiguous", or a bug
        raise InvalidOptionError(
            f"{name} takes a truth value (True or False), got {value!r}: {e}"
        ) from None


def add_sums(totals: list[Any], sums: list[list[int]]) -> list[Any]:
    """Each system's running totals plus a chunk's column sums (``None``: no totals yet).

    For :meth:`~rapidbleu.metrics.base.Metric.accumulate_chunk` of additive metrics whose
    core sums a chunk: Python ints, added exactly, with no NumPy.

    Example:
        >>> add_sums([None, [1, 2]], [[3, 4], [5, 6]])
        [[3, 4], [6, 8]]
    """
    check_totals(totals, len(sums))
    return [s if t is None else [a + b for a, b in zip(t, s)] for t, s in zip(totals, sums)]


def check_totals(totals: list[Any], num_systems: int) -> None:
    """Raises unless ``totals`` has one entry per system of a chunk (none may be dropped).

    Example:
        >>> check_totals([None], 2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.LengthMismatchError: totals has 1 entries but the chunk has 2 systems; ...
    """
    if isinstance(totals, (str, bytes)) or not isinstance(totals, Sequence):
        raise InputTypeError(
            "totals must be a list with one running total per system (None before its first "
            f"chunk), not {type(totals).__name__}"
        )
    if len(totals) != num_systems:
        raise LengthMismatchError(
            f"totals has {len(totals)} entries but the chunk has {num_systems} systems; give "
            "one running total per system (None before its first chunk)"
        )


def check_sentence_references(references: Any) -> None:
    """Raises unless ``references`` is a non-empty sequence (one hypothesis' references).

    Example:
        >>> check_sentence_references([])
        Traceback (most recent call last):
        ...
        rapidbleu.errors.EmptyInputError: no references given for the hypothesis
    """
    if type(references) is not list and (
        isinstance(references, (str, bytes))
        or not (isinstance(references, Sequence) or is_pretokenized(references))
    ):
        raise InputTypeError("references must be a sequence of str (the references)")
    if len(references) == 0:
        raise EmptyInputError("no references given for the hypothesis")


def check_hypotheses(hypotheses: Any) -> Sequence[Any]:
    """``hypotheses`` as a non-empty sequence of segments, or a clear error.

    Example:
        >>> check_hypotheses(["a b"])
        ['a b']
    """
    hypotheses = arrow_text(hypotheses)  # Arrow text: lines the core holds
    if is_pretokenized(hypotheses):  # token sequences or IDs: see rapidbleu.io.tokens
        return hypotheses  # type: ignore[no-any-return]
    if isinstance(hypotheses, (str, bytes)) or not isinstance(hypotheses, Sequence):
        raise InputTypeError(
            "hypotheses must be a sequence (e.g. a list) of str, one per segment, "
            f"not {type(hypotheses).__name__}"
        )
    if len(hypotheses) == 0:
        raise EmptyInputError("no hypotheses to score: the hypothesis list is empty")
    return hypotheses


def count_tokenized(hypotheses: Sequence[Any]) -> int:
    """How many hypotheses end in ``" ."`` (sacreBLEU's test for tokenized input).

    Items that are not a ``str`` are not counted.

    Example:
        >>> count_tokenized(["a .", "b.", 3])
        1
    """
    # In the core: a Python loop over the lines was the largest serial part of a MeCab BLEU
    # after the parse.
    return _core.count_tokenized(hypotheses)


def num_refs(references: Sequence[Any]) -> int:
    """SacreBLEU's ``num_refs`` of reference streams: non-None entries per segment (-1: varies).

    Example:
        >>> num_refs([["a", "b"], ["a", None]])
        -1
    """
    counts = {sum(r is not None for r in seg) for seg in zip(*references)}
    return counts.pop() if len(counts) == 1 else -1


def check_int(value: Any, what: str) -> int:
    """An integer option (ints and NumPy integers; not bools), or a clear error.

    Example:
        >>> check_int(True, "n_bootstrap")
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InvalidOptionError: n_bootstrap must be an int, got True
    """
    n = _config.integer(value)
    if n is None:
        raise InvalidOptionError(f"{what} must be an int, got {value!r}")
    return n


#: The expected shape, said once for every message.
EXPECTED = (
    "sacreBLEU's metrics take reference streams, references[k][i] (k: the reference "
    "translation, i: the segment), each as long as the hypotheses"
)
#: The fix for references nested per segment, every segment with the same number of them.
TRANSPOSE = "references = [list(stream) for stream in zip(*references)]"
#: The fix when the number of references varies by segment (None marks a missing one).
TRANSPOSE_RAGGED = (
    "references = [list(stream) for stream in itertools.zip_longest(*references)] "
    "(None marks a missing reference)"
)


def hypotheses_phrase(n: int) -> str:
    """``1 hypothesis`` or ``n hypotheses``, for messages."""
    return "1 hypothesis" if n == 1 else f"{n} hypotheses"


def check_shape(num_hypotheses: int, references: Sequence[Any]) -> None:
    """Refuses reference lists whose nesting cannot be sacreBLEU's streams, naming the fix.

    Lengths only (``len`` of each list): the text is not read. Shapes that are merely
    inconsistent (a stream one segment short) are left to the metric's own
    :class:`~rapidbleu.errors.LengthMismatchError`.

    Args:
        num_hypotheses: How many hypotheses there are.
        references: What was given as reference streams (a sequence; its items are not
            checked for type beyond ``str``).

    Raises:
        rapidbleu.errors.ReferenceNestingError: A ``str`` where a stream belongs (a flat
            list of strings), or as many lists as hypotheses and none of them as long as the
            hypotheses (references nested per segment).

    Example:
        >>> check_shape(3, [["a", "b", "c"], ["x", "y", "z"]])  # two streams: fine
        >>> check_shape(2, ["a", "b"])
        Traceback (most recent call last):
        ...
        rapidbleu.errors.ReferenceNestingError: references is a flat list of 2 str, not ...
    """
    n = num_hypotheses
    strings = [k for k, stream in enumerate(references) if isinstance(stream, (str, bytes))]
    if strings and len(strings) == len(references):
        raise ReferenceNestingError(
            f"references is a flat list of {len(references)} str, not a list of streams; "
            f"{EXPECTED}; with one reference per hypothesis, wrap it: references = [references]"
        )
    if strings:
        raise ReferenceNestingError(
            f"references[{strings[0]}] is a str, not a stream; {EXPECTED}; give every "
            "reference translation as a list with one str per segment"
        )
    if n < 2 or len(references) != n:
        return
    lengths = [len(stream) for stream in references]
    if n in lengths:
        return  # some streams fit: a short one is a plain length mismatch
    if len(set(lengths)) == 1:
        shape, fix = f"{n} lists of {lengths[0]}", TRANSPOSE
    else:
        shape, fix = f"{n} lists of {min(lengths)} to {max(lengths)}", TRANSPOSE_RAGGED
    raise ReferenceNestingError(
        f"references holds {shape} for {hypotheses_phrase(n)}: nested per segment "
        f"(references[i] = the references of hypothesis i)? {EXPECTED}; to transpose: {fix}"
    )
