"""evaluate's machine-translation metrics as functions: the same options, keys and values.

One function per ``evaluate.load(name)``: :func:`sacrebleu`, :func:`google_bleu`, :func:`chrf`,
:func:`ter`, :func:`rouge`, and for ``bleu`` :func:`rapidbleu.evaluate.nmt_bleu.compute`. Each
copies the ``_compute`` of evaluate's metric script (``metrics/<name>/<name>.py`` in
huggingface/evaluate): the same reference handling (one str per prediction becomes a list of
one; every prediction must have as many references, except for ROUGE) and the same output
dict, computed by rapidbleu instead of sacreBLEU, NLTK or rouge-score. Adding a metric is one
function (here or in its package), one loading script in ``scripts/`` and its name in the
metric's declaration (:mod:`rapidbleu.metrics.declarations`), which :data:`METRICS` reads.

Example:
    >>> sacrebleu(["hello there general kenobi"], [["hello there general kenobi"]])["score"]
    100.00000000000004
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import rapidbleu._core as _core
from rapidbleu.errors import EmptyInputError, InputError, InputTypeError, InvalidOptionError
from rapidbleu.evaluate.gleu import corpus_gleu
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.metrics.chrf import CHRF
from rapidbleu.metrics.declarations import evaluate_functions, resolve
from rapidbleu.metrics.rouge import ROUGE
from rapidbleu.metrics.rouge.metric import DEFAULT_TYPES
from rapidbleu.metrics.ter import TER
from rapidbleu.sacrebleu.functions import corpus_bleu

__all__ = ["METRICS", "chrf", "google_bleu", "rouge", "sacrebleu", "ter"]


def _reference_lists(predictions: Any, references: Any) -> list[Any]:
    """Evaluate's "if only one reference is provided make sure we still use list of lists"."""
    if isinstance(predictions, str) or not isinstance(predictions, Sequence):
        raise InputTypeError("predictions must be a list (one prediction per example)")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputTypeError("references must be a list (one list of references per example)")
    if len(predictions) == 0 or len(references) == 0:
        raise EmptyInputError("predictions and references must not be empty")
    if isinstance(references[0], str):
        return [[ref] for ref in references]
    return list(references)


def _streams(predictions: Any, references: Any, metric: str) -> list[list[Any]]:
    """Evaluate's transposition into sacreBLEU's reference streams (equal counts required)."""
    references = _reference_lists(predictions, references)
    per_prediction = len(references[0])
    if any(len(refs) != per_prediction for refs in references):
        raise InputError(f"{metric} requires the same number of references for each prediction")
    return [[refs[i] for refs in references] for i in range(per_prediction)]


def sacrebleu(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]] | Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str | None = None,
    use_effective_order: bool = False,
) -> dict[str, Any]:
    """``evaluate.load("sacrebleu").compute(...)``.

    Returns:
        ``{"score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"}``.

    Example:
        >>> r = sacrebleu(["hello there general kenobi", "on our way to ankh morpork"],
        ...               [["hello there general kenobi", "hello there !"],
        ...                ["goodbye ankh morpork", "ankh morpork"]])
        >>> list(r), round(r["score"], 1)
        (['score', 'counts', 'totals', 'precisions', 'bp', 'sys_len', 'ref_len'], 39.8)
    """
    streams = _streams(predictions, references, "Sacrebleu")
    output = corpus_bleu(
        predictions,
        streams,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        use_effective_order=use_effective_order,
        tokenize=tokenize or BLEU.TOKENIZER_DEFAULT,
    )
    return {
        "score": output.score,
        "counts": output.counts,
        "totals": output.totals,
        "precisions": output.precisions,
        "bp": output.bp,
        "sys_len": output.sys_len,
        "ref_len": output.ref_len,
    }


def _tokenize_13a(line: str) -> list[str]:
    # evaluate's google_bleu tokenizer_13a.py: sacreBLEU's 13a, returned as a token list.
    return _core.tokenize("13a", line).split()


def google_bleu(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]] | Sequence[str],
    tokenizer: Callable[[str], Sequence[Any]] | None = None,
    min_len: int = 1,
    max_len: int = 4,
) -> dict[str, float]:
    """``evaluate.load("google_bleu").compute(...)``: NLTK's ``corpus_gleu`` on 13a tokens.

    Args:
        predictions: One str per example.
        references: One list of references (or one str) per example.
        tokenizer: A callable ``str -> list of tokens`` (default: 13a, as evaluate).
        min_len: The lowest n-gram order.
        max_len: The highest n-gram order.

    Returns:
        ``{"google_bleu": score}``.

    Example:
        >>> r = google_bleu(["he read the book because he was interested in world history"],
        ...                 [["he was interested in world history because he read the book"]])
        >>> round(r["google_bleu"], 2)
        0.79
    """
    refs = _reference_lists(predictions, references)
    tok = _tokenize_13a if tokenizer is None else tokenizer
    if not callable(tok):
        raise InvalidOptionError(f"tokenizer must be a callable str -> tokens, got {tok!r}")
    for i, p in enumerate(predictions):
        if not isinstance(p, str):
            raise InputTypeError(f"predictions[{i}] is {type(p).__name__}; expected str")
    token_refs = [[tok(r) for r in ref] for ref in refs]
    token_preds = [tok(p) for p in predictions]
    return {"google_bleu": corpus_gleu(token_refs, token_preds, min_len=min_len, max_len=max_len)}


