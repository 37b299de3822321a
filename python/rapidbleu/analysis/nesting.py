"""How references nest: streams (``references[k][i]``), as sacreBLEU wants them, or not.

sacreBLEU's metrics take reference *streams*: ``references[k][i]`` is the ``k``-th reference
translation of segment ``i``, so ``references`` holds one list per reference translation, each
as long as the hypotheses. The most common mistake in the field nests them the other way, per
segment (``references[i] = [ref1, ref2]``), or passes a flat list of strings (sacreBLEU issues
#220, #256, #272, #275, #281; lighteval #1112): sacreBLEU's ``zip`` then truncates the corpus
to the shortest list and scores the wrong pairs without a word.

Two checks, both cheap:

- :func:`~rapidbleu.metrics.checks.check_shape` needs only lengths. Every metric entry point
  runs it, and it raises :class:`~rapidbleu.errors.ReferenceNestingError` (showing the
  expected shape and the fix) wherever the nesting cannot be right: a ``str`` given as a
  stream, or as many lists as hypotheses where no list is as long as the hypotheses.
- :func:`check_references` also decides the one case lengths cannot: a *square* corpus (``n``
  hypotheses, ``n`` lists of ``n``), where both readings fit. It compares, on at most
  :data:`SAMPLE_SEGMENTS` segments and :data:`SAMPLE_REFERENCES` references each, how many
  words each hypothesis shares with its references under either reading (one call into the
  core, whatever the corpus size): a hypothesis shares many more words with its own references
  than with other segments' ones. Run it where a corpus may be square; the ``--jsonl`` command
  and the accelerator mode do.

Example:
    >>> check_references(["the cat sat", "a dog ran"], [["the cat sat", "a dog ran"]])
    'streams'
    >>> from rapidbleu.metrics.checks import check_shape
    >>> check_shape(2, [["the cat sat"], ["a dog ran"]])
    Traceback (most recent call last):
    ...
    rapidbleu.errors.ReferenceNestingError: references holds 2 lists of 1 for 2 hypotheses: ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import ReferenceNestingError
from rapidbleu.metrics.checks import (
    EXPECTED,
    TRANSPOSE,
    check_hypotheses,
    check_shape,
    check_streams,
    hypotheses_phrase,
)

__all__ = [
    "SAMPLE_REFERENCES",
    "SAMPLE_SEGMENTS",
    "VERDICTS",
    "check_references",
]

#: Segments of a square corpus compared by :func:`check_references` (evenly spread).
SAMPLE_SEGMENTS = 48
#: References of each such segment compared under either reading (besides the shared one).
SAMPLE_REFERENCES = 8
#: What :func:`check_references` returns when it does not raise.
VERDICTS = ("streams", "undecided")


def _spread(count: int, limit: int, skip: int = -1) -> list[int]:
    """At most ``limit`` indices of ``range(count)`` spread evenly, without ``skip``."""
    pool = [i for i in range(count) if i != skip]
    if len(pool) <= limit:
        return pool
    return [pool[(j * (len(pool) - 1)) // (limit - 1)] for j in range(limit)]


def check_references(
    hypotheses: Sequence[Any], references: Sequence[Any], *, tokenize: str = "13a"
) -> str:
    """Checks that ``references`` are streams (``references[k][i]``), as every metric reads them.

    Runs :func:`check_shape`; for a square corpus (``n`` hypotheses, ``n`` lists of ``n``)
    it also counts the words each sampled hypothesis shares with its references read as streams
    (``references[k][i]``) and read per segment (``references[i][k]``), leaving out
    ``references[i][i]``, which both readings share. At most :data:`SAMPLE_SEGMENTS` x
    :data:`SAMPLE_REFERENCES` x 2 pairs, counted in one call into the core.

    Args:
        hypotheses: The hypotheses (str, or token sequences).
        references: The references as they would be given to a metric.
        tokenize: The tokenizer that splits text into words for the count (BLEU's names).

    Returns:
        ``"streams"``: the shape allows only that reading, or the text supports it;
        ``"undecided"``: a square corpus whose text supports neither reading clearly (no
        words in common either way, or as many both ways): nothing was wrong that could be
        told.

    Raises:
        rapidbleu.errors.ReferenceNestingError: The nesting cannot be streams
            (:func:`check_shape`), or a square corpus reads clearly better per segment.
        rapidbleu.errors.InputTypeError: ``hypotheses`` or ``references`` is not a sequence.

    Example:
        >>> hyps = ["the cat sat on the mat", "a dog ran in the park"]
        >>> per_segment = [["the cat sat on a mat", "a cat sat on the mat"],
        ...                ["a dog ran in a park", "the dog ran in the park"]]
        >>> check_references(hyps, per_segment)
        Traceback (most recent call last):
        ...
        rapidbleu.errors.ReferenceNestingError: references holds 2 lists of 2 for 2 ...
        >>> check_references(hyps, [list(s) for s in zip(*per_segment)])
        'streams'
    """
    hypotheses = check_hypotheses(hypotheses)
    references = check_streams(references)
    n = len(hypotheses)
    check_shape(n, references)
    square = n >= 2 and len(references) == n and all(len(s) == n for s in references)
    if not square:
        return "streams"
    as_streams, per_segment = _shared_words(hypotheses, references, tokenize)
    # A hypothesis shares several times more words with its own references than with other
    # segments' ones; "clearly" asks for twice as many and a few words of difference.
    if per_segment >= 2 * as_streams + 4:
        raise ReferenceNestingError(
            f"references holds {n} lists of {n} for {hypotheses_phrase(n)}, and the text "
            f"reads per segment: the sampled hypotheses share {per_segment} words with "
            f"references[i][k] but {as_streams} with references[k][i]; {EXPECTED}; to "
            f"transpose: {TRANSPOSE}"
        )
    if as_streams >= 2 * per_segment + 4:
        return "streams"
    return "undecided"


def _shared_words(
    hypotheses: Sequence[Any], references: Sequence[Any], tokenize: str
) -> tuple[int, int]:
    """Words the sampled hypotheses share with their references, read as streams / per segment."""
    from rapidbleu.io.tokens import is_pretokenized
    from rapidbleu.metrics.bleu import BLEU

    n = len(hypotheses)
    hyps: list[Any] = []
    refs: list[Any] = []
    reading: list[bool] = []  # True: per segment
    for i in _spread(n, SAMPLE_SEGMENTS):
        for k in _spread(n, SAMPLE_REFERENCES, skip=i):
            for per_seg, ref in ((False, references[k][i]), (True, references[i][k])):
                if ref is not None:
                    hyps.append(hypotheses[i])
                    refs.append(ref)
                    reading.append(per_seg)
    if not hyps:
        return 0, 0
    # Unigram matches, clipped (BLEU's correct_1): one call, on as many threads as it likes.
    metric = BLEU(tokenize="none" if is_pretokenized(hypotheses) else tokenize, max_ngram_order=1)
    rows = metric.statistics(hyps, [refs])
    matched = rows[:, 2].tolist()
    per_segment = sum(m for m, per_seg in zip(matched, reading) if per_seg)
    return sum(matched) - per_segment, per_segment
