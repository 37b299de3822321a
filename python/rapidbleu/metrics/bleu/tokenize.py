"""BLEU's tokenizer: which one runs (sacreBLEU's choice and warnings), and where it runs.

The Rust tokenizers run in the core. A Python tokenizer (MeCab, SentencePiece) tokenizes the
lines first, lowercased when asked (its ``preprocess_batch``: sacreBLEU's
``_preprocess_segment`` through a line cache, see ``BLEU.engine_inputs``), and the core
then takes them as pre-tokenized text (``tokenizer="none"``, no lowercasing). The names come
from :mod:`rapidbleu.tokenizers.registry`.

Example:
    >>> choose_tokenizer(None, "ja", "13a", {"ja": "ja-mecab"})
    'ja-mecab'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

import rapidbleu._core as _core
from rapidbleu.errors import UnknownNameError
from rapidbleu.tokenizers.registry import TOKENIZERS

__all__ = ["choose_tokenizer", "words"]

logger = logging.getLogger("rapidbleu")


def choose_tokenizer(
    tokenize: str | None, trg_lang: str, default: str, by_language: Mapping[str, str]
) -> str:
    """The tokenizer BLEU runs, as sacreBLEU's ``BLEU.__init__`` picks it (and warns).

    Args:
        tokenize: The tokenizer asked for; ``None`` picks it from ``trg_lang``.
        trg_lang: The target language ("" if unknown).
        default: The tokenizer of other languages (``BLEU.TOKENIZER_DEFAULT``).
        by_language: Language -> its default tokenizer (``BLEU._TOKENIZER_MAP``).

    Returns:
        The tokenizer's name.

    Raises:
        rapidbleu.errors.UnknownNameError: ``tokenize`` is not a tokenizer (an
            ``InvalidOptionError`` and a ``KeyError``).

    Example:
        >>> choose_tokenizer("intl", "", "13a", {})
        'intl'
    """
    if tokenize is None:
        best = by_language.get(trg_lang, default)
    else:
        best = tokenize
        # sacreBLEU's BLEU.__init__ warns about these combinations (and goes on).
        if trg_lang == "zh" and best != "zh":
            logger.warning("Consider using the 'zh' or 'spm' tokenizer for Chinese.")
        if trg_lang == "ja" and best != "ja-mecab":
            logger.warning("Consider using the 'ja-mecab' or 'spm' tokenizer for Japanese.")
        if trg_lang == "ko" and best != "ko-mecab":
            logger.warning("Consider using the 'ko-mecab' or 'spm' tokenizer for Korean.")
    if best not in TOKENIZERS:
        # A KeyError too, as sacreBLEU's `_get_tokenizer(name)` raises.
        raise UnknownNameError(f"unknown tokenizer {best!r}; allowed: " + ", ".join(TOKENIZERS))
    return best


def words(
    lines: Sequence[str | None],
    options: _core.BleuOptions,
    prepare: Callable[[list[str]], Sequence[str]],
) -> list[list[str]]:
    """BLEU's words of each line (``[]`` for ``None``): what its n-grams are made of.

    The line is lowercased when BLEU lowercases, stripped on the right, tokenized by BLEU's
    tokenizer and split on whitespace, as sacreBLEU's ``BLEU._preprocess_segment`` and
    ``extract_all_word_ngrams`` do.

    Args:
        lines: The lines; ``None`` for a missing one.
        options: BLEU's core options (its Rust tokenizer and case).
        prepare: What a Python tokenizer (MeCab, SentencePiece) makes of the lines, already
            lowercased for it (``BLEU.engine_inputs``); the identity for a Rust tokenizer.

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> words(["Hello, world!", None], BLEU().options, lambda lines: lines)
        [['Hello', ',', 'world', '!'], []]
    """
    present = [line for line in lines if line is not None]
    lowercase, name = options.lowercase, options.tokenizer
    out = iter(
        _core.tokenize(name, (line.lower() if lowercase else line).rstrip()).split()
        for line in prepare(present)
    )
    return [[] if line is None else next(out) for line in lines]
