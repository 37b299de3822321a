"""The reference-nesting check in accelerator mode: warn where sacreBLEU would silently misread.

sacreBLEU reads references as streams (``references[k][i]``). Given one list per segment
(``references[i] = [ref1, ref2]``), it raises only when the lengths happen not to fit; when they
fit (as many segments as references per segment: a square corpus) it scores the wrong pairs
without a word. In accelerator mode every corpus-level call with a square corpus first goes
through :func:`rapidbleu.check_references` (one core call on a sample), and a corpus whose text
reads per segment gets a warning that shows the fix; the call itself is unchanged, so the program
still gets the number it always got. (A corpus whose shape cannot be streams is refused by
rapidbleu, and the mode's fallback warns with the same message: :mod:`.proxies`.)
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import RapidBleuError, ReferenceNestingError

__all__ = ["CORPUS_CALLS", "warn_if_nested"]

#: The calls whose first two arguments are a corpus' hypotheses and reference streams.
CORPUS_CALLS = frozenset(
    {"corpus_bleu", "raw_corpus_bleu", "corpus_chrf", "corpus_ter", "corpus_score"}
)


def _square(hypotheses: Any, references: Any) -> bool:
    n = len(hypotheses)
    return (
        n >= 2
        and len(references) == n
        and all(
            isinstance(s, Sequence) and not isinstance(s, str) and len(s) == n for s in references
        )
    )


def warn_if_nested(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Warns when a square corpus' references read per segment (see the module's notes).

    Args:
        name: The call's dotted name (``sacrebleu.corpus_bleu``), for the message.
        args: Its positional arguments (hypotheses and references first; no ``self``).
        kwargs: Its keyword arguments.

    Example:
        >>> import warnings
        >>> hyps = ["the cat sat on the mat", "a dog ran in the park"]
        >>> per_segment = [["the cat sat on a mat", "a cat sat on the mat"],
        ...                ["a dog ran in a park", "the dog ran in the park"]]
        >>> with warnings.catch_warnings(record=True) as seen:
        ...     warnings.simplefilter("always")
        ...     warn_if_nested("sacrebleu.corpus_bleu", (hyps, per_segment), {})
        >>> "look like one list per segment" in str(seen[0].message)
        True
    """
    hypotheses = args[0] if args else kwargs.get("hypotheses")
    references = args[1] if len(args) > 1 else kwargs.get("references")
    if not (
        isinstance(hypotheses, Sequence)
        and isinstance(references, Sequence)
        and _square(hypotheses, references)
    ):
        return
    from rapidbleu.analysis.nesting import check_references

    try:
        check_references(hypotheses, references)
    except ReferenceNestingError:
        pass  # the hypotheses read per segment: ask the references too, below
    except RapidBleuError:
        return  # not text the check can read; the call itself decides
    else:
        return
    # Hypotheses shifted by a line against valid streams read "per segment" too; nested
    # references are told by themselves: the references of one segment (references[i][k] in a
    # nested list) share words with each other, those of one stream's neighbours do not.
    if not _references_read_per_segment(references):
        return
    caller = sys._getframe(3)
    site = (caller.f_code.co_filename, caller.f_lineno)
    if site in _WARNED:
        return  # once per process and call site, whatever the warning filters say
    _WARNED.add(site)
    warnings.warn(
        f"rapidbleu.accelerate: {name} reads references as streams (references[k][i], the "
        f"k-th reference of segment i), but these {len(references)} lists of "
        f"{len(references)} look like one list per segment: the references in each list "
        "share more words with each other than with the other lists' references at the same "
        "position, and the hypotheses share more words with them read that way. If each list "
        "holds one segment's references, pass list(zip(*references)); the result is unchanged.",
        stacklevel=4,
    )


#: The call sites warned already (file, line).
_WARNED: set[tuple[str, int]] = set()

#: How many segments the references' own check samples.
_SAMPLE = 32


def _words(text: Any) -> set[str]:
    return set(text.lower().split()) if isinstance(text, str) else set()


def _references_read_per_segment(references: Sequence[Any]) -> bool:
    """Whether the references read as one list per segment.

    They do when the references of each list share clearly more words with each other (as one
    segment's references do) than with the other lists' references at the same position.
    """
    n = len(references)
    within = across = 0
    for i in range(min(n, _SAMPLE)):
        k = (i + 1) % n
        within += len(_words(references[i][i]) & _words(references[i][k]))
        across += len(_words(references[i][i]) & _words(references[k][i]))
    return within >= 2 * across + 4
