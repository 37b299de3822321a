"""evaluate's ``meteor`` (``metrics/meteor/meteor.py``), computed by rapidbleu.

NLTK's ``word_tokenize`` and ``meteor_score``, then ``np.mean`` of the sentence scores.

Example:
    >>> from rapidbleu.errors import MissingDependencyError
    >>> from rapidbleu.evaluate.meteor import meteor
    >>> try:
    ...     r = meteor(["the cat sat"], ["the cat sat"])["meteor"]
    ... except MissingDependencyError:  # no WordNet or punkt_tab: rapidbleu never downloads
    ...     r = None
    >>> r is None or round(float(r), 4) == 0.9815
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["meteor"]


def meteor(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]] | Sequence[str],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> dict[str, Any]:
    """``evaluate.load("meteor").compute(...)``.

    As evaluate's ``_compute`` (NLTK >= 3.6.5): one list of references per prediction
    (``isinstance(references[0], list)``) is ``meteor_score`` on ``word_tokenize`` tokens, else
    ``single_meteor_score`` against the one reference; pairs are taken with ``zip`` (the
    shorter side decides); the value is ``np.mean`` of the scores (``np.float64``).

    Returns:
        ``{"meteor": mean}``.

    Raises:
        rapidbleu.errors.MissingDependencyError: NLTK's ``punkt_tab`` data or WordNet is not
            found (evaluate's script downloads them; rapidbleu never downloads).
    """
    import numpy as np

    from rapidbleu.metrics.meteor.metric import METEOR
    from rapidbleu.metrics.meteor.tokenize import word_tokenizer

    tok = word_tokenizer()
    metric = METEOR(alpha, beta, gamma, wordnet=True)
    pairs = list(zip(references, predictions))
    multiple_refs = isinstance(references[0], list)
    hyps = [tok(pred) for _, pred in pairs]
    refs: list[list[list[str]]] = []
    for ref, _ in pairs:
        refs.append([tok(r) for r in ref] if multiple_refs else [tok(ref)])  # type: ignore[arg-type]
    scores = metric.token_scores(hyps, refs).tolist() if pairs else []
    return {"meteor": np.mean(scores)}
