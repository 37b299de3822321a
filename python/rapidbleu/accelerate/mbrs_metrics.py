"""mbrs' sacreBLEU metrics in accelerator mode: one matrix call where mbrs makes one call per pair.

mbrs 0.1.8 (``mbrs.metrics.bleu.MetricBLEU``, ``mbrs.metrics.chrf.MetricChrF``,
``mbrs.metrics.ter.MetricTER``) scores a batch by sending every ``(hypothesis, reference)`` pair
to a process pool that calls sacreBLEU's ``sentence_score`` once per pair, so sacreBLEU's API caps
it however fast each call is. In the mode, when mbrs' module is imported (or at
:func:`rapidbleu.accelerate.install` when it already was), :func:`patch` gives its class
rapidbleu's ``pairwise_scores`` and ``scores``: the matrix (or the rows) comes from the metric's
:meth:`~rapidbleu.metrics.base.Metric.pairwise_matrices` (or ``sentence_scores``) in one call,
and is returned as mbrs returns it: ``torch.Tensor(list_of_floats)`` (the default dtype,
float32) of the very same float64 scores, viewed ``(H, R)``. ``expected_scores`` (mbrs'
``Metric.expected_scores``, which :class:`mbrs.decoders.DecoderMBR` calls) takes its matrix from
``pairwise_scores``, so it gets the same speed; ``score`` and ``corpus_score`` call the mode's
sacreBLEU already.

The class stays mbrs' own (``isinstance``, its registry, pickling and subclasses are unchanged);
only those methods are replaced, each keeping the original as ``__rapidbleu_original__``, which
:func:`unpatch` restores. A call runs mbrs' own method (a *fallback* in the report) wherever
rapidbleu could not give what mbrs gives: an option rapidbleu refuses, ``fastchrf=True``,
``effective_order=False`` (sacreBLEU logs a warning on every sentence call), a target-language
tokenizer warning, empty or non-``str`` input, lists of different lengths (mbrs' pool truncates).

``expected_scores_reference_aggregation`` (:class:`mbrs.decoders.DecoderAggregateMBR`) reads
sacreBLEU's private reference cache (``scorer._cache_references``), which rapidbleu's sacreBLEU
classes do not have: in the mode it runs mbrs' own code with a real sacreBLEU scorer of the same
options, so it gives mbrs' float arithmetic unchanged.

Example:
    >>> sorted(MBRS_CLASSES)
    ['mbrs.metrics.bleu', 'mbrs.metrics.chrf', 'mbrs.metrics.ter']
"""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Callable, Sequence
from inspect import getattr_static
from types import ModuleType
from typing import Any

from rapidbleu.accelerate.proxies import accelerated_function
from rapidbleu.accelerate.targets import MBRS
from rapidbleu.errors import RapidBleuError
from rapidbleu.metrics.base import Metric

__all__ = ["MBRS_CLASSES", "patch", "unpatch"]

#: mbrs' module -> the metric class in it that the mode accelerates.
MBRS_CLASSES = MBRS

#: sacreBLEU's language codes whose tokenizer warnings BLEU's constructor logs
#: (``sacrebleu.metrics.bleu.BLEU.__init__``); mbrs' pool logs them once per worker.
_WARNED_LANGS = frozenset({"zh", "ja", "ko"})


#: The methods mbrs' batch methods score with: a subclass that overrides one keeps mbrs' own.
_SCORING = ("score", "_score_worker", "_initialize_bleu")


class _Declined(RapidBleuError):
    """What mbrs asked is not one rapidbleu gives exactly as mbrs does: mbrs' own method runs."""


