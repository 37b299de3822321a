"""``-f card``: the command's scores as a Markdown reporting card (:mod:`rapidbleu.report.card`).

The card is one more output format (its line in :mod:`rapidbleu.cli.formats`): the run is the
same (streamed scores, ``-ci``, or a paired test), only the rendering differs.
:func:`add_arguments` adds ``--notes``, the authors' notes on preprocessing that the card (and
the HTML report) quote.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rapidbleu.report.model import Results

__all__ = ["add_arguments", "card_text", "command_line"]


def add_arguments(parser: argparse.ArgumentParser, *, report: bool = False) -> None:
    """Adds ``--notes`` to the command's parser (``report``: to ``rapidbleu report``'s).

    Example:
        >>> p = argparse.ArgumentParser()
        >>> add_arguments(p)
        >>> p.parse_args(["--notes", "NFKC first"]).notes
        'NFKC first'
    """
    parser.add_argument(
        "--notes",
        default=None,
        metavar="TEXT",
        help="notes on preprocessing, quoted in the report's card"
        if report
        else "notes for the card (-f card) and the report",
    )


def command_line(argv: Sequence[str]) -> str:
    """The command as a shell would take it back.

    Example:
        >>> command_line(["ref.de", "-i", "my sys.de"])
        "rapidbleu ref.de -i 'my sys.de'"
    """
    return shlex.join(["rapidbleu", *argv])


def card_text(results: Results, args: argparse.Namespace, n_segments: int) -> str:
    """The card of a run of the command.

    Args:
        results: The scores the command computed (0..100).
        args: The parsed options (``refs``, ``language_pair``, ``notes``, ``command_line``).
        n_segments: Segments scored.

    Returns:
        The Markdown card.
    """
    from rapidbleu.report.card import CardContext, render_card  # only -f card needs it

    context = CardContext(
        n_segments,
        list(args.refs) if args.refs else ["stdin"],
        langpair=args.language_pair,
        notes=args.notes,
        command=getattr(args, "command_line", None),
    )
    return render_card(results, context, width=args.width)
