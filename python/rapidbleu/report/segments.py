"""The segments where systems differ most, with the words each output matches highlighted.

With several systems, the segments are ranked by the spread of their sentence scores (best
minus worst system, under the report's first metric); with one system, by its sentence score,
worst first. Each output is cut into pieces of text, each with the length of the longest
matched n-gram covering it (:func:`rapidbleu.report.ngrams.matched_positions`), located in the
original line (:func:`rapidbleu.report.words.spans`), so the page shows the text as the system
wrote it, not as the tokenizer split it.

Example:
    >>> pieces("the cat, sat", [2, 2, 0, 1], ["the", "cat", ",", "sat"])
    [('the cat', 2), (', ', 0), ('sat', 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rapidbleu.report.inputs import ReportInput, ReportOptions
from rapidbleu.report.ngrams import matched_positions, reference_ngrams
from rapidbleu.report.words import Words, spans

__all__ = ["OutputView", "SegmentView", "pieces", "select_segments"]

#: A piece of an output: its text and the longest matched n-gram over it (0: unmatched).
Piece = tuple[str, int]


@dataclass
class OutputView:
    """One system's output of a segment.

    Attributes:
        system: The system's position (0: the baseline).
        score: Its sentence score (the report's first metric).
        pieces: The text in highlighted pieces.
    """

    system: int
    score: float
    pieces: list[Piece]


@dataclass
class SegmentView:
    """One segment as the report shows it.

    Attributes:
        index: The segment's number (0-based; shown 1-based).
        spread: Best minus worst sentence score (0 with one system).
        source: The source line, when given.
        references: The references present.
        outputs: One per system, in system order.
    """

    index: int
    spread: float
    source: str | None
    references: list[str]
    outputs: list[OutputView]


def pieces(
    text: str, levels: Sequence[int], words: Sequence[str], lowercase: bool = False
) -> list[Piece]:
    """``text`` cut into runs of equal highlight level (the words' levels; gaps are 0).

    Args:
        text: The original line.
        levels: Per word, its level (from :func:`matched_positions`).
        words: The line's words.
        lowercase: The words were lowercased.

    Returns:
        The pieces, which join back to ``text``.
    """
    # Highlighted words as (start, end, level), in order; a word not found in the text is
    # left out (spans are increasing, so the runs never overlap).
    runs: list[list[int]] = []
    for (start, end), level in zip(spans(text, words, lowercase), levels):
        if start < 0 or not level:
            continue
        last = runs[-1] if runs else None
        # Two words of one level with only whitespace between: one run (and the space too).
        if last and last[2] == level and (last[1] == start or text[last[1] : start].isspace()):
            last[1] = end
        else:
            runs.append([start, end, level])
    out: list[Piece] = []
    pos = 0
    for start, end, level in runs:
        if start > pos:
            out.append((text[pos:start], 0))
        out.append((text[start:end], level))
        pos = end
    if pos < len(text) or not out:
        out.append((text[pos:], 0))
    return out


def _ranked(
    sentence: npt.NDArray[np.float64], higher_is_better: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Segment order (most different first) and each segment's spread."""
    spread = sentence.max(axis=0) - sentence.min(axis=0)
    if len(sentence) > 1:
        key = -spread
    else:
        key = sentence[0] if higher_is_better else -sentence[0]
    # Stable: equal keys keep segment order.
    return np.argsort(key, kind="stable"), spread


def select_segments(
    data: ReportInput,
    sentence: npt.NDArray[np.float64],
    higher_is_better: bool,
    sys_words: Sequence[Sequence[Sequence[str]]],
    ref_words: Sequence[Sequence[Sequence[str]]],
    words: Words,
    options: ReportOptions,
) -> list[SegmentView]:
    """The ``options.segments`` segments that differ most, ready to show.

    Args:
        data: The report's input.
        sentence: ``(systems, segments)`` sentence scores of the first metric.
        higher_is_better: That metric's direction.
        sys_words: Per system, the words of each segment.
        ref_words: Per reference stream, the words of each segment.
        words: The word splitter (for its case).
        options: The report's options.

    Returns:
        The segments, most different first.
    """
    order, spread = _ranked(sentence, higher_is_better)
    out = []
    for i in order[: options.segments].tolist():
        # The references' n-gram limits, counted once for every system's output.
        limits = reference_ngrams([stream[i] for stream in ref_words], options.max_order)
        outputs = []
        for s, (_, hyps) in enumerate(data.systems):
            levels = matched_positions(sys_words[s][i], limits)
            outputs.append(
                OutputView(
                    s,
                    float(sentence[s, i]),
                    pieces(hyps[i], levels, sys_words[s][i], words.lowercase),
                )
            )
        out.append(
            SegmentView(
                i,
                float(spread[i]),
                None if data.sources is None else data.sources[i],
                [r[i] for r in data.references if r[i] is not None],
                outputs,
            )
        )
    return out