def _bleu(obj: Any) -> Metric[Any]:
    # MetricBLEU.scores / pairwise_scores build their workers' BLEU from the config
    # (MetricBLEU._initialize_bleu), not from `obj.scorer`.
    from rapidbleu.metrics.bleu import BLEU

    cfg = obj.cfg
    if not cfg.effective_order:
        raise _Declined("sacreBLEU logs a warning per sentence_score without effective_order")
    if cfg.trg_lang in _WARNED_LANGS and cfg.tokenize is not None:
        raise _Declined("sacreBLEU's BLEU logs a tokenizer warning in each of mbrs' workers")
    return BLEU(
        lowercase=cfg.lowercase,
        force=cfg.force,
        tokenize=cfg.tokenize,
        smooth_method=cfg.smooth_method,
        smooth_value=cfg.smooth_value,
        max_ngram_order=cfg.max_ngram_order,
        effective_order=cfg.effective_order,
        trg_lang=cfg.trg_lang,
    )


def _chrf(obj: Any) -> Metric[Any]:
    # MetricChrF scores with `obj.score`, i.e. `obj.scorer` (pickled into its workers).
    from rapidbleu.metrics.chrf import CHRF

    if obj.cfg.fastchrf:
        raise _Declined("fastchrf=True is fastchrf's own arithmetic")
    s = obj.scorer
    return CHRF(
        char_order=s.char_order,
        word_order=s.word_order,
        beta=s.beta,
        lowercase=s.lowercase,
        whitespace=s.whitespace,
        eps_smoothing=s.eps_smoothing,
    )


def _ter(obj: Any) -> Metric[Any]:
    from rapidbleu.metrics.ter import TER

    s = obj.scorer
    return TER(
        normalized=s.normalized,
        no_punct=s.no_punct,
        asian_support=s.asian_support,
        case_sensitive=s.case_sensitive,
    )


#: mbrs' class name -> rapidbleu's metric of the same options.
_FAST: dict[str, Callable[[Any], Metric[Any]]] = {
    "MetricBLEU": _bleu,
    "MetricChrF": _chrf,
    "MetricTER": _ter,
}


def _texts(seq: Any) -> list[str]:
    if not isinstance(seq, Sequence) or isinstance(seq, str) or len(seq) == 0:
        raise _Declined("mbrs' pool answers empty or non-list input itself")
    out = list(seq)
    if not all(type(s) is str for s in out):
        raise _Declined("sacreBLEU raises its own TypeError for a non-str segment")
    return out


def _tensor(values: Any, shape: tuple[int, ...]) -> Any:
    """``torch.Tensor(list(values)).view(shape)``, as mbrs builds it, without the list."""
    import torch

    # torch.Tensor(list of float) casts each float64 to the default dtype (round to nearest),
    # which `.to` does too; `.clone` keeps the result from sharing the NumPy buffer.
    return torch.from_numpy(values).to(torch.get_default_dtype()).reshape(shape).clone()


def _mbrs_timer() -> Any:
    """The timer of mbrs (``mbrs.timer``): its ``measure("score")`` counts calls as mbrs does."""
    return importlib.import_module("mbrs.timer")


def _pairwise(obj: Any, hypotheses: Any, references: Any, *_: Any, **__: Any) -> Any:
    timer = _mbrs_timer()

    metric = _FAST[_base(obj)](obj)
    hyps, refs = _texts(hypotheses), _texts(references)
    with timer.measure("score") as t:
        t.set_delta_ncalls(len(hyps) * len(refs))
        matrix = metric.pairwise_matrices([(hyps, refs)])[0]
        return _tensor(matrix, (len(hyps), len(refs)))


def _scores(obj: Any, hypotheses: Any, references: Any, *_: Any, **__: Any) -> Any:
    import numpy as np

    timer = _mbrs_timer()

    metric = _FAST[_base(obj)](obj)
    hyps, refs = _texts(hypotheses), _texts(references)
    if len(hyps) != len(refs):
        raise _Declined("mbrs' pool zips lists of different lengths")
    with timer.measure("score") as t:
        t.set_delta_ncalls(len(hyps))
        scores = metric.sentence_scores(hyps, [[r] for r in refs], per_segment=True)
        return _tensor(np.asarray(scores, dtype=np.float64), (len(hyps),))


