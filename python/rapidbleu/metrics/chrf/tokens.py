"""ChrF's word n-grams over token IDs (or str tokens): each token is one word.

chrF counts characters of text, which token IDs do not have, so over token sequences only its
word n-grams make sense: ``CHRF(char_order=0, word_order=N)`` is the F-score of word n-grams,
orders 1..N, each token ID (or str token) one word, with sacreBLEU's arithmetic (effective
order or ``eps_smoothing``, ``beta``, the best of several references).

How: every distinct token of a call gets a distinct one- or two-character "word" of astral code
points, which are neither whitespace (``str.split()``) nor ASCII punctuation
(``_remove_punctuation``), and the sequences become those words joined by spaces. Word n-gram
counts are then those of the tokens, exactly, and the Rust core counts them. A token is never
split, and never lowercased (the metric refuses ``lowercase=True`` with token input).

Example:
    >>> hyps, refs = encode([[1, 2, 3]], [[[1, 2, 4]]], per_segment=False)
    >>> len(hyps[0].split()), hyps[0].split()[:2] == refs[0][0].split()[:2]
    (3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import InputTypeError

__all__ = ["encode"]


#: The words' code points: the astral planes (U+10000..U+10FFFF), where no code point is
#: whitespace, a surrogate or ASCII punctuation.
_FIRST = 0x10000
_COUNT = 0x110000 - _FIRST


def _word(code: int) -> str:
    """The word of the ``code``-th distinct token: one character, or two beyond a million.

    Example:
        >>> len(_word(0)), len(_word(_COUNT)), _word(1) != _word(_COUNT + 1)
        (1, 2, True)
    """
    if code < _COUNT:
        return chr(_FIRST + code)
    high, low = divmod(code - _COUNT, _COUNT)
    return chr(_FIRST + high) + chr(_FIRST + low)


def _tokens(seq: Any, what: str) -> list[Any]:
    """A sequence's tokens as hashable Python values (NumPy and torch scalars as ints)."""
    import numpy as np  # here, not at the top: `import rapidbleu.metrics` stays without NumPy

    if hasattr(seq, "tolist") and not isinstance(seq, (list, tuple)):
        seq = seq.tolist()
    if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
        raise InputTypeError(
            f"{what} is {type(seq).__name__}; with token input every entry must be a sequence of "
            "token IDs (int) or str tokens"
        )
    out = []
    for t in seq:
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer, str)):
            raise InputTypeError(f"{what} holds a {type(t).__name__}; expected int or str tokens")
        out.append(int(t) if isinstance(t, np.integer) else t)
    return out


def encode(
    hypotheses: Sequence[Any], references: Any, per_segment: bool
) -> tuple[list[str], list[list[str | None]]]:
    """Token sequences as texts whose words are the tokens (see the module documentation).

    Args:
        hypotheses: One token sequence per segment.
        references: Reference streams of token sequences (``None`` for a missing one), or with
            ``per_segment`` one list of token sequences per hypothesis.
        per_segment: The layout of ``references``.

    Returns:
        ``(hypotheses, references)`` as text, in the same layout.
    """
    codes: dict[Any, str] = {}

    def text(seq: Any, what: str) -> str:
        words = []
        for t in _tokens(seq, what):
            w = codes.get(t)
            if w is None:
                w = codes[t] = _word(len(codes))
            words.append(w)
        return " ".join(words)

    hyps = [text(h, f"hypotheses[{i}]") for i, h in enumerate(hypotheses)]
    refs = [
        [None if r is None else text(r, f"references[{k}][{i}]") for i, r in enumerate(group)]
        for k, group in enumerate(references)
    ]
    del per_segment  # both layouts are lists of lists of sequences
    return hyps, refs
