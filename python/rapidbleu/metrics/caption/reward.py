"""CIDEr-D as a reward (self-critical sequence training), frequencies counted once.

Document frequencies are counted once from a training corpus, reused for every batch, in the
call shapes of rapidbleu's other reward helpers (TRL's reward functions and verl's
``compute_score``).

A sample's reward is pycocoevalcap 1.2's CIDEr-D of its caption against its references, with
the corpus's document frequencies and ``ref_len`` the log of the corpus's image count
(``ref_len="corpus"``, as self-critical training computes it) or of the batch's
(``ref_len="batch"``: ``CiderScorer.compute_cider`` unchanged). Captions are text (split by
``str.split()``) or token IDs (lists of int, 1-D NumPy arrays or CPU tensors, or one padded
2-D array or tensor; ``pad_id`` is dropped wherever it occurs, as rapidbleu's other token
inputs drop it). The frequencies' kind (text or IDs) is the kind of the batches.

Example:
    >>> corpus = [["a cat sits on the mat", "a cat on a mat"], ["a dog runs", "the dog runs"]]
    >>> cider = CiderDReward(corpus)
    >>> [round(s, 6) for s in cider.scores(["a cat on the mat", "a dog"], corpus)]
    [4.542094, 2.615077]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rapidbleu import _core
from rapidbleu.errors import (
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    MissingColumnError,
    MissingReferenceError,
)
from rapidbleu.metrics.caption.inputs import log_table, threads

__all__ = ["CiderDReward", "cider_reward"]

REF_LENS = ("corpus", "batch")


def _ids(seq: Any, pad_id: int | None, what: str) -> list[int]:
    """One caption's token IDs as a list of int (``pad_id`` dropped)."""
    if hasattr(seq, "detach") and hasattr(seq, "tolist"):  # a torch tensor, without torch
        if getattr(seq, "device", None) is not None and str(seq.device) != "cpu":
            raise InputTypeError(f"{what} is a tensor on {seq.device}; give CPU tensors")
        seq = seq.tolist()
    elif isinstance(seq, np.ndarray):
        if seq.ndim != 1 or seq.dtype.kind not in "iu":
            raise InputTypeError(f"{what} must be a 1-D integer array, not {seq.dtype} {seq.shape}")
        seq = seq.tolist()
    if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
        raise InputTypeError(f"{what} must be token IDs (a list of int), not {type(seq).__name__}")
    out = []
    for t in seq:
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < 2**32:
            raise InputTypeError(f"{what} holds {t!r}; token IDs are ints from 0 to 2**32 - 1")
        if t != pad_id:
            out.append(int(t))
    return out


def _batch_ids(batch: Any, pad_id: int | None, what: str) -> list[list[int]]:
    """Captions of token IDs: a sequence of ID lists, or a padded 2-D array or tensor."""
    if hasattr(batch, "detach") or isinstance(batch, np.ndarray):
        if len(batch.shape) != 2:
            raise InputTypeError(f"{what} must be a 2-D batch (rows of token IDs)")
    return [_ids(row, pad_id, f"{what}[{i}]") for i, row in enumerate(batch)]


def _is_text(captions: Sequence[Any]) -> bool:
    return any(isinstance(c, str) for c in captions)


