"""BLEU of token-ID tensors where they live (CPU or GPU), ``==`` the CPU engine's (extra torch).

For RL fine-tuning and in-training evaluation: thousands of sampled sequences per step, as
``(B, L)`` token-ID tensors on the GPU, scored against ``(B, R, L)`` (or ``(B, L)``)
references without leaving the device until the tiny statistics rows are scored.

- :func:`sentence_bleu` and :func:`corpus_bleu`: ``dialect="sacrebleu"`` (``sacrebleu``'s
  functions on the IDs as text with ``tokenize="none"``, 0..100) or ``dialect="nltk"``
  (NLTK's, 0..1), with their smoothing options; :func:`statistics`: the integer rows.
- :func:`bleu_reward` (TRL's GRPO reward functions) and :func:`compute_score` (verl's).

**Exact.** N-grams are counted in integers on the device without hashing (dense codes from
sorts: :mod:`rapidbleu.torch.ngrams`), and the ``(B, 2 + 2N)`` rows are scored on the CPU by
the code that scores the CPU engine's rows, so every score ``==`` the CPU engine's (and so
sacreBLEU's and NLTK's). Memory grows with the number of token positions, never with rows x
distinct n-grams; ``chunk_tokens=`` caps it (same numbers).

``import rapidbleu`` never imports this package (nor torch).

Example:
    >>> import torch
    >>> from rapidbleu.torch import sentence_bleu
    >>> h = torch.tensor([[3, 4, 5, 6, 0], [7, 8, 9, 0, 0]])
    >>> r = torch.tensor([[[3, 4, 5, 6, 0]], [[7, 8, 9, 10, 0]]])
    >>> sentence_bleu(h, r, pad_id=0, smoothing="method1", dialect="nltk")
    tensor([1.0000, 0.4029], dtype=torch.float64)
"""

from __future__ import annotations

try:
    import torch as _torch  # noqa: F401 (a clear error below when the extra is missing)
except ImportError as e:  # pragma: no cover - depends on the environment
    from rapidbleu.errors import MissingDependencyError
    from rapidbleu.extras import install_hint

    raise MissingDependencyError(f"rapidbleu.torch needs PyTorch: {install_hint('torch')}") from e

from rapidbleu.torch.bleu import corpus_bleu, sentence_bleu, statistics
from rapidbleu.torch.reward import bleu_reward, compute_score

__all__ = ["bleu_reward", "compute_score", "corpus_bleu", "sentence_bleu", "statistics"]
