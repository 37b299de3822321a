"""The COCO caption evaluation as users run it, its BLEU, ROUGE-L and CIDEr-D by rapidbleu.

pycocoevalcap 1.2's ``COCOEvalCap`` with BLEU-1..4, ROUGE-L and CIDEr-D scored by rapidbleu, and
METEOR 1.5, SPICE and the PTB tokenizer run by pycocoevalcap's own Java (they stay
pycocoevalcap's: rapidbleu does not reimplement them, so those scores are pycocoevalcap's by
construction).

- :class:`COCOEvalCap`: the same constructor (``coco``, ``cocoRes``: pycocotools ``COCO``
  objects), ``params``, ``evaluate()``, ``eval``, ``imgToEval``, ``evalImgs`` and printed
  lines as pycocoevalcap's.
- :func:`evaluate`: the same dicts from ``gts``/``res`` dictionaries (already tokenized, or
  tokenized with ``tokenize=True``), for the metrics asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from rapidbleu.errors import InvalidOptionError, MissingDependencyError
from rapidbleu.metrics.caption import Bleu, Cider, Rouge

# COCOEvalCap alone: the accelerator answers pycocoevalcap.eval with this module's __all__.
__all__ = ["COCOEvalCap"]

#: The metrics in pycocoevalcap's order, with the names ``eval`` keeps them under.
METRICS = ("Bleu", "METEOR", "ROUGE_L", "CIDEr", "SPICE")
#: The ones rapidbleu scores; the others run in pycocoevalcap.
OURS = ("Bleu", "ROUGE_L", "CIDEr")


def _real(module: str, name: str) -> Any:
    try:
        return getattr(importlib.import_module(f"pycocoevalcap.{module}"), name)
    except ImportError as e:
        raise MissingDependencyError(
            f"{name} runs in pycocoevalcap's Java code; install it with "
            "`pip install pycocoevalcap==1.2` (and Java 8 or later)"
        ) from e


def _scorer(metric: str) -> tuple[Any, str | list[str]]:
    if metric == "Bleu":
        return Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]
    if metric == "ROUGE_L":
        return Rouge(), "ROUGE_L"
    if metric == "CIDEr":
        return Cider(), "CIDEr"
    if metric == "METEOR":
        return _real("meteor.meteor", "Meteor")(), "METEOR"
    return _real("spice.spice", "Spice")(), "SPICE"


class _Results:
    """``eval`` and ``imgToEval`` filled as ``COCOEvalCap.setEval`` / ``setImgToEvalImgs``."""

    def __init__(self) -> None:
        self.eval: dict[str, Any] = {}
        self.imgToEval: dict[Any, dict[str, Any]] = {}

    def setEval(self, score: Any, method: str) -> None:
        self.eval[method] = score

    def setImgToEvalImgs(self, scores: Any, imgIds: Any, method: str) -> None:
        for imgId, score in zip(imgIds, scores):
            if imgId not in self.imgToEval:
                self.imgToEval[imgId] = {}
                self.imgToEval[imgId]["image_id"] = imgId
            self.imgToEval[imgId][method] = score

    def run(self, gts: Any, res: Any, metrics: Sequence[str], verbose: bool) -> None:
        for metric in metrics:
            scorer, method = _scorer(metric)
            if verbose:
                print(f"computing {scorer.method()} score...")
            if metric == "Bleu":
                score, scores = scorer.compute_score(gts, res, verbose=int(verbose))
            else:
                score, scores = scorer.compute_score(gts, res)
            if isinstance(method, list):
                for sc, scs, m in zip(score, scores, method):
                    self.setEval(sc, m)
                    self.setImgToEvalImgs(scs, gts.keys(), m)
                    if verbose:
                        print(f"{m}: {sc:0.3f}")
            else:
                self.setEval(score, method)
                self.setImgToEvalImgs(scores, gts.keys(), method)
                if verbose:
                    print(f"{method}: {score:0.3f}")


def evaluate(
    gts: Mapping[Any, Any],
    res: Mapping[Any, Any],
    metrics: Sequence[str] = OURS,
    *,
    tokenize: bool = False,
    verbose: bool = False,
) -> tuple[dict[str, Any], dict[Any, dict[str, Any]]]:
    """COCOEvalCap's ``eval`` and ``imgToEval`` of ``gts``/``res`` for ``metrics``.

    Args:
        gts: Image id -> reference captions: tokenized strings, or with ``tokenize`` the
            annotations (``{"caption": str}`` dicts) pycocoevalcap's ``PTBTokenizer`` takes.
        res: Image id -> one caption (the same kind).
        metrics: Some of ``Bleu`` (Bleu_1..Bleu_4), ``METEOR``, ``ROUGE_L``, ``CIDEr`` and
            ``SPICE``, computed in pycocoevalcap's order; METEOR and SPICE run in
            pycocoevalcap's Java.
        tokenize: Run pycocoevalcap's PTB tokenizer (Java) first, as ``COCOEvalCap`` does.
        verbose: Print what ``COCOEvalCap.evaluate`` prints.

    Returns:
        ``(eval, imgToEval)``, as ``COCOEvalCap`` fills them.

    Raises:
        rapidbleu.errors.InvalidOptionError: An unknown metric.
        rapidbleu.errors.MissingDependencyError: METEOR, SPICE or the tokenizer without
            pycocoevalcap installed.
        AssertionError: pycocoevalcap's checks of the dictionaries.

    Example:
        >>> scores, per_image = evaluate({1: ["a cat sits"]}, {1: ["a cat sits"]}, ["ROUGE_L"])
        >>> float(scores["ROUGE_L"]), per_image[1]["image_id"]
        (1.0, 1)
    """
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise InvalidOptionError(
            f"unknown caption metric(s) {', '.join(map(repr, unknown))}; allowed: "
            + ", ".join(METRICS)
        )
    if tokenize:
        tokenizer = _real("tokenizer.ptbtokenizer", "PTBTokenizer")()
        gts = tokenizer.tokenize(gts)
        res = tokenizer.tokenize(res)
    out = _Results()
    out.run(gts, res, [m for m in METRICS if m in metrics], verbose)
    return out.eval, out.imgToEval


class COCOEvalCap:
    """pycocoevalcap's ``COCOEvalCap``, with BLEU, ROUGE-L and CIDEr-D scored by rapidbleu.

    ``evaluate()`` tokenizes with pycocoevalcap's PTB tokenizer and runs METEOR and SPICE in
    pycocoevalcap's Java, exactly as there; ``scorers`` (rapidbleu's addition) picks fewer
    metrics.

    Args:
        coco: The ground truth (a pycocotools ``COCO``).
        cocoRes: The results (``coco.loadRes(...)``).
        scorers: The metrics to compute (default: all five, as pycocoevalcap).

    Example:
        >>> COCOEvalCap.__name__
        'COCOEvalCap'
    """

    def __init__(self, coco: Any, cocoRes: Any, scorers: Sequence[str] = METRICS) -> None:
        self.evalImgs: list[dict[str, Any]] = []
        self.eval: dict[str, Any] = {}
        self.imgToEval: dict[Any, dict[str, Any]] = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params = {"image_id": coco.getImgIds()}
        self._scorers = tuple(scorers)

    def evaluate(self) -> None:
        """Scores the images of ``params["image_id"]`` (see the class documentation)."""
        imgIds = self.params["image_id"]
        gts = {}
        res = {}
        for imgId in imgIds:
            gts[imgId] = self.coco.imgToAnns[imgId]
            res[imgId] = self.cocoRes.imgToAnns[imgId]
        print("tokenization...")
        tokenizer = _real("tokenizer.ptbtokenizer", "PTBTokenizer")()
        gts = tokenizer.tokenize(gts)
        res = tokenizer.tokenize(res)
        print("setting up scorers...")
        out = _Results()
        out.eval, out.imgToEval = self.eval, self.imgToEval
        out.run(gts, res, [m for m in METRICS if m in self._scorers], True)
        self.setEvalImgs()

    def setEval(self, score: Any, method: str) -> None:
        """``eval[method] = score``."""
        self.eval[method] = score

    def setImgToEvalImgs(self, scores: Any, imgIds: Any, method: str) -> None:
        """Each image's score under ``method`` in ``imgToEval``."""
        r = _Results()
        r.imgToEval = self.imgToEval
        r.setImgToEvalImgs(scores, imgIds, method)

    def setEvalImgs(self) -> None:
        """``evalImgs``: the values of ``imgToEval``."""
        self.evalImgs = [eval for imgId, eval in self.imgToEval.items()]
