"""Hugging Face evaluate's MT metrics, computed by rapidbleu: same options, keys and values.

Two ways in:

- without evaluate: ``rapidbleu.evaluate.load("sacrebleu").compute(predictions=...,
  references=..., **options)``, or the functions in :mod:`rapidbleu.evaluate.metrics`;
- inside evaluate (its aggregation, ``add_batch``, distributed runs), with no other change to
  the calling code: ``evaluate.load(rapidbleu.evaluate.script_path("sacrebleu"))`` loads a local
  loading script that computes with rapidbleu (needs the ``evaluate`` extra).

Metrics: ``sacrebleu``, ``bleu`` (:func:`rapidbleu.evaluate.nmt_bleu.compute`),
``google_bleu`` (GLEU, NLTK's ``corpus_gleu``), ``chrf``, ``ter`` and ``rouge`` (rouge-score's).
``import rapidbleu.evaluate`` imports neither evaluate nor NLTK.

Example:
    >>> from rapidbleu import evaluate
    >>> google_bleu = evaluate.load("google_bleu")
    >>> predictions = ["It is a guide to action which ensures that the rubber duck always "
    ...                "disobeys the commands of the cat", "he read the book because he was "
    ...                "interested in world history"]
    >>> references = [["It is the guiding principle which guarantees the rubber duck forces "
    ...                "never being under the command of the cat"], ["he was interested in "
    ...                "world history because he read the book"]]
    >>> round(google_bleu.compute(predictions=predictions, references=references)
    ...       ["google_bleu"], 2)
    0.44
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from rapidbleu.errors import InvalidOptionError
from rapidbleu.evaluate.metrics import METRICS, chrf, google_bleu, rouge, sacrebleu, ter

__all__ = [
    "METRICS",
    "EvaluateMetric",
    "chrf",
    "compute",
    "google_bleu",
    "load",
    "rouge",
    "sacrebleu",
    "script_path",
    "ter",
]


def _check_name(name: str) -> str:
    if name not in METRICS:
        raise InvalidOptionError(
            f"unknown metric {name!r}; rapidbleu computes evaluate's " + ", ".join(METRICS)
        )
    return name


class EvaluateMetric:
    """What ``evaluate.load(name)`` returns, for rapidbleu's metrics: ``.compute(...)``.

    Args:
        name: ``sacrebleu``, ``bleu``, ``google_bleu``, ``chrf``, ``ter`` or ``rouge``.
    """

    def __init__(self, name: str) -> None:
        self.name = _check_name(name)

    def compute(
        self, *, predictions: Sequence[Any], references: Sequence[Any], **options: Any
    ) -> dict[str, Any]:
        """The metric's output dict (evaluate's keys and values).

        Example:
            >>> load("sacrebleu").compute(predictions=["a b c d"], references=[["a b c d"]])["bp"]
            1.0
        """
        return METRICS[self.name](predictions, references, **options)

    def __repr__(self) -> str:
        return f"EvaluateMetric({self.name!r})"


def load(name: str) -> EvaluateMetric:
    """Rapidbleu's stand-in for ``evaluate.load(name)``.

    Raises:
        rapidbleu.errors.InvalidOptionError: Not one of :data:`METRICS`.

    Example:
        >>> load("sacrebleu")
        EvaluateMetric('sacrebleu')
    """
    return EvaluateMetric(name)


def compute(
    name: str, *, predictions: Sequence[Any], references: Sequence[Any], **options: Any
) -> dict[str, Any]:
    """``load(name).compute(predictions=..., references=..., **options)``.

    Example:
        >>> compute("google_bleu", predictions=["a b"], references=[["a b"]])
        {'google_bleu': 1.0}
    """
    return load(name).compute(predictions=predictions, references=references, **options)


def script_path(name: str) -> str:
    """The local loading script that makes ``evaluate.load(path)`` compute ``name`` with rapidbleu.

    Example:
        >>> script_path("sacrebleu").endswith("scripts/sacrebleu.py")
        True
    """
    return str(resources.files("rapidbleu.evaluate") / "scripts" / f"{_check_name(name)}.py")