def chrf(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]] | Sequence[str],
    char_order: int | None = None,
    word_order: int | None = None,
    beta: int | None = None,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> dict[str, Any]:
    """``evaluate.load("chrf").compute(...)`` (``word_order=2`` is chrF++).

    Returns:
        ``{"score", "char_order", "word_order", "beta"}``.
    """
    streams = _streams(predictions, references, "ChrF, as implemented by sacrebleu,")
    metric = CHRF(
        CHRF.CHAR_ORDER if char_order is None else char_order,
        CHRF.WORD_ORDER if word_order is None else word_order,
        CHRF.BETA if beta is None else beta,
        lowercase,
        whitespace,
        eps_smoothing,
    )
    output = metric.corpus_score(predictions, streams)
    return {
        "score": output.score,
        "char_order": output.char_order,
        "word_order": output.word_order,
        "beta": output.beta,
    }


def ter(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]] | Sequence[str],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> dict[str, Any]:
    """``evaluate.load("ter").compute(...)``.

    Returns:
        ``{"score", "num_edits", "ref_length"}``.
    """
    streams = _streams(predictions, references, "Sacrebleu")
    metric = TER(
        normalized=normalized,
        no_punct=ignore_punct,
        asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    )
    output = metric.corpus_score(predictions, streams)
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


class _Tokenizer:
    """evaluate's ``Tokenizer``: a callable as an object with ``tokenize``, as rouge-score takes."""

    def __init__(self, tokenizer_func: Callable[[str], Any]) -> None:
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text: str) -> Any:
        return self.tokenizer_func(text)


def rouge(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]] | Sequence[str],
    rouge_types: Sequence[str] | None = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Callable[[str], Any] | str | None = None,
    dialect: str = "rouge-score",
    lang: str | None = None,
) -> dict[str, Any]:
    """``evaluate.load("rouge").compute(...)``: rouge-score's scores, aggregated or per item.

    With ``use_aggregator``, each type's ``mid`` F-measure of rouge-score's
    ``BootstrapAggregator()`` (1,000 resamples drawn from NumPy's global ``np.random``, as
    evaluate's are: seed it for the same number); otherwise each type's list of F-measures.
    A list of references per prediction is ``score_multi`` (the best one per type).
    Beyond evaluate's options, rapidbleu's: ``tokenizer="unicode"`` (its tokenizer for any
    script), ``dialect="pltrdy"``, ``"chinese"`` or ``"xlsum"`` and XL-Sum's ``lang``
    (:mod:`rapidbleu.evaluate.rouge_dialects`).

    Returns:
        Rouge type -> F-measure (``np.float64``), or a list of them.

    Example:
        >>> rouge(["hello there", "general kenobi"], ["hello there", "general kenobi"],
        ...       use_aggregator=False)
        {'rouge1': [1.0, 1.0], 'rouge2': [1.0, 1.0], 'rougeL': [1.0, 1.0], 'rougeLsum': [1.0, 1.0]}
    """
    if isinstance(predictions, str) or not isinstance(predictions, Sequence):
        raise InputTypeError("predictions must be a list (one prediction per example)")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputTypeError("references must be a list (one reference or list per example)")
    if len(predictions) == 0 or len(references) == 0:
        raise EmptyInputError("predictions and references must not be empty")
    if dialect != "rouge-score" or lang is not None:
        from rapidbleu.evaluate.rouge_dialects import dialect_rouge

        return dialect_rouge(
            predictions, references, rouge_types, use_aggregator, use_stemmer, tokenizer,
            dialect, lang,
        )  # fmt: skip
    # evaluate's script: `multi_ref = isinstance(references[0], list)`, then score_multi.
    refs: list[list[Any]]
    if isinstance(references[0], list):
        refs = [list(r) for r in references]
    else:
        refs = [[r] for r in references]
    metric = ROUGE(
        DEFAULT_TYPES if rouge_types is None else rouge_types,
        use_stemmer=use_stemmer,
        # "unicode": rapidbleu's own tokenizer (ROUGE's option of that name).
        tokenizer=tokenizer
        if tokenizer is None or isinstance(tokenizer, str)
        else _Tokenizer(tokenizer),
    )
    if not use_aggregator:  # rouge-score's own values: int 0 for an empty rougeL side
        return metric.fmeasure_lists(list(predictions), refs, per_segment=True)
    arrays = metric.score_arrays(list(predictions), refs, per_segment=True)
    from rapidbleu.metrics.rouge.scoring import BootstrapAggregator

    aggregator = BootstrapAggregator()
    aggregator.add_arrays(arrays)
    return {t: s.mid.fmeasure for t, s in aggregator.aggregate().items()}


#: ``evaluate.load`` name -> its function, as the metrics declare them
#: (:func:`rapidbleu.metrics.declarations.evaluate_functions`). Resolved at the end of this
#: module, whose own functions are defined by then.
METRICS: dict[str, Callable[..., dict[str, Any]]] = {
    name: resolve(path) for name, path in evaluate_functions().items()
}
