"""METEOR's named tokenizers for text input: ``split`` and ``nltk`` (NLTK's ``word_tokenize``).

NLTK's ``meteor_score`` takes token lists; its users make them with ``str.split()`` or with
``nltk.word_tokenize`` (evaluate's ``meteor`` does). ``tokenize="nltk"`` runs NLTK's own
``word_tokenize(text)`` (English Punkt sentences, then NLTK's Treebank words), so its tokens are
NLTK's by construction; it needs NLTK and its ``punkt_tab`` data, and without them a named
:class:`~rapidbleu.errors.MissingDependencyError` says how to get them.

The tokens of ``word_tokenize`` come from ``str.split()`` (``NLTKWordTokenizer.tokenize``
ends with it), so none holds Python whitespace: each text becomes its tokens joined by one
space, which the core's whitespace split (Python's ``str.split()``) gives back unchanged. The
rest of the text path (reference streams, ``None`` references, caching, the command) is the
template's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rapidbleu.errors import InputTypeError, InvalidOptionError, MissingDependencyError

__all__ = ["TOKENIZERS", "check_tokenize", "retokenize", "word_tokenizer"]

#: The tokenizer names: ``split`` (Python's ``str.split()``) and ``nltk`` (``word_tokenize``).
TOKENIZERS = ("split", "nltk")

PUNKT_HOW_TO_GET = (
    "get it with `python -m nltk.downloader punkt_tab` (or put NLTK's "
    "tokenizers/punkt_tab/english/ under a folder of nltk.data.path or $NLTK_DATA), or use "
    "tokenize='split'"
)


def check_tokenize(tokenize: Any) -> str:
    """A ``tokenize=`` option checked: one of :data:`TOKENIZERS`.

    Example:
        >>> check_tokenize("split")
        'split'
    """
    if not isinstance(tokenize, str) or tokenize not in TOKENIZERS:
        raise InvalidOptionError(
            f"tokenize must be one of {', '.join(map(repr, TOKENIZERS))} "
            f"('nltk' is NLTK's word_tokenize), not {tokenize!r}"
        )
    return tokenize


def word_tokenizer() -> Callable[[str], list[str]]:
    """NLTK's ``word_tokenize``, once NLTK and its English ``punkt_tab`` model are found.

    Returns:
        ``nltk.tokenize.word_tokenize`` itself.

    Raises:
        rapidbleu.errors.MissingDependencyError: NLTK is not installed, or its ``punkt_tab``
            data is not found where ``nltk.data.find`` looks.

    Example:
        >>> try:
        ...     tok = word_tokenizer()
        ... except MissingDependencyError as e:
        ...     print("punkt_tab" in str(e))
        ... else:
        ...     print(tok("Hello, world.") == ["Hello", ",", "world", "."])
        True
    """
    try:
        import nltk.data  # type: ignore[import-untyped]
        from nltk.tokenize import word_tokenize  # type: ignore[import-untyped]
    except ImportError as e:
        raise MissingDependencyError(
            "tokenize='nltk' is NLTK's word_tokenize: install NLTK (pip install nltk), or use "
            "tokenize='split'"
        ) from e
    try:
        # PunktTokenizer.load_lang's look-up (nltk/tokenize/punkt.py), which word_tokenize
        # runs through sent_tokenize on its first call.
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError as e:
        raise MissingDependencyError(
            "tokenize='nltk' is NLTK's word_tokenize, which needs NLTK's punkt_tab data "
            f"(tokenizers/punkt_tab/english/), not found; {PUNKT_HOW_TO_GET}"
        ) from e
    tokenize: Callable[[str], list[str]] = word_tokenize
    return tokenize


def _line(tokenize: Callable[[str], list[str]], text: Any) -> Any:
    if text is None:
        return None
    if not isinstance(text, str):
        raise InputTypeError(
            f"tokenize='nltk' takes text (str) segments, not {type(text).__name__}; give token "
            "lists to token_scores/score_tokens"
        )
    return " ".join(tokenize(text))


def retokenize(tokenize: Callable[[str], list[str]], lines: Any, depth: int) -> list[Any]:
    """``lines`` as tokens joined by one space, ``None`` kept.

    ``depth`` 1: segments; 2: streams or per-segment lists.

    Example:
        >>> retokenize(lambda s: s.split("-"), [["a-b", None]], 2)
        [['a b', None]]
    """
    if isinstance(lines, str):
        raise InputTypeError("expected a list of segments, not a str")
    if depth == 1:
        return [_line(tokenize, t) for t in lines]
    return [retokenize(tokenize, group, depth - 1) for group in lines]
