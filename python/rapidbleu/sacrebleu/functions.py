"""sacreBLEU's functional API (``sacrebleu/compat.py``), with sacreBLEU's defaults.

``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``,
``corpus_ter`` and ``sentence_ter`` take the same arguments as sacreBLEU's (``corpus_chrf``'s
``remove_whitespace`` is the inverse of :class:`~rapidbleu.metrics.CHRF`'s ``whitespace``, and it
has no ``lowercase``). They are names of :mod:`rapidbleu` itself (``rapidbleu.corpus_bleu``) and
of the drop-in namespace :mod:`rapidbleu.sacrebleu`.

``sentence_bleu``, ``sentence_chrf`` and ``sentence_ter`` are called once per sentence in loops,
so they reuse one metric per option set instead of building one per call as sacreBLEU does (same
scores; far less overhead).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rapidbleu.metrics.bleu import BLEU, BLEUScore
from rapidbleu.metrics.chrf import CHRF, CHRFScore
from rapidbleu.metrics.ter import TER, TERScore

__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]


@lru_cache(maxsize=64)
def _bleu_metric(
    smooth_method: str,
    smooth_value: float | None,
    lowercase: bool,
    tokenize: str,
    effective_order: bool,
) -> BLEU:
    return BLEU(
        lowercase=lowercase,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=effective_order,
    )


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
    *,
    pad_id: int | None = None,
    lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
) -> BLEUScore:
    """Corpus BLEU against one or more reference streams (sacreBLEU's ``corpus_bleu``).

    Args:
        hypotheses: One str per segment (or token sequences, or a 2-D array of token IDs:
            see :func:`rapidbleu.metrics.bleu.tokens.token_statistics`).
        references: Reference streams, each with one str per segment.
        smooth_method: ``exp``, ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` / ``add-k``.
        force: Do not warn about hypotheses that look tokenized.
        lowercase: Lowercase everything first.
        tokenize: Tokenizer name (default ``13a``).
        use_effective_order: Truncate the geometric mean at the last order with n-grams.
        pad_id: Token IDs only (rapidbleu's option): the padding ID, dropped from every
            sequence; a 2-D array needs it or its lengths.
        lengths: Token IDs only: the row lengths of a 2-D ``hypotheses`` array.
        ref_lengths: Token IDs only: the row lengths of each 2-D reference stream (or
            ``None`` for a stream that is not one).

    Returns:
        The score.

    Example:
        >>> import rapidbleu
        >>> hyps = ["The dog bit the man.", "It wasn't surprising.",
        ...         "The man had just bitten him."]
        >>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ...         ["The dog had bit the man.", "No one was surprised.",
        ...          "The man had bitten the dog."]]
        >>> round(rapidbleu.corpus_bleu(hyps, refs).score, 10)
        48.5308270099
    """
    metric = BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return metric.corpus_score(
        hypotheses, references, pad_id=pad_id, lengths=lengths, ref_lengths=ref_lengths
    )


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """BLEU on untokenized text with ``floor`` smoothing (sacreBLEU's ``raw_corpus_bleu``).

    Args:
        hypotheses: One str per segment.
        references: Reference streams.
        smooth_value: The floor (default 0.1).

    Returns:
        The score.

    Example:
        >>> round(raw_corpus_bleu(["a b c"], [["a b d"]]).score, 6)
        32.182979
    """
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str | None],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
    *,
    pad_id: int | None = None,
    ref_lengths: Sequence[int] | None = None,
) -> BLEUScore:
    """Sentence BLEU of one hypothesis (sacreBLEU's ``sentence_bleu``).

    Args:
        hypothesis: The hypothesis (or a token sequence).
        references: Its references (token IDs may be a 2-D array, one row per reference).
        smooth_method: ``exp``, ``floor``, ``add-k`` or ``none``.
        smooth_value: Value for ``floor`` / ``add-k``.
        lowercase: Lowercase first.
        tokenize: Tokenizer name (default ``13a``).
        use_effective_order: Truncate the geometric mean (default on, as in sacreBLEU).
        pad_id: Token IDs only (rapidbleu's option): the padding ID, dropped from every
            sequence.
        ref_lengths: Token IDs only: the row lengths of a 2-D ``references`` array.

    Returns:
        The score.

    Example:
        >>> round(sentence_bleu("The cat sat on the mat.", ["The cat is on the mat."]).score, 4)
        48.8923
    """
    args = (smooth_method, smooth_value, lowercase, tokenize, use_effective_order)
    try:
        metric = _bleu_metric(*args)
    except TypeError:  # an unhashable argument: skip the metric cache (BLEU checks it)
        metric = _bleu_metric.__wrapped__(*args)
    return metric.sentence_score(hypothesis, references, pad_id=pad_id, ref_lengths=ref_lengths)


@lru_cache(maxsize=64)
def _ter_metric(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> TER:
    return TER(
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER against one or more reference streams (sacreBLEU's ``corpus_ter``).

    Args:
        hypotheses: One str per segment.
        references: Reference streams, each with one str per segment.
        normalized: Tercom's normalisation.
        no_punct: Remove punctuation.
        asian_support: The Asian rules (with ``normalized`` and/or ``no_punct``).
        case_sensitive: Do not lowercase.

    Returns:
        The score (``score``, ``num_edits``, ``ref_length``).

    Example:
        >>> s = corpus_ter(["d e f g h a b c"], [["a b c d e f g h"]])
        >>> s.score, s.num_edits, s.ref_length
        (12.5, 1, 8.0)
    """
    metric = TER(
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )
    return metric.corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """TER of one hypothesis against its references (sacreBLEU's ``sentence_ter``).

    Args:
        hypothesis: The hypothesis.
        references: Its references.
        normalized: Tercom's normalisation.
        no_punct: Remove punctuation.
        asian_support: The Asian rules (with ``normalized`` and/or ``no_punct``).
        case_sensitive: Do not lowercase.

    Returns:
        The score.

    Example:
        >>> sentence_ter("a b c", ["a b d", "a c"]).score
        40.0
    """
    flags = (normalized, no_punct, asian_support, case_sensitive)
    if all(isinstance(f, bool) for f in flags):
        metric = _ter_metric(*flags)
    else:  # checked (and refused, or converted) by TER itself
        metric = _ter_metric.__wrapped__(*flags)
    return metric.sentence_score(hypothesis, references)


def _chrf_metric(
    char_order: int, word_order: int, beta: int | float, remove_whitespace: bool, eps: bool
) -> CHRF:
    return CHRF(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        whitespace=not remove_whitespace,
        eps_smoothing=eps,
    )


@lru_cache(maxsize=64)
def _chrf_cached(
    char_order: int, word_order: int, beta: int | float, remove_whitespace: bool, eps: bool
) -> CHRF:
    return _chrf_metric(char_order, word_order, beta, remove_whitespace, eps)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF against one or more reference streams (sacreBLEU's ``corpus_chrf``).

    Args:
        hypotheses: One str per segment.
        references: Reference streams, each with one str per segment.
        char_order: Character n-gram order.
        word_order: Word n-gram order (2 is chrF++).
        beta: The weight of recall against precision.
        remove_whitespace: Drop whitespace before extracting character n-grams.
        eps_smoothing: chrF++.py's epsilon smoothing instead of the effective order.

    Returns:
        The score.

    Example:
        >>> import rapidbleu
        >>> print(rapidbleu.corpus_chrf(["The cat sat on the mat."], [["The cat is on the mat."]]))
        chrF2 = 67.17
    """
    metric = _chrf_metric(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """ChrF of one hypothesis against its references (sacreBLEU's ``sentence_chrf``).

    Args:
        hypothesis: The hypothesis.
        references: Its references (the best one counts).
        char_order: Character n-gram order.
        word_order: Word n-gram order (2 is chrF++).
        beta: The weight of recall against precision.
        remove_whitespace: Drop whitespace before extracting character n-grams.
        eps_smoothing: chrF++.py's epsilon smoothing instead of the effective order.

    Returns:
        The score.

    Example:
        >>> round(sentence_chrf("The cat sat.", ["The cat sat on the mat."]).score, 4)
        49.2607
    """
    key = (char_order, word_order, beta, remove_whitespace, eps_smoothing)
    try:
        metric = _chrf_cached(*key)
    except TypeError:  # an unhashable argument: build the metric (it raises the error)
        metric = _chrf_metric(*key)
    return metric.sentence_score(hypothesis, references)
