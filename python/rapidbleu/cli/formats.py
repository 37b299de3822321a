"""The command's output formats (``-f``): each name -> how results are rendered, one line each.

sacreBLEU's three formats (``json``, ``text``, ``latex``: :func:`rapidbleu.report.tables.render`,
byte for byte) and rapidbleu's Markdown reporting card (``card``: :mod:`rapidbleu.cli.card`).
The ``-f`` choices and help, ``$SACREBLEU_FORMAT``, the options a format cannot go with and
every place that renders results (files, ``-ci``, paired tests, ``--jsonl``) read this registry.

Example:
    >>> list(OUTPUT_FORMATS), OUTPUT_FORMATS["latex"].sacrebleu
    (['json', 'text', 'latex', 'card'], True)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from rapidbleu.cli import card
from rapidbleu.errors import UsageError
from rapidbleu.report.tables import render

if TYPE_CHECKING:
    from rapidbleu.report.model import Results

__all__ = [
    "OUTPUT_FORMATS",
    "SACREBLEU_FORMATS",
    "OutputFormat",
    "check",
    "help_text",
    "render_results",
]

#: ``(results, args, n_segments, colors) -> text``: what a format prints for results.
Renderer = Callable[["Results", argparse.Namespace, int, bool], str]


@dataclass(frozen=True)
class OutputFormat:
    """One output format of the command.

    Attributes:
        render: Renders results (0..100 or scaled) with the parsed options.
        sacrebleu: One of sacreBLEU's ``--format`` choices (``$SACREBLEU_FORMAT`` may name it).
        json: The JSON format: ``--jsonl`` writes its results as JSON records.
        refuses: The options it cannot go with, as ``(option's dest, flag)``.
        why: Why, after ``-f NAME``; ``{flag}`` is the flag given.
    """

    render: Renderer
    sacrebleu: bool = True
    json: bool = False
    refuses: tuple[tuple[str, str], ...] = ()
    why: str = ""


def _sacrebleu(results: Results, args: argparse.Namespace, n_segments: int, colors: bool) -> str:
    """SacreBLEU's lines or table (``print_single_results`` / ``print_results_table``)."""
    return render(
        results,
        args.format,
        args.width,
        score_only=bool(getattr(args, "score_only", False)),
        short=bool(getattr(args, "short", False)),
        colors=colors,
    )


def _card(results: Results, args: argparse.Namespace, n_segments: int, colors: bool) -> str:
    return card.card_text(results, args, n_segments)


_FILES_ONLY = "is for system files; with {flag} use -f json or -f text"
_CORPUS_ONLY = "describes corpus scores of files; drop {flag}"

#: Every output format, by its ``-f`` name (the first is the default).
OUTPUT_FORMATS: Mapping[str, OutputFormat] = MappingProxyType(
    {
        "json": OutputFormat(_sacrebleu, json=True),
        "text": OutputFormat(_sacrebleu),
        "latex": OutputFormat(_sacrebleu, refuses=(("jsonl", "--jsonl"),), why=_FILES_ONLY),
        "card": OutputFormat(
            _card,
            sacrebleu=False,
            refuses=(("sentence_level", "-sl"), ("jsonl", "--jsonl"), ("score_only", "-b")),
            why=_CORPUS_ONLY,
        ),
    }
)

#: sacreBLEU's ``--format`` choices, the formats ``$SACREBLEU_FORMAT`` may name.
SACREBLEU_FORMATS: tuple[str, ...] = tuple(n for n, f in OUTPUT_FORMATS.items() if f.sacrebleu)


def help_text() -> str:
    """The help of ``-f``: the formats, the first being the default.

    Example:
        >>> help_text()
        'json (default), text, latex or card ($SACREBLEU_FORMAT overrides)'
    """
    first, *others = OUTPUT_FORMATS
    listed = f"{first} (default), {', '.join(others[:-1])} or {others[-1]}"
    return listed + " ($SACREBLEU_FORMAT overrides)"


def check(args: argparse.Namespace) -> None:
    """Refuses a format with an option it cannot go with (``-f card -sl``, ``-f latex --jsonl``).

    Raises:
        rapidbleu.errors.UsageError: The message names the format and the option.

    Example:
        >>> check(argparse.Namespace(format="card", sentence_level=True))
        Traceback (most recent call last):
        ...
        rapidbleu.errors.UsageError: -f card describes corpus scores of files; drop -sl
    """
    fmt = OUTPUT_FORMATS.get(args.format)
    if fmt is None:
        return  # not a format: parse_args says so
    for dest, flag in fmt.refuses:
        if getattr(args, dest, None):
            raise UsageError(f"-f {args.format} " + fmt.why.format(flag=flag))


def render_results(
    results: Results, args: argparse.Namespace, n_segments: int, colors: bool = False
) -> str:
    """What the command prints for ``results`` in the format of ``-f`` (no final newline).

    Args:
        results: The scores.
        args: The parsed options (``format``, ``width``, ``score_only``, ``short``, and what
            the format reads).
        n_segments: Segments scored.
        colors: Colour the paired-test table (a terminal without ``NO_COLOR``).

    Returns:
        The text.
    """
    return OUTPUT_FORMATS[args.format].render(results, args, n_segments, colors)
