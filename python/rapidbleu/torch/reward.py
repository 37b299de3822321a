"""BLEU as an RL reward, with the call shapes of TRL's GRPO reward functions and verl's.

- :func:`bleu_reward` makes a TRL reward function: ``GRPOTrainer(reward_funcs=[...])`` calls it
  as ``reward(prompts=..., completions=..., completion_ids=..., **dataset_columns)`` and it
  returns one float per completion. The references come from a dataset column (named by
  ``reference_column``): token IDs (one list of int, or a list of them, per row) are scored
  against ``completion_ids``; text (a str, or a list of str) against ``completions``.
- :func:`compute_score` is verl's ``compute_score(data_source, solution_str, ground_truth,
  extra_info=None)``, and the batched form of its ``BatchRewardManager``
  (``data_sources=``, ``solution_strs=``, ``ground_truths=``, ``extra_infos=``).

Every reward is the sentence score of the dialect (sacreBLEU's ``sentence_bleu`` or NLTK's),
``==`` the CPU engine's, on the ``unit`` scale (0..1; sacreBLEU's score divided by 100) unless
``scale="percent"``. Token IDs are counted on ``device`` (default: CUDA when available,
else the CPU engine); text by the CPU engine (sacreBLEU's tokenizer, or NLTK's dialect on
whitespace-split tokens, as NLTK's examples split).

Example:
    >>> reward = bleu_reward("reference_ids", device="cpu")
    >>> reward(prompts=["p", "p"], completions=["", ""], completion_ids=[[1, 2, 3], [1, 2]],
    ...        reference_ids=[[1, 2, 3], [[4, 5, 6], [1, 2, 5]]])
    [1.0000000000000004, 0.6065306597126336]
    >>> compute_score("wmt", "the cat sat", "the cat sat")
    1.0000000000000004
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from rapidbleu.errors import (
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    MissingColumnError,
    MissingReferenceError,
)
from rapidbleu.torch.bleu import statistics
from rapidbleu.torch.options import Scoring, resolve

__all__ = ["bleu_reward", "compute_score"]

SCALES = ("unit", "percent")
#: The options of :func:`rapidbleu.torch.sentence_bleu` a reward passes on.
OPTIONS = (
    "smoothing",
    "smooth_value",
    "effective_order",
    "max_ngram_order",
    "weights",
    "auto_reweigh",
)


class _Scorer:
    """One dialect's sentence scores of token IDs or text, on one scale."""

    def __init__(
        self, dialect: str, scale: str, tokenize: str, device: Any, options: dict[str, Any]
    ) -> None:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise InvalidOptionError(
                f"unknown option(s) {', '.join(unknown)}; allowed: "
                + ", ".join(("dialect", "scale", "tokenize", "device", *OPTIONS))
            )
        if scale not in SCALES:
            raise InvalidOptionError(f"unknown scale {scale!r}; allowed: " + ", ".join(SCALES))
        self.scoring: Scoring = resolve(dialect, sentence=True, **options)
        self.dialect = dialect
        # sacreBLEU's scores are 0..100, NLTK's 0..1.
        native = "percent" if dialect == "sacrebleu" else "unit"
        self.factor = None if scale == native else (0.01 if scale == "unit" else 100.0)
        self.tokenize = tokenize
        self.device = None if device is None else torch.device(device)

    def _scaled(self, rows: npt.NDArray[np.int64]) -> list[float]:
        scores = self.scoring.sentences(np.ascontiguousarray(rows, dtype=np.int64))
        if self.factor == 0.01:
            scores = scores / 100.0  # as rapidbleu.bleu_per_item: sacreBLEU's score / 100
        elif self.factor is not None:
            scores = scores * 100.0
        return [float(s) for s in scores]

    def ids(self, completion_ids: Sequence[Any], refs: list[list[list[int]]]) -> list[float]:
        hyps = [_id_list(x, f"completion_ids[{i}]") for i, x in enumerate(completion_ids)]
        if not hyps:
            return []
        device = self.device
        if device is None and torch.cuda.is_available():
            device = torch.device("cuda")
        if device is None:
            from rapidbleu.metrics.bleu.tokens import token_statistics

            rows, _ = token_statistics(hyps, refs, max_order=self.scoring.order, per_segment=True)
            return self._scaled(rows)
        h, h_len = _padded(hyps)
        # A segment with fewer references repeats its first: a duplicate reference changes
        # neither the maximum reference counts nor the closest reference length.
        most = max(len(r) for r in refs)
        full = [r + [r[0]] * (most - len(r)) for r in refs]
        r, r_len = _padded([seq for r in full for seq in r])
        on = statistics(
            h.to(device),
            r.view(len(refs), most, -1).to(device),
            lengths=h_len.to(device),
            ref_lengths=r_len.view(len(refs), most).to(device),
            max_ngram_order=self.scoring.order,
        )
        return self._scaled(on.cpu().numpy())

    def texts(self, hyps: Sequence[str], refs: list[list[str]]) -> list[float]:
        if not hyps:
            return []
        if self.dialect == "nltk":
            from rapidbleu.metrics.bleu.tokens import token_statistics

            rows, _ = token_statistics(
                [h.split() for h in hyps],
                [[r.split() for r in rs] for rs in refs],
                max_order=self.scoring.order,
                per_segment=True,
            )
            return self._scaled(rows)
        from rapidbleu.metrics import BLEU

        metric = BLEU(tokenize=self.tokenize, max_ngram_order=self.scoring.order, force=True)
        return self._scaled(metric.statistics(list(hyps), refs, per_segment=True))


