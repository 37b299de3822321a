"""Pre-tokenised input: token IDs and lists of str tokens, and tokenizers that make IDs.

Every scoring entry point of rapidbleu accepts, besides text, *sequences of tokens*:

- lists (or tuples) of ``str`` tokens;
- integer token IDs: lists of ``int``, NumPy integer arrays (any integer dtype), torch CPU
  tensors (converted with ``.numpy()``, zero-copy; torch is never imported by rapidbleu);
- a whole batch as one 2-D integer array or tensor, one row per sequence, with ``lengths``
  (row ``i`` is ``row[:lengths[i]]``) or a ``pad_id`` (every ``pad_id`` in a row is dropped, so
  left and right padding both work).

The sequences are read in Rust (arrays through their buffers, no Python object per token) and
counted by the same n-gram engine as text: an ID is looked up by its value, a token by its
UTF-8 bytes. One corpus holds IDs or str tokens, not both.

Example:
    >>> import numpy as np
    >>> rows, kind = token_statistics([[1, 2, 3]], [[[1, 2, 3], [2, 3, 4]]], max_order=2)
    >>> rows.tolist(), kind
    ([[3, 3, 3, 2, 3, 2]], 'ids')
    >>> batch = np.array([[1, 2, 3, 0], [5, 0, 0, 0]])
    >>> token_statistics(batch, [batch], max_order=1, per_segment=False, pad_id=0)[0].tolist()
    [[3, 3, 3, 3], [1, 1, 1, 1]]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rapidbleu import _config, _core
from rapidbleu.errors import (
    InputTypeError,
    InvalidOptionError,
    MissingDependencyError,
    MissingModelError,
)

__all__ = ["encode", "is_pretokenized", "is_token_sequence", "num_refs", "token_statistics"]

#: How a segment's reference length is chosen: sacreBLEU/NLTK (closest, ties to the shorter),
#: the R package sacRebleu (closest, ties to the first listed), TF-NMT / HF evaluate (shortest).
REF_LEN_RULES = ("closest", "closest-first", "shortest")


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
    if isinstance(obj, np.ndarray) or _is_torch(obj):
        return True
    return isinstance(obj, (list, tuple))


def is_pretokenized(seqs: Any) -> bool:
    """Whether ``seqs`` (one entry per segment) holds token sequences rather than str.

    A 2-D array or tensor, or a sequence whose first entry is a token sequence.

    Example:
        >>> is_pretokenized([[1, 2], [3]]), is_pretokenized(["a b", "c"])
        (True, False)
    """
    if isinstance(seqs, np.ndarray) or _is_torch(seqs):
        return len(getattr(seqs, "shape", ())) == 2 or (
            isinstance(seqs, np.ndarray)
            and seqs.dtype == object
            and len(seqs) > 0
            and is_token_sequence(seqs[0])
        )
    if isinstance(seqs, (str, bytes)) or not isinstance(seqs, Sequence) or len(seqs) == 0:
        return False
    return is_token_sequence(seqs[0])


def num_refs(references: Any, per_segment: bool) -> int:
    """The sacreBLEU ``num_refs`` of token references (-1 when it varies: ``nrefs:var``).

    Example:
        >>> num_refs([[[1], [2]], [[3]]], per_segment=True), num_refs([[[1]], [[2]]], False)
        (-1, 2)
    """
    if not per_segment:
        return len(references)
    counts = {len(r) for r in references}
    return counts.pop() if len(counts) == 1 else -1


def _lower(seqs: Any) -> Any:
    """Lowercases str tokens (``str.lower``, as sacreBLEU's ``lowercase``); IDs stay."""
    if isinstance(seqs, str):
        return seqs.lower()
    if isinstance(seqs, (list, tuple)):
        return [_lower(s) for s in seqs]
    return seqs


def token_statistics(
    hypotheses: Any,
    references: Any,
    *,
    max_order: int = 4,
    ref_len_rule: str = "closest",
    per_segment: bool = True,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
    lowercase: bool = False,
    num_threads: int | None = None,
    str_as_chars: bool = False,
) -> tuple[npt.NDArray[np.int64], str]:
    """Per-segment statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]`` of token input.

    Totals are the raw ``len - n + 1`` (never below 0); dialects apply their own rules (NLTK's
    and the R package's ``max(1, count)`` denominators) when scoring.

    Args:
        hypotheses: One token sequence per segment, or a 2-D array/tensor.
        references: With ``per_segment`` (NLTK's layout), ``references[i]`` is the list of
            references of hypothesis ``i``; otherwise reference streams (sacreBLEU's layout),
            ``references[k][i]``. Each list may also be a 2-D array/tensor.
        max_order: Highest n-gram order N.
        ref_len_rule: ``closest`` (ties to the shorter), ``closest-first`` (ties to the first
            listed) or ``shortest``.
        per_segment: Layout of ``references`` (see above).
        pad_id: An ID dropped from every array row and list (padding).
        lengths: Row lengths of a 2-D ``hypotheses`` array.
        ref_lengths: Row lengths of each 2-D reference array (parallel to ``references``).
        lowercase: Lowercase str tokens.
        num_threads: Threads of the core (``None``: ``$RAPIDBLEU_NUM_THREADS``, else all
            cores).
        str_as_chars: A str given as a sequence is the sequence of its characters (NLTK's
            convention: it iterates a str hypothesis); otherwise it is an error.

    Returns:
        The ``(n, 2 + 2N)`` int64 rows and the kind: ``ids``, ``tokens`` or ``empty``.

    Raises:
        rapidbleu.errors.InputTypeError: Not token sequences, or IDs mixed with str tokens.
        rapidbleu.errors.LengthMismatchError: Hypotheses and references differ in number.
        rapidbleu.errors.MissingReferenceError: A segment has no reference.

    Example:
        >>> token_statistics([["a", "b"]], [[["a", "c"], ["b"]]], max_order=2)[0].tolist()
        [[2, 2, 2, 0, 2, 1]]
    """
    if ref_len_rule not in REF_LEN_RULES:
        raise InvalidOptionError(
            f"unknown ref_len_rule {ref_len_rule!r}; allowed: " + ", ".join(REF_LEN_RULES)
        )
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise InvalidOptionError(f"max_order must be a positive integer, got {max_order!r}")
    if lowercase:
        hypotheses, references = _lower(hypotheses), _lower(references)
    # The flags are read by truth value, as `lowercase` is (the core takes only a real bool).
    return _core.bleu_token_statistics(
        hypotheses,
        references,
        max_order,
        ref_len_rule,
        bool(per_segment),
        pad_id,
        None if lengths is None else [int(n) for n in lengths],
        None
        if ref_lengths is None
        else [None if r is None else [int(n) for n in r] for r in ref_lengths],
        _config.num_threads(num_threads),
        bool(str_as_chars),
    )


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
        return [list(tokenizer(t)) for t in texts]
    raise InputTypeError(
        f"tokenizer is {type(tokenizer).__name__}; expected a tokenizers.Tokenizer, a path to "
        "a tokenizer.json, a tiktoken.Encoding or a callable"
    )
