"""BLEU on pre-tokenised input: n-gram statistics of token IDs and str tokens.

The sequences (:mod:`rapidbleu.io.tokens` says what they may be) are read in Rust (arrays
through their buffers, no Python object per token) and counted by the same n-gram engine as
text: an ID is looked up by its value, a token by its UTF-8 bytes. One corpus holds IDs or str
tokens, not both. The rows are BLEU's, and the dialects (NLTK, the R package, HF evaluate)
score them with their own rules.

Example:
    >>> import numpy as np
    >>> refs = [[[1, 2, 3], [2, 3, 4]]]
    >>> rows, kind = token_statistics([[1, 2, 3]], refs, max_order=2, per_segment=True)
    >>> rows.tolist(), kind
    ([[3, 3, 3, 2, 3, 2]], 'ids')
    >>> batch = np.array([[1, 2, 3, 0], [5, 0, 0, 0]])
    >>> token_statistics(batch, [batch], max_order=1, per_segment=False, pad_id=0)[0].tolist()
    [[3, 3, 3, 3], [1, 1, 1, 1]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["REF_LEN_RULES", "num_refs", "token_statistics"]

#: How a segment's reference length is chosen: sacreBLEU/NLTK (closest, ties to the shorter),
#: the R package sacRebleu (closest, ties to the first listed), TF-NMT / HF evaluate (shortest).
REF_LEN_RULES = ("closest", "closest-first", "shortest")


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
    per_segment: bool | None = None,
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

    **2-D arrays.** A 2-D integer array or tensor (a batch, one row per sequence) must say
    where its rows end: with ``pad_id`` (every ID equal to it is dropped, in every sequence,
    so left and right padding both work) or with ``lengths`` (row ``i`` is
    ``row[:lengths[i]]``; ``ref_lengths`` for reference arrays). Without either it is refused
    (:class:`~rapidbleu.errors.InputError`): a padded batch read whole would score its padding.
    A masked array (``numpy.ma``) is read without its masked entries, so its mask says where
    rows end.

    Args:
        hypotheses: One token sequence per segment, or a 2-D array/tensor.
        references: With ``per_segment=True`` (NLTK's layout), ``references[i]`` is the list
            of references of hypothesis ``i``; with ``per_segment=False`` (sacreBLEU's
            layout), reference streams ``references[k][i]``. Each list may also be a 2-D
            array/tensor.
        max_order: Highest n-gram order N.
        ref_len_rule: ``closest`` (ties to the shorter), ``closest-first`` (ties to the first
            listed) or ``shortest``.
        per_segment: The layout of ``references`` (see above). Required: the two layouts of
            a one-segment corpus look alike, and a guess would pair the wrong sequences.
        pad_id: An ID dropped from every array row and list (padding), hypotheses and
            references alike: an integer from -2**63 to 2**63 - 1.
        lengths: Row lengths of a 2-D ``hypotheses`` array (a list, array or tensor of
            integers from 0 to the row width).
        ref_lengths: Per reference list (parallel to ``references``): the row lengths of its
            2-D array, or ``None`` for a list that is not one.
        lowercase: Lowercase str tokens.
        num_threads: Threads of the core (``None``: ``$RAPIDBLEU_NUM_THREADS``, else all
            cores).
        str_as_chars: A str given as a sequence is the sequence of its characters (NLTK's
            convention: it iterates a str hypothesis); otherwise it is an error.

    Returns:
        The ``(n, 2 + 2N)`` int64 rows and the kind: ``ids``, ``tokens`` or ``empty``.

    Raises:
        rapidbleu.errors.InvalidOptionError: An option has a value that is not allowed
            (``per_segment`` not given, ``pad_id`` not an integer, a length that is not a
            non-negative integer, ``lengths`` with ``pad_id``).
        rapidbleu.errors.InputTypeError: Not token sequences (a generator, a set, floats), or
            IDs mixed with str tokens.
        rapidbleu.errors.InputError: A 2-D array without ``pad_id`` or lengths, a length
            beyond its row.
        rapidbleu.errors.InvalidTextError: A str token with a lone surrogate.
        rapidbleu.errors.LengthMismatchError: Hypotheses and references differ in number.
        rapidbleu.errors.MissingReferenceError: A segment has no reference.

    Example:
        >>> toks = [["a", "b"]]
        >>> token_statistics(toks, [[["a", "c"], ["b"]]], max_order=2, per_segment=True)[0]
        array([[2, 2, 2, 0, 2, 1]])
    """
    if ref_len_rule not in REF_LEN_RULES:
        raise InvalidOptionError(
            f"unknown ref_len_rule {ref_len_rule!r}; allowed: " + ", ".join(REF_LEN_RULES)
        )
    order = _config.integer(max_order)
    if order is None or order < 1:
        raise InvalidOptionError(f"max_order must be a positive integer, got {max_order!r}")
    if per_segment is None:
        raise InvalidOptionError(
            "say how references are laid out: per_segment=True (references[i] lists the "
            "references of hypothesis i, NLTK's layout) or per_segment=False (reference "
            "streams references[k][i], sacreBLEU's layout)"
        )
    if lowercase:
        hypotheses, references = _lower(hypotheses), _lower(references)
    # The flags are read by truth value, as `lowercase` is (the core takes only a real bool);
    # pad_id and the lengths are checked by the core's glue (one message each).
    return _core.BleuOptions.token_statistics(
        hypotheses,
        references,
        order,
        ref_len_rule,
        bool(per_segment),
        pad_id,
        lengths,
        ref_lengths,
        _config.num_threads(num_threads),
        bool(str_as_chars),
    )
