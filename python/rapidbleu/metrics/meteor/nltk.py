"""NLTK's ``nltk.translate.meteor_score`` (nltk 3.10.4), on rapidbleu.

``meteor_score`` and ``single_meteor_score`` keep NLTK's names, arguments, defaults and
results (``==``).

The accelerator answers ``nltk.translate.meteor_score`` with this module (its other names,
``align_words`` and the like, stay NLTK's). A call rapidbleu cannot compute exactly is NLTK's
own function, so its number (or exception) is NLTK's:

- ``preprocess`` other than ``str.lower``, a stemmer other than a default-mode
  ``PorterStemmer``, or a ``wordnet`` other than ``nltk.corpus.wordnet``;
- WordNet not found where NLTK looks (NLTK raises its ``LookupError``);
- ``alpha``/``beta``/``gamma`` that are not int or float, input that is not lists (or tuples)
  of str, a token with a lone surrogate, or no references.

Example (a ``wordnet`` object of one's own: NLTK's own function answers, and needs no data)::

    >>> from rapidbleu.metrics.meteor.nltk import meteor_score
    >>> class NoSynonyms:
    ...     def synsets(self, word):
    ...         return []
    >>> meteor_score([["the", "cat", "sat"]], ["the", "cat", "sat"], wordnet=NoSynonyms())
    0.9814814814814815
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rapidbleu.errors import InputError, InputTypeError, MissingDependencyError

__all__ = ["meteor_score", "single_meteor_score"]

_METRICS: dict[tuple[float, float, float], Any] = {}


def _real(name: str) -> Callable[..., float]:
    """NLTK's own function ``name``.

    From its module, or in accelerator mode (where that path is rapidbleu's namespace) from
    the private copy of the real module that the namespace falls back to.
    """
    import sys

    mod = sys.modules.get("nltk.translate.meteor_score")
    if mod is None or getattr(mod, "__rapidbleu_accelerated__", False):
        from importlib.machinery import PathFinder

        import nltk.translate  # type: ignore[import-untyped]

        from rapidbleu.accelerate.real import load_copy

        spec = PathFinder.find_spec("nltk.translate.meteor_score", nltk.translate.__path__)
        mod = load_copy("nltk.translate.meteor_score", spec)
        if mod is None:
            raise ModuleNotFoundError(
                "No module named 'nltk.translate.meteor_score' (pip install nltk)",
                name="nltk.translate.meteor_score",
            )
    fn: Callable[..., float] = getattr(mod, name)
    return fn


def _is_default_wordnet(wordnet: Any) -> bool:
    import nltk.corpus  # type: ignore[import-untyped]

    return wordnet is nltk.corpus.wordnet


def _is_porter(stemmer: Any) -> bool:
    from nltk.stem.porter import PorterStemmer  # type: ignore[import-untyped]

    return type(stemmer) is PorterStemmer and stemmer.mode == PorterStemmer.NLTK_EXTENSIONS


def _number(x: Any) -> bool:
    return type(x) in (int, float)


def _tokens(x: Any) -> bool:
    return isinstance(x, (list, tuple)) and all(type(t) is str for t in x)


def _metric(alpha: float, beta: float, gamma: float) -> Any:
    from rapidbleu.metrics.meteor.metric import METEOR

    key = (alpha, beta, gamma)
    m = _METRICS.get(key)
    if m is None:
        m = METEOR(alpha, beta, gamma, wordnet=True, num_threads=1)
        if len(_METRICS) < 64:
            _METRICS[key] = m
    return m


def _fast(
    references: Any,
    hypothesis: Any,
    preprocess: Any,
    stemmer: Any,
    wordnet: Any,
    alpha: Any,
    beta: Any,
    gamma: Any,
) -> float | None:
    """Rapidbleu's score, or ``None`` where NLTK's own function must answer."""
    if (
        preprocess is not str.lower
        or not all(map(_number, (alpha, beta, gamma)))
        or not _tokens(hypothesis)
        or not isinstance(references, (list, tuple))
        or not references
        or not all(map(_tokens, references))
        or not _is_porter(stemmer)
        or not _is_default_wordnet(wordnet)
    ):
        return None
    try:
        score: float = _metric(alpha, beta, gamma).score_tokens(references, hypothesis)
    except (MissingDependencyError, InputError, InputTypeError):
        return None
    return score


class _Default:
    """Stands for NLTK's default ``stemmer``/``wordnet`` where NLTK's own are not adopted.

    Only where NLTK could not be imported (see :func:`_adopt_signatures`).
    """

    def __repr__(self) -> str:
        return "<NLTK's default>"


_DEFAULT: Any = _Default()


def _resolve(stemmer: Any, wordnet: Any) -> tuple[Any, Any]:
    """NLTK's ``PorterStemmer()`` and ``nltk.corpus.wordnet`` for :data:`_DEFAULT`."""
    if stemmer is _DEFAULT:
        from nltk.stem.porter import PorterStemmer

        stemmer = PorterStemmer()
    if wordnet is _DEFAULT:
        import nltk.corpus

        wordnet = nltk.corpus.wordnet
    return stemmer, wordnet


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = _DEFAULT,
    wordnet: Any = _DEFAULT,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """NLTK's ``single_meteor_score(reference, hypothesis, ...)``: one reference.

    ``stemmer`` and ``wordnet`` default to NLTK's own default objects (its function's
    ``PorterStemmer()`` and ``nltk.corpus.wordnet``: the signature is NLTK's).

    Example:
        >>> class NoSynonyms:
        ...     def synsets(self, word):
        ...         return []
        >>> single_meteor_score(["a", "b"], ["a", "c"], wordnet=NoSynonyms())
        0.25
    """
    stemmer, wordnet = _resolve(stemmer, wordnet)
    got = _fast([reference], hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)
    if got is not None:
        return got
    return _real("single_meteor_score")(
        reference, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma
    )


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = _DEFAULT,
    wordnet: Any = _DEFAULT,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """NLTK's ``meteor_score(references, hypothesis, ...)``: the best reference's score.

    Example:
        >>> class NoSynonyms:
        ...     def synsets(self, word):
        ...         return []
        >>> meteor_score([["a", "c"], ["a", "b"]], ["a", "b"], wordnet=NoSynonyms())
        0.9375
    """
    stemmer, wordnet = _resolve(stemmer, wordnet)
    got = _fast(references, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)
    if got is not None:
        return got
    return _real("meteor_score")(
        references, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma
    )


def _adopt_signatures() -> None:
    """Gives both functions NLTK's own defaults and annotations.

    So their signatures (``inspect.signature``) are NLTK's, down to the default
    ``PorterStemmer`` object.

    The real module is the accelerator's private copy where it made one (it does so before
    importing this module), else ``nltk.translate.meteor_score`` itself; never imported
    through the accelerator's own name while it is being made. Without NLTK the functions
    keep :data:`_DEFAULT` (and can only answer with NLTK anyway).
    """
    import importlib
    import sys

    from rapidbleu.accelerate.real import private_name

    name = "nltk.translate.meteor_score"
    mod = sys.modules.get(private_name(name))
    try:
        if mod is None:
            mod = sys.modules.get(name) or importlib.import_module(name)
            if getattr(mod, "__rapidbleu_accelerated__", False):
                mod = sys.modules.get(_real("meteor_score").__module__)
    except ImportError:
        return
    for ours in (meteor_score, single_meteor_score):
        theirs = getattr(mod, ours.__name__, None)
        if callable(theirs):
            ours.__defaults__ = theirs.__defaults__
            ours.__kwdefaults__ = theirs.__kwdefaults__
            ours.__annotations__ = dict(theirs.__annotations__)


_adopt_signatures()
