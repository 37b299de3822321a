"""Google BLEU (GLEU): NLTK's ``corpus_gleu``, counted by rapidbleu's engine.

evaluate's ``google_bleu`` metric is ``nltk.translate.gleu_score.corpus_gleu`` on 13a tokens.
For each segment and each of its references, GLEU needs the n-gram overlap of orders
``min_len..max_len`` (``tp``), the hypothesis' n-gram count (``tpfp``) and the reference's
(``tpfn``); the segment keeps the reference with the highest ``tp / max(tpfp, tpfn)`` (the
first one on ties, as Python's ``max``), and the corpus score is ``sum(tp) / sum(n_all)``. The
engine computes every (hypothesis, one reference) pair's rows in one parallel call; the choice
and the sums are NLTK's integer and float operations, in NLTK's order, so scores are equal.

Example:
    >>> hyp = "the cat sat on the mat".split()
    >>> corpus_gleu([[hyp, "a cat sat".split()]], [hyp])
    1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import InputError, InvalidOptionError, LengthMismatchError
from rapidbleu.metrics.bleu.tokens import token_statistics

__all__ = ["corpus_gleu"]


def _check(min_len: Any, max_len: Any) -> None:
    for name, v in (("min_len", min_len), ("max_len", max_len)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InvalidOptionError(f"{name} must be an integer >= 1, got {v!r}")


def _rows(batch: Any, pad_id: Any, lengths: Any, what: str) -> Any:
    """``batch`` as a list of sequences when it is a 2-D array or tensor, else as given.

    Rows are cut at ``lengths`` or lose their ``pad_id`` IDs (the rule of
    :func:`rapidbleu.metrics.bleu.tokens.token_statistics`): GLEU pairs every
    hypothesis with each of its references, so rows are taken apart here.
    """
    if getattr(batch, "ndim", 1) != 2:
        return batch
    if pad_id is None and lengths is None:
        raise InputError(
            f"{what} is a 2-D array of token IDs, and nothing says where its rows end: pass "
            "pad_id=ID (every ID equal to it is dropped) or lengths=[...] (row i is "
            "row[:lengths[i]])"
        )
    rows = [list(row) for row in batch.tolist()]
    if lengths is not None:
        if len(lengths) != len(rows):
            raise LengthMismatchError(f"{what} has {len(rows)} rows but {len(lengths)} lengths")
        return [row[: int(n)] for row, n in zip(rows, lengths)]
    return [[t for t in row if t != pad_id] for row in rows]


def corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    min_len: int = 1,
    max_len: int = 4,
    *,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
) -> float:
    """NLTK's ``corpus_gleu`` on token sequences (str tokens or integer IDs).

    Args:
        list_of_references: ``list_of_references[i]`` is the list of references of hypothesis
            ``i`` (each a token sequence).
        hypotheses: One token sequence per segment.
        min_len: The lowest n-gram order.
        max_len: The highest n-gram order.
        pad_id: Token IDs only: the padding ID, dropped from every sequence (a 2-D array of
            IDs, hypotheses or one hypothesis' references, needs it or ``lengths``).
        lengths: Token IDs only: the row lengths of a 2-D ``hypotheses`` array.

    Returns:
        The corpus GLEU (0.0 when no segment has any n-gram).

    Raises:
        rapidbleu.errors.InvalidOptionError: ``min_len`` or ``max_len`` below 1.
        rapidbleu.errors.LengthMismatchError: Hypotheses and reference lists differ in number.

    Example:
        >>> corpus_gleu([[[1, 2, 3]]], [[1, 2, 4]], max_len=2)  # (2 + 1) / max(3 + 2, 3 + 2)
        0.6
    """
    _check(min_len, max_len)
    hypotheses = _rows(hypotheses, pad_id, lengths, "hypotheses")
    list_of_references = [
        _rows(refs, pad_id, None, f"list_of_references[{i}]")
        for i, refs in enumerate(list_of_references)
    ]
    if len(list_of_references) != len(hypotheses):
        raise LengthMismatchError(
            f"{len(hypotheses)} hypotheses but {len(list_of_references)} reference lists"
        )
    # One (hypothesis, single reference) pair per reference: per-reference overlaps.
    pair_hyps: list[Any] = []
    pair_refs: list[list[Any]] = []
    owner: list[int] = []
    for i, (refs, hyp) in enumerate(zip(list_of_references, hypotheses)):
        for ref in refs:
            pair_hyps.append(hyp)
            pair_refs.append([ref])
            owner.append(i)
    if not pair_hyps:
        return 0.0
    rows, _ = token_statistics(
        pair_hyps, pair_refs, max_order=max_len, per_segment=True, pad_id=pad_id
    )
    orders = range(min_len, max_len + 1)
    tp = rows[:, 2 + min_len - 1 : 2 + max_len].sum(axis=1).tolist()
    tpfp = rows[:, 2 + max_len + min_len - 1 :].sum(axis=1).tolist()
    ref_lens = rows[:, 1].tolist()
    corpus_n_match = 0
    corpus_n_all = 0
    best: tuple[int, int] | None = None
    for k, i in enumerate(owner):
        tpfn = sum(max(0, ref_lens[k] - n + 1) for n in orders)
        n_all = max(tpfp[k], tpfn)
        if n_all > 0:
            # max(hyp_counts, key=lambda hc: hc[0] / hc[1]): the first of the highest ratios.
            if best is None or tp[k] / n_all > best[0] / best[1]:
                best = (tp[k], n_all)
        if k + 1 == len(owner) or owner[k + 1] != i:
            if best is not None:
                corpus_n_match += best[0]
                corpus_n_all += best[1]
            best = None
    if corpus_n_all == 0:
        return 0.0
    return corpus_n_match / corpus_n_all