class CiderDReward:
    """CIDEr-D of batches against document frequencies counted once from a training corpus.

    Args:
        corpus: Per training image, its reference captions (text, or token IDs).
        n: Orders averaged (4, as pycocoevalcap's ``Cider()``).
        sigma: The length penalty's standard deviation (6.0).
        ref_len: ``"corpus"`` (the log of the corpus's image count) or ``"batch"``.
        pad_id: A padding ID dropped from token-ID captions (``None``: none).

    Raises:
        rapidbleu.errors.InvalidOptionError: A bad ``n``, ``sigma`` or ``ref_len``.
        rapidbleu.errors.MissingReferenceError: A training image without references.

    Example:
        >>> reward = CiderDReward([[[1, 2, 3], [1, 2]], [[4, 5]]], pad_id=0)
        >>> reward.images, reward.is_ids
        (2, True)
    """

    def __init__(
        self,
        corpus: Sequence[Sequence[Any]],
        *,
        n: int = 4,
        sigma: float = 6.0,
        ref_len: str = "corpus",
        pad_id: int | None = None,
    ) -> None:
        if ref_len not in REF_LENS:
            raise InvalidOptionError(f"unknown ref_len {ref_len!r}; allowed: corpus, batch")
        self.options = _core.CiderDOptions(n, sigma)
        self.ref_len = ref_len
        self.pad_id = pad_id
        groups = [list(g) if not isinstance(g, str) else [g] for g in corpus]
        for i, g in enumerate(groups):
            if not g:
                raise MissingReferenceError(f"training image {i} has no reference caption")
        if any(_is_text(g) for g in groups):
            self._df = _core.CiderDocumentFrequency.from_texts(groups)
        else:
            self._df = _core.CiderDocumentFrequency.from_ids(
                [_batch_ids(g, pad_id, f"corpus[{i}]") for i, g in enumerate(groups)]
            )

    @property
    def images(self) -> int:
        """The number of training images the frequencies were counted over."""
        return self._df.images

    @property
    def is_ids(self) -> bool:
        """Whether the frequencies were counted over token IDs."""
        return self._df.is_ids

    def scores(
        self, hyps: Sequence[Any], refs: Sequence[Sequence[Any]], num_threads: int | None = None
    ) -> list[float]:
        """Every sample's CIDEr-D: ``hyps[i]`` against ``refs[i]`` (a list of captions).

        Args:
            hyps: The batch's captions (text, or token IDs: lists, arrays, CPU tensors, or a
                padded 2-D array or tensor).
            refs: Per sample, its references (of the same kind; one caption alone is allowed).
            num_threads: Core threads (``None``: ``$RAPIDBLEU_NUM_THREADS`` or all cores).

        Returns:
            One float per sample.

        Raises:
            rapidbleu.errors.LengthMismatchError: ``hyps`` and ``refs`` differ in length.
            rapidbleu.errors.InputError: Captions of another kind than the frequencies'.

        Example:
            >>> CiderDReward([["a b", "a c"], ["a b"]]).scores(["a b"], [["a b", "a c"]])
            [0.0]
        """
        from rapidbleu import _config

        t = threads() if num_threads is None else _config.num_threads(num_threads)
        groups = [[r] if isinstance(r, str) else list(r) for r in refs]
        if len(hyps) != len(groups):
            raise LengthMismatchError(
                f"{len(hyps)} hypotheses but {len(groups)} lists of references"
            )
        if not len(hyps):
            return []
        count = self._df.images if self.ref_len == "corpus" else len(groups)
        logs = log_table(max(count, self._df.max_count))
        if self._df.is_ids:
            h = _batch_ids(hyps, self.pad_id, "hypotheses")
            r = [_batch_ids(g, self.pad_id, f"references[{i}]") for i, g in enumerate(groups)]
            out = self._df.id_scores(self.options, h, r, logs, self.ref_len, t)
        else:
            if not all(isinstance(h, str) for h in hyps):
                raise InputTypeError(
                    "the frequencies were counted over text, so captions must be str"
                )
            out = self._df.scores(self.options, list(hyps), groups, logs, self.ref_len, t)
        return [float(s) for s in out]

    def reward(
        self, reference_column: str = "references", *, name: str = "cider"
    ) -> Callable[..., list[float]]:
        """A TRL reward function of this CIDEr-D (see :func:`cider_reward`).

        Example:
            >>> f = CiderDReward([["a b", "a c"], ["a b"]]).reward("refs")
            >>> f(completions=["a b"], refs=[["a b", "a c"]])
            [0.0]
        """
        return cider_reward(self, reference_column, name=name)

    def compute_score(
        self,
        data_source: Any = None,
        solution_str: str | None = None,
        ground_truth: Any = None,
        extra_info: Any = None,
        *,
        data_sources: Any = None,
        solution_strs: Sequence[str] | None = None,
        ground_truths: Any = None,
        extra_infos: Any = None,
    ) -> float | list[float]:
        """The ``compute_score`` of verl: a response's CIDEr-D, or (plural keywords) a batch's.

        Example:
            >>> r = CiderDReward([["a b", "a c"], ["a b"]])
            >>> r.compute_score("coco", "a b", ["a b", "a c"])
            0.0
        """
        del data_source, extra_info, data_sources, extra_infos  # routing data, not scored
        if solution_strs is not None:
            truths = list(ground_truths if ground_truths is not None else [])
            return self.scores(list(solution_strs), truths)
        return self.scores([solution_str], [ground_truth])[0]


def cider_reward(
    scorer: CiderDReward, reference_column: str = "references", *, name: str = "cider"
) -> Callable[..., list[float]]:
    """A TRL GRPO reward function: each completion's CIDEr-D under ``scorer``'s frequencies.

    TRL calls it as ``reward(prompts=..., completions=..., completion_ids=..., **columns)``;
    text references are scored against ``completions``, token-ID references against
    ``completion_ids``.

    Args:
        scorer: The frequencies (:class:`CiderDReward`).
        reference_column: The dataset column with each row's references.
        name: The function's ``__name__`` (TRL logs each reward under it).

    Returns:
        ``reward(prompts=None, completions=None, completion_ids=None, **columns)``.

    Example:
        >>> f = cider_reward(CiderDReward([[[1, 2], [1, 3]], [[1, 2]]]), "refs")
        >>> f(completion_ids=[[1, 2]], refs=[[[1, 2], [1, 3]]])
        [0.0]
    """

    def reward(
        prompts: Any = None, completions: Any = None, completion_ids: Any = None, **columns: Any
    ) -> list[float]:
        del prompts
        if reference_column not in columns:
            raise MissingColumnError(
                f"no column {reference_column!r} among the reward's keywords; there are: "
                + ", ".join(sorted(columns))
            )
        refs = list(columns[reference_column])
        if scorer.is_ids:
            if completion_ids is None:
                raise InputTypeError("token-ID frequencies need completion_ids")
            return scorer.scores(completion_ids, refs)
        texts = []
        for i, c in enumerate(completions or []):
            if isinstance(c, (list, tuple)) and c and isinstance(c[-1], dict):
                c = c[-1].get("content")
            if not isinstance(c, str):
                raise InputTypeError(f"completions[{i}] is neither a str nor a conversation")
            texts.append(c)
        return scorer.scores(texts, refs)

    reward.__name__ = reward.__qualname__ = name
    return reward
