"""sacreBLEU's n-gram helpers (``sacrebleu.metrics.helpers``), with the same results.

User code imports these to inspect n-grams; rapidbleu's own scoring counts in Rust and never
calls them. Each copies the sacreBLEU 2.6.0 function of the same name.

Example:
    >>> extract_word_ngrams(["a", "b", "a", "b"], 2)
    Counter({'a b': 2, 'b a': 1})
"""

from __future__ import annotations

from collections import Counter

__all__ = [
    "extract_all_char_ngrams",
    "extract_all_word_ngrams",
    "extract_char_ngrams",
    "extract_word_ngrams",
]


def extract_all_word_ngrams(
    line: str, min_order: int, max_order: int
) -> tuple[Counter[tuple[str, ...]], int]:
    """All word n-grams with ``min_order <= n <= max_order`` and the token count.

    Example:
        >>> extract_all_word_ngrams("a b a", 1, 2)
        (Counter({('a',): 2, ('b',): 1, ('a', 'b'): 1, ('b', 'a'): 1}), 3)
    """
    tokens = line.split()
    ngrams = [
        tuple(tokens[i : i + n])
        for n in range(min_order, max_order + 1)
        for i in range(0, len(tokens) - n + 1)
    ]
    return Counter(ngrams), len(tokens)


def extract_word_ngrams(tokens: list[str], n: int) -> Counter[str]:
    """The n-grams of order ``n`` of a token list, joined by spaces.

    Example:
        >>> extract_word_ngrams("the cat".split(), 1)
        Counter({'the': 1, 'cat': 1})
    """
    return Counter([" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)])


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter[str]:
    """The character n-grams of order ``n`` (whitespace removed unless ``include_whitespace``).

    Example:
        >>> extract_char_ngrams("ab a", 2)
        Counter({'ab': 1, 'ba': 1})
    """
    if not include_whitespace:
        line = "".join(line.split())
    return Counter([line[i : i + n] for i in range(len(line) - n + 1)])


def extract_all_char_ngrams(
    line: str, max_order: int, include_whitespace: bool = False
) -> list[Counter[str]]:
    """The character n-grams of every order ``1..max_order``, one Counter per order.

    Example:
        >>> extract_all_char_ngrams("aba", 2)
        [Counter({'a': 2, 'b': 1}), Counter({'ab': 1, 'ba': 1})]
    """
    if not include_whitespace:
        line = "".join(line.split())
    return [
        Counter([line[i : i + n] for i in range(len(line) - n + 1)])
        for n in range(1, max_order + 1)
    ]
