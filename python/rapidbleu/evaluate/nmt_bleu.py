"""Hugging Face ``evaluate``'s ``"bleu"`` metric: TensorFlow NMT's ``compute_bleu``.

evaluate's ``metrics/bleu/`` vendors TensorFlow NMT's ``nmt_bleu.py``; this module is its
counterpart: :func:`compute` is ``evaluate.load("bleu").compute`` (the ``bleu`` entry of
:data:`rapidbleu.evaluate.metrics.METRICS`), :func:`compute_bleu` is ``nmt_bleu.compute_bleu``,
and :func:`corpus_score` gives the same number as a BLEU dialect's
:class:`~rapidbleu.dialects.result.BleuResult` (``docs/dialects.md``).

Much LLM evaluation code reports this number. It differs from sacreBLEU and NLTK in three
ways: the reference length of a segment is its *shortest* reference (not the closest),
``smooth=True`` adds one to numerator and denominator of *every* order (unigrams included),
and there is no smoothing otherwise (any zero precision gives 0). ``max_order`` sets the
order, weights are uniform. Text is tokenised with sacreBLEU's ``13a`` by default, as
``evaluate`` does; ``tokenizer`` may be any callable ``str -> list of tokens``, a Hugging Face
``tokenizers.Tokenizer``, a local ``tokenizer.json`` path or a ``tiktoken.Encoding``; token
sequences and IDs are taken as they are.

``evaluate`` downloads the metric's code when loaded, so this module is checked against its
documented examples and a plain Python transcription of the formula in the tests.

Example:
    >>> predictions = ["hello there general kenobi", "foo bar foobar"]
    >>> references = [["hello there general kenobi", "hello there !"], ["foo bar foobar"]]
    >>> compute(predictions=predictions, references=references)["length_ratio"]
    1.1666666666666667
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import rapidbleu._config as _config
import rapidbleu._core as _core
from rapidbleu.dialects.result import BleuResult, DialectSignature
from rapidbleu.errors import EmptyInputError, InputTypeError, InvalidOptionError
from rapidbleu.io.tokens import TokenLayout, encode, is_pretokenized
from rapidbleu.metrics.bleu.tokens import token_statistics

__all__ = ["compute", "compute_bleu", "corpus_score"]


def _tokenize_13a(line: str) -> list[str]:
    return _core.tokenize("13a", line).split()


def _tokenize(texts: Any, tokenizer: Any, what: str) -> Any:
    if is_pretokenized(texts):
        return texts
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise InputTypeError(f"{what} must be a list of str or of token sequences")
    if tokenizer is None:
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise InputTypeError(f"{what}[{i}] is {type(t).__name__}; expected str")
        return [_tokenize_13a(t) for t in texts]
    return encode(texts, tokenizer)


def _check_order(max_order: Any) -> int:
    order = _config.integer(max_order)
    if order is None or order < 1:
        raise InvalidOptionError(f"max_order must be a positive integer, got {max_order!r}")
    return order


def _from_rows(
    rows: npt.NDArray[np.int64], max_order: int, smooth: bool
) -> tuple[float, list[float], float, float, int, int, list[int], list[int]]:
    """TF-NMT's ``compute_bleu`` tail from statistics rows (shortest reference lengths)."""
    matches_by_order = [int(x) for x in rows[:, 2 : 2 + max_order].sum(axis=0)]
    # Totals are max(0, len - n + 1): "if possible_matches > 0" in compute_bleu.
    possible_matches_by_order = [int(x) for x in rows[:, 2 + max_order :].sum(axis=0)]
    translation_length, reference_length = int(rows[:, 0].sum()), int(rows[:, 1].sum())
    precisions = [0.0] * max_order
    for i in range(0, max_order):
        if smooth:
            precisions[i] = (matches_by_order[i] + 1.0) / (possible_matches_by_order[i] + 1.0)
        elif possible_matches_by_order[i] > 0:
            precisions[i] = float(matches_by_order[i]) / possible_matches_by_order[i]
        else:
            precisions[i] = 0.0
    if min(precisions) > 0:
        p_log_sum = sum((1.0 / max_order) * math.log(p) for p in precisions)
        geo_mean = math.exp(p_log_sum)
    else:
        geo_mean = 0
    if reference_length == 0 or translation_length == 0:
        ratio = 0.0
        bp = 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    bleu = geo_mean * bp
    return (
        bleu,
        precisions,
        bp,
        ratio,
        translation_length,
        reference_length,
        matches_by_order,
        possible_matches_by_order,
    )


