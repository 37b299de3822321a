"""Pre-tokenised input: token sequences and token-ID arrays, and tokenizers that make IDs.

Every scoring entry point of rapidbleu accepts, besides text, *sequences of tokens*:

- lists (or tuples) of ``str`` tokens;
- integer token IDs: lists of ``int``, NumPy integer arrays (any integer dtype), torch CPU
  tensors (converted with ``.numpy()``, zero-copy; torch is never imported by rapidbleu);
- a whole batch as one 2-D integer array or tensor, one row per sequence, with ``lengths``
  (row ``i`` is ``row[:lengths[i]]``) or a ``pad_id`` (every ``pad_id`` in a row is dropped, so
  left and right padding both work); one of the two is required (a batch read whole would
  score its padding), and a masked array is read without its masked entries.

Only sequences are read (lists, tuples, arrays, tensors, ``collections.abc.Sequence``):
generators (read once), sets and dicts (no order) are refused, as for text. A str token with
a lone surrogate is :class:`~rapidbleu.errors.InvalidTextError`, as for text.

This module says what is token input (:func:`is_pretokenized`), where the rows of 2-D arrays
end (:class:`TokenLayout`) and turns text into IDs (:func:`encode`); each metric counts token
input its own way (BLEU: :func:`rapidbleu.metrics.bleu.tokens.token_statistics`).

Example:
    >>> is_pretokenized([[1, 2, 3]]), is_pretokenized(["a b c"])
    (True, False)
    >>> encode(["ab"], lambda s: [ord(c) for c in s])
    [[97, 98]]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

import rapidbleu._config as _config
from rapidbleu.errors import InputTypeError, MissingDependencyError, MissingModelError

__all__ = ["TokenLayout", "encode", "is_pretokenized", "is_token_sequence"]


# A NamedTuple, not a dataclass: `dataclasses` imports `inspect`, which cost a cold ja-mecab
# score (a fresh process) more time than the rest of BLEU's own imports.
class TokenLayout(NamedTuple):
    """Where the rows of 2-D token-ID arrays end (as BLEU's token statistics read them).

    Attributes:
        pad_id: An ID dropped from every sequence (padding), or ``None``.
        lengths: Row lengths of a 2-D hypotheses array, or ``None``.
        ref_lengths: Per reference list, the row lengths of its 2-D array (or ``None``).

    Example:
        >>> bool(TokenLayout()), TokenLayout(pad_id=0).kwargs()["pad_id"]
        (False, 0)
    """

    pad_id: Any = None
    lengths: Any = None
    ref_lengths: Any = None

    def __bool__(self) -> bool:
        return any(v is not None for v in (self.pad_id, self.lengths, self.ref_lengths))

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of the token-statistics functions that this layout sets."""
        return {"pad_id": self.pad_id, "lengths": self.lengths, "ref_lengths": self.ref_lengths}


def _is_ndarray(obj: Any) -> bool:
    # NumPy is not imported for the check: an array exists only once NumPy is loaded, and the
    # command's corpus path never loads it.
    np = _config.loaded_numpy()
    return np is not None and isinstance(obj, np.ndarray)


def _is_torch(obj: Any) -> bool:
    # By the class's module: torch is never imported here.
    return type(obj).__module__.split(".")[0] == "torch" and hasattr(obj, "numpy")


def is_token_sequence(obj: Any) -> bool:
    """Whether ``obj`` is one pre-tokenised sequence (not a str).

    Example:
        >>> is_token_sequence([1, 2]), is_token_sequence(["a"]), is_token_sequence("a b")
        (True, True, False)
    """
    if isinstance(obj, (str, bytes)):
        return False
    if _is_ndarray(obj) or _is_torch(obj):
        return True
    return isinstance(obj, (list, tuple))


def is_pretokenized(seqs: Any) -> bool:
    """Whether ``seqs`` (one entry per segment) holds token sequences rather than str.

    A 2-D array or tensor, or a sequence whose first entry is a token sequence.

    Example:
        >>> is_pretokenized([[1, 2], [3]]), is_pretokenized(["a b", "c"])
        (True, False)
    """
    if _is_ndarray(seqs) or _is_torch(seqs):
        return len(getattr(seqs, "shape", ())) == 2 or (
            _is_ndarray(seqs)
            and seqs.dtype == object
            and len(seqs) > 0
            and is_token_sequence(seqs[0])
        )
    if isinstance(seqs, (str, bytes)) or not isinstance(seqs, Sequence) or len(seqs) == 0:
        return False
    return is_token_sequence(seqs[0])


def _load_hf(path: str | os.PathLike[str]) -> Any:
    if not os.path.isfile(path):
        raise MissingModelError(
            f"no tokenizer file at {os.fspath(path)!r}; rapidbleu never downloads: give the "
            "path of a local tokenizer.json, or a tokenizers.Tokenizer object"
        )
    try:
        import tokenizers
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise MissingDependencyError(
            "reading a tokenizer.json needs the `tokenizers` package: pip install tokenizers"
        ) from e
    return tokenizers.Tokenizer.from_file(os.fspath(path))


def _tokens_of(out: Any, i: int) -> list[Any]:
    """A callable tokenizer's output for ``texts[i]`` as a list, or a clear error."""
    if (
        out is None
        or isinstance(out, (bytes, dict, set, frozenset))
        or not hasattr(out, "__iter__")
    ):
        raise InputTypeError(
            f"the tokenizer returned {type(out).__name__} for texts[{i}]; it must return a "
            "sequence of tokens (str) or token IDs (int)"
        )
    return list(out)


def encode(
    texts: Sequence[str], tokenizer: Any, *, add_special_tokens: bool = False
) -> list[list[int]]:
    """Token IDs of each text, with a local tokenizer (nothing is downloaded).

    Args:
        texts: The texts.
        tokenizer: A Hugging Face ``tokenizers.Tokenizer``, the path of a local
            ``tokenizer.json``, a ``tiktoken.Encoding`` (``encode_ordinary``: special-token
            text is encoded as plain text), or any callable ``str -> sequence of int``.
        add_special_tokens: For Hugging Face tokenizers: add their special tokens (e.g.
            ``[CLS]``/``[SEP]``) as ``Tokenizer.encode`` does by default.

    Returns:
        One list of IDs per text.

    Raises:
        rapidbleu.errors.MissingModelError: The tokenizer path does not exist.
        rapidbleu.errors.InputTypeError: ``tokenizer`` is none of the above.

    Example:
        >>> encode(["ab", "b"], lambda s: [ord(c) for c in s])
        [[97, 98], [98]]
    """
    texts = list(texts)
    for i, t in enumerate(texts):
        if not isinstance(t, str):
            raise InputTypeError(f"texts[{i}] is {type(t).__name__}; expected str")
    if isinstance(tokenizer, (str, os.PathLike)):
        tokenizer = _load_hf(tokenizer)
    module = type(tokenizer).__module__.split(".")[0]
    if module == "tokenizers" and hasattr(tokenizer, "encode_batch"):
        encs = tokenizer.encode_batch(texts, add_special_tokens=add_special_tokens)
        return [list(e.ids) for e in encs]
    if module == "tiktoken" and hasattr(tokenizer, "encode_ordinary_batch"):
        return [list(ids) for ids in tokenizer.encode_ordinary_batch(texts)]
    if callable(tokenizer):
        return [_tokens_of(tokenizer(t), i) for i, t in enumerate(texts)]
    raise InputTypeError(
        f"tokenizer is {type(tokenizer).__name__}; expected a tokenizers.Tokenizer, a path to "
        "a tokenizer.json, a tiktoken.Encoding or a callable"
    )