def _id_list(seq: Any, what: str) -> list[int]:
    if isinstance(seq, torch.Tensor) and seq.dim() == 1 and not seq.dtype.is_floating_point:
        return [int(x) for x in seq.tolist()]
    if isinstance(seq, (list, tuple)) and all(
        isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in seq
    ):
        return [int(x) for x in seq]
    raise InputTypeError(f"{what} must be a list of int token IDs (or a 1-D integer tensor)")


def _padded(seqs: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Sequences as one ``(n, max_len)`` tensor (zeros after each end) and their lengths."""
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    width = int(lengths.max()) if len(seqs) else 0
    flat = torch.tensor(list(itertools.chain.from_iterable(seqs)), dtype=torch.int64)
    out = torch.zeros(len(seqs), width, dtype=torch.int64)
    mask = torch.arange(width)[None, :] < lengths[:, None]
    out[mask] = flat  # row-major order: each row's tokens in order
    return out, lengths


def _is_text(ref: Any) -> bool:
    return isinstance(ref, str) or (
        isinstance(ref, (list, tuple, np.ndarray)) and len(ref) > 0 and isinstance(ref[0], str)
    )


def _text_refs(ref: Any, what: str) -> list[str]:
    refs = [ref] if isinstance(ref, str) else list(ref)
    if not refs:
        raise MissingReferenceError(f"{what} has no reference")
    if not all(isinstance(r, str) for r in refs):
        raise InputTypeError(f"{what} mixes text with other references")
    return refs


def _id_refs(ref: Any, what: str) -> list[list[int]]:
    if isinstance(ref, torch.Tensor):
        return [_id_list(ref, what)]
    if isinstance(ref, (list, tuple)) and ref and not isinstance(ref[0], (int, np.integer)):
        return [_id_list(r, f"{what}[{j}]") for j, r in enumerate(ref)]
    if isinstance(ref, (list, tuple)) and not ref:
        raise MissingReferenceError(f"{what} has no reference")
    return [_id_list(ref, what)]


def _completion_text(completion: Any, i: int) -> str:
    """A TRL completion: a str, or a conversation whose last message's ``content`` is it."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, (list, tuple)) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        if isinstance(content, str):
            return content
    raise InputTypeError(
        f"completions[{i}] is neither a str nor a list of messages with a str 'content'"
    )


def bleu_reward(
    reference_column: str = "reference_ids",
    *,
    dialect: str = "sacrebleu",
    scale: str = "unit",
    tokenize: str = "13a",
    device: str | torch.device | None = None,
    name: str = "bleu",
    **options: Any,
) -> Callable[..., list[float]]:
    """A TRL GRPO reward function: the sentence BLEU of each completion.

    Args:
        reference_column: The dataset column with each row's reference(s): token IDs (a
            list of int, or a list of them) or text (a str, or a list of them).
        dialect: ``sacrebleu`` (``sacrebleu.sentence_bleu``) or ``nltk``.
        scale: ``unit`` (0..1, the default for rewards) or ``percent`` (0..100).
        tokenize: Text with ``dialect="sacrebleu"``: sacreBLEU's tokenizer.
        device: Where token IDs are counted (default: CUDA when available, else the CPU
            engine). Same numbers everywhere.
        name: The function's ``__name__`` (TRL logs each reward under it).
        **options: :func:`rapidbleu.torch.sentence_bleu`'s scoring options (``smoothing``,
            ``weights``, ...).

    Returns:
        ``reward(prompts=None, completions=None, completion_ids=None, **columns)``, which
        returns one float per completion.

    Raises:
        rapidbleu.errors.InvalidOptionError: An unknown option or value (when made).
        rapidbleu.errors.MissingColumnError: The column is not among the call's keywords.

    Example:
        >>> reward = bleu_reward("answer", dialect="nltk", smoothing="method1")
        >>> reward.__name__, reward(completions=["a b c d"], answer=["a b c e"])
        ('bleu', [0.3976353643835253])
    """
    scorer = _Scorer(dialect, scale, tokenize, device, options)

    def reward(
        prompts: Any = None, completions: Any = None, completion_ids: Any = None, **columns: Any
    ) -> list[float]:
        if reference_column not in columns:
            raise MissingColumnError(
                f"no column {reference_column!r} among the reward's keywords; there are: "
                + ", ".join(sorted(columns))
            )
        refs = list(columns[reference_column])
        if refs and all(_is_text(r) for r in refs):
            hyps = [_completion_text(c, i) for i, c in enumerate(completions or [])]
            _same_length(hyps, refs, "completions")
            texts = [_text_refs(r, f"{reference_column}[{i}]") for i, r in enumerate(refs)]
            return scorer.texts(hyps, texts)
        if completion_ids is None:
            raise InputTypeError(
                "token-ID references need completion_ids (TRL passes them to reward functions)"
            )
        ids = list(completion_ids)
        _same_length(ids, refs, "completion_ids")
        return scorer.ids(
            ids, [_id_refs(r, f"{reference_column}[{i}]") for i, r in enumerate(refs)]
        )

    reward.__name__ = reward.__qualname__ = name
    return reward


def _same_length(hyps: Sequence[Any], refs: Sequence[Any], what: str) -> None:
    if len(hyps) != len(refs):
        raise LengthMismatchError(f"{what} has {len(hyps)} entries but the references {len(refs)}")


def compute_score(
    data_source: Any = None,
    solution_str: str | None = None,
    ground_truth: Any = None,
    extra_info: Any = None,
    *,
    data_sources: Any = None,
    solution_strs: Sequence[str] | None = None,
    ground_truths: Any = None,
    extra_infos: Any = None,
    dialect: str = "sacrebleu",
    scale: str = "unit",
    tokenize: str = "13a",
    **options: Any,
) -> float | list[float]:
    """The ``compute_score`` of verl: the sentence BLEU of a response against its ground truth.

    Called as verl's reward managers call a custom reward function: one response
    (``data_source, solution_str, ground_truth, extra_info``) returns a float; the batched
    keywords (``data_sources=, solution_strs=, ground_truths=, extra_infos=``) return a list.
    ``ground_truth`` is the reference text, or a list of references. ``data_source`` and
    ``extra_info`` are not used. Options (verl's ``reward_kwargs``): ``dialect``, ``scale``,
    ``tokenize`` and :func:`rapidbleu.torch.sentence_bleu`'s scoring options.

    Returns:
        The score (``unit`` scale, 0..1, by default), or one per response.

    Raises:
        rapidbleu.errors.InputTypeError: A response that is not a str.
        rapidbleu.errors.LengthMismatchError: Batched lists of different lengths.

    Example:
        >>> compute_score(solution_strs=["a b c d", "a b"], ground_truths=["a b c d", ["a b"]],
        ...               data_sources=["x", "x"], extra_infos=[None, None])
        [1.0000000000000004, 1.0000000000000004]
    """
    del data_source, extra_info, data_sources, extra_infos  # routing data, not scored
    scorer = _Scorer(dialect, scale, tokenize, None, options)
    given: list[Any]
    if solution_strs is not None:
        given, truths = (
            list(solution_strs),
            list(ground_truths if ground_truths is not None else []),
        )
        _same_length(given, truths, "solution_strs")
    else:
        given, truths = [solution_str], [ground_truth]
    hyps: list[str] = []
    for i, h in enumerate(given):
        if not isinstance(h, str):
            raise InputTypeError(f"solution_str {i} is {type(h).__name__}; expected str")
        hyps.append(h)
    refs = [_text_refs(t, f"ground_truth {i}") for i, t in enumerate(truths)]
    scores = scorer.texts(hyps, refs)
    return scores if solution_strs is not None else scores[0]