def compute_bleu(
    reference_corpus: Any,
    translation_corpus: Any,
    max_order: int = 4,
    smooth: bool = False,
    *,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
) -> tuple[float, list[float], float, float, int, int]:
    """TF-NMT's ``compute_bleu`` on token sequences (str tokens or IDs).

    Args:
        reference_corpus: Per translation, its references (token sequences, or a 2-D array).
        translation_corpus: One token sequence per translation, or a 2-D array of IDs.
        max_order: Highest n-gram order.
        smooth: Add one to numerator and denominator of every order.
        pad_id: Token IDs only (rapidbleu's option): the padding ID, dropped from every
            sequence; a 2-D array needs it or its lengths.
        lengths: Token IDs only: the row lengths of a 2-D ``translation_corpus`` array.
        ref_lengths: Token IDs only: per translation, the row lengths of its 2-D references
            array (or ``None``).

    Returns:
        ``(bleu, precisions, bp, ratio, translation_length, reference_length)``.

    Example:
        >>> compute_bleu([[[1, 2, 3]]], [[1, 2, 3]], max_order=2)
        (1.0, [1.0, 1.0], 1.0, 1.0, 3, 3)
    """
    max_order = _check_order(max_order)
    rows, _ = token_statistics(
        translation_corpus,
        reference_corpus,
        max_order=max_order,
        ref_len_rule="shortest",
        per_segment=True,
        pad_id=pad_id,
        lengths=lengths,
        ref_lengths=ref_lengths,
    )
    return _from_rows(rows, max_order, bool(smooth))[:6]


def _inputs(predictions: Any, references: Any, tokenizer: Any) -> tuple[Any, Any]:
    for what, seq in (("predictions", predictions), ("references", references)):
        if isinstance(seq, (str, bytes)) or not (isinstance(seq, Sequence) or is_pretokenized(seq)):
            raise InputTypeError(
                f"{what} must be a list (one entry per example), not {type(seq).__name__}"
            )
    if len(predictions) == 0:
        raise EmptyInputError("predictions is empty")
    # evaluate: "if only one reference is provided make sure we still use list of lists".
    if len(references) and isinstance(references[0], str):
        references = [[ref] for ref in references]
    refs = [_tokenize(r, tokenizer, f"references[{i}]") for i, r in enumerate(references)]
    return _tokenize(predictions, tokenizer, "predictions"), refs


def _rows(preds: Any, refs: Any, max_order: int, layout: TokenLayout) -> npt.NDArray[np.int64]:
    rows, _ = token_statistics(
        preds,
        refs,
        max_order=max_order,
        ref_len_rule="shortest",
        per_segment=True,
        **layout.kwargs(),
    )
    return rows


def compute(
    predictions: Any,
    references: Any,
    tokenizer: Callable[[str], Any] | Any = None,
    max_order: int = 4,
    smooth: bool = False,
    *,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
) -> dict[str, Any]:
    """``evaluate.load("bleu").compute(...)``: the same keys and values.

    Args:
        predictions: One str (or token sequence) per example.
        references: One list of references (or a single str) per example.
        tokenizer: ``None`` (sacreBLEU's 13a, evaluate's default), a callable, a
            ``tokenizers.Tokenizer``, a ``tokenizer.json`` path or a ``tiktoken.Encoding``.
        max_order: Highest n-gram order.
        smooth: Add one to numerator and denominator of every order.
        pad_id: Token IDs only (rapidbleu's option): the padding ID, dropped from every
            sequence; a 2-D array of IDs needs it or its lengths.
        lengths: Token IDs only: the row lengths of a 2-D ``predictions`` array.
        ref_lengths: Token IDs only: per prediction, the row lengths of its 2-D references
            array (or ``None``).

    Returns:
        ``{"bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length",
        "reference_length"}``.

    Example:
        >>> compute(["foo bar foobar baz"], ["foo bar foobar baz"])["bleu"]
        1.0
    """
    max_order = _check_order(max_order)
    preds, refs = _inputs(predictions, references, tokenizer)
    rows = _rows(preds, refs, max_order, TokenLayout(pad_id, lengths, ref_lengths))
    bleu, precisions, bp, ratio, tl, rl, _, _ = _from_rows(rows, max_order, bool(smooth))
    return {
        "bleu": bleu,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": tl,
        "reference_length": rl,
    }


def corpus_score(
    predictions: Any,
    references: Any,
    tokenizer: Callable[[str], Any] | Any = None,
    max_order: int = 4,
    smooth: bool = False,
    *,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
) -> BleuResult:
    """:func:`compute` as rapidbleu's :class:`~rapidbleu.BleuResult` (same arguments).

    Example:
        >>> corpus_score(["a b c"], [["a b c"]], max_order=2).signature
        'BLEU|dialect:hf-evaluate|max_order:2|smooth:no|tok:13a|ref:shortest'
    """
    max_order = _check_order(max_order)
    preds, refs = _inputs(predictions, references, tokenizer)
    rows = _rows(preds, refs, max_order, TokenLayout(pad_id, lengths, ref_lengths))
    bleu, precisions, bp, _, tl, rl, m, p = _from_rows(rows, max_order, bool(smooth))
    tok = "13a" if tokenizer is None else type(tokenizer).__name__
    if is_pretokenized(predictions):
        tok = "pretokenized"
    return BleuResult(
        score=bleu,
        precisions=tuple(precisions),
        brevity_penalty=bp,
        hyp_len=tl,
        ref_len=rl,
        counts=tuple(m),
        totals=tuple(p),
        signature=str(
            DialectSignature(
                "hf-evaluate",
                max_order=max_order,
                smooth="yes" if smooth else "no",
                tok=tok,
                ref="shortest",
            )
        ),
        scale="unit",
    )