def _base(obj: Any) -> str:
    """The name of the mbrs class ``obj`` is; a subclass counts unless it scores otherwise."""
    for cls in type(obj).__mro__:
        if cls.__name__ in _FAST and cls.__module__ in MBRS_CLASSES:
            if any(
                getattr_static(type(obj), a, None) is not getattr_static(cls, a, None)
                for a in _SCORING
            ):
                raise _Declined("a subclass that scores its own way runs mbrs' own methods")
            return cls.__name__
    raise _Declined("not one of mbrs' sacreBLEU metrics")


def _real_scorer(obj: Any, name: str) -> Any:
    """A real sacreBLEU scorer with the options of ``obj``, an mbrs ``name`` (or a subclass)."""
    from rapidbleu.accelerate.real import module

    cfg = obj.cfg
    if name == "MetricBLEU":
        return module("sacrebleu.metrics.bleu").BLEU(
            lowercase=cfg.lowercase,
            force=cfg.force,
            tokenize=cfg.tokenize,
            smooth_method=cfg.smooth_method,
            smooth_value=cfg.smooth_value,
            max_ngram_order=cfg.max_ngram_order,
            effective_order=cfg.effective_order,
            trg_lang=cfg.trg_lang,
        )
    s = obj.scorer
    return module("sacrebleu.metrics.chrf").CHRF(
        char_order=s.char_order,
        word_order=s.word_order,
        beta=s.beta,
        lowercase=s.lowercase,
        whitespace=s.whitespace,
        eps_smoothing=s.eps_smoothing,
    )


def _aggregation(original: Callable[..., Any], name: str) -> Callable[..., Any]:
    @functools.wraps(original)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if hasattr(self.scorer, "_cache_references"):  # a real sacreBLEU scorer: mbrs as is
            return original(self, *args, **kwargs)
        twin = copy.copy(self)  # mbrs reads self.scorer's private cache and preprocessing
        twin.scorer = _real_scorer(self, name)
        return original(twin, *args, **kwargs)

    return call


def _accelerated(name: str, fast: Callable[..., Any], original: Callable[..., Any]) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        def real(*a: Any, **kw: Any) -> Any:
            return original(self, *a, **kw)

        return accelerated_function(name, functools.partial(fast, self), real)(*args, **kwargs)

    return functools.wraps(original)(method)


def patch(module: ModuleType) -> None:
    """Gives mbrs' metric class in ``module`` rapidbleu's batch methods (see the module's notes).

    Calling it again does nothing.
    """
    cls = getattr(module, MBRS_CLASSES[module.__name__], None)
    if cls is None:
        return
    qual = f"{module.__name__}.{cls.__name__}"
    methods: dict[str, Callable[[Callable[..., Any]], Any]] = {
        "pairwise_scores": lambda o: _accelerated(f"{qual}.pairwise_scores", _pairwise, o),
        "scores": lambda o: _accelerated(f"{qual}.scores", _scores, o),
    }
    if "expected_scores_reference_aggregation" in vars(cls):
        methods["expected_scores_reference_aggregation"] = lambda o: _aggregation(o, cls.__name__)
    for attr, wrap in methods.items():
        original = vars(cls).get(attr)
        if original is None or hasattr(original, "__rapidbleu_original__"):
            continue
        new = wrap(original)
        new.__rapidbleu_original__ = original
        setattr(cls, attr, new)


def unpatch(module: ModuleType) -> None:
    """Gives mbrs' metric class in ``module`` its own methods back."""
    cls = getattr(module, MBRS_CLASSES.get(module.__name__, ""), None)
    if cls is None:
        return
    for attr, value in list(vars(cls).items()):
        original = getattr(value, "__rapidbleu_original__", None)
        if original is not None:
            setattr(cls, attr, original)
