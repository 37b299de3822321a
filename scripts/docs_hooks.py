"""MkDocs hooks of the documentation site (``hooks:`` in ``mkdocs.yml``).

The command-line reference is rendered from the argparse parsers at build time, so it cannot
drift from the command: a line ``<!-- rapidbleu-help: COMMAND -->`` in a page becomes the
``--help`` text of ``rapidbleu`` (COMMAND ``rapidbleu``) or ``rapidbleu report`` (``report``),
in a code block. The parsers lay their help out at a fixed width (100 columns), whatever the
terminal, so the page is the same on every machine.

The docstrings are Google style with reStructuredText roles (``:func:`~rapidbleu.x.f```), as
Sphinx and the doctests read them. :class:`RestToMarkdown`, a griffe extension that
mkdocstrings loads (``extensions:`` in ``mkdocs.yml``), gives mkdocstrings Markdown: a role
becomes inline code, and an ``Example:`` section is parsed as examples (code, not prose).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

from rapidbleu.cli.args import build_parser
from rapidbleu.cli.report import build_report_parser

MARKER = re.compile(r"^<!-- rapidbleu-help: (\S+) -->$", re.M)

PARSERS = {"rapidbleu": build_parser, "report": build_report_parser}


def help_text(command: str) -> str:
    """The ``--help`` output of ``command`` (a key of :data:`PARSERS`)."""
    return PARSERS[command]().format_help().rstrip()


def _render(match: re.Match[str]) -> str:
    command = match.group(1)
    if command not in PARSERS:
        raise ValueError(f"unknown command in {match.group(0)!r}; known: {', '.join(PARSERS)}")
    return f"```text\n{help_text(command)}\n```"


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Replaces each help marker of a page with that command's help."""
    return MARKER.sub(_render, markdown)


#: ``:func:`name``` / ``:class:`~a.b.C``` / ``:meth:`Title <a.b.C.m>```, any role.
ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`<]*?)(?:\s*<([^`>]+)>)?`")
#: A Google-style ``Example:`` heading (griffe knows only ``Examples:``).
EXAMPLE = re.compile(r"^(\s*)Example:[ \t]*$", re.M)


def _role(match: re.Match[str]) -> str:
    short, text, target = match.groups()
    if target is not None:  # `Title <target>`: the title
        return f"`{text.strip()}`"
    name = text.strip()
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


def rest_to_markdown(docstring: str) -> str:
    """A docstring's reStructuredText roles as inline code; ``Example:`` as ``Examples:``.

    Example:
        >>> rest_to_markdown("See :func:`~rapidbleu.items.bleu` and :class:`a.B`.")
        'See `bleu` and `a.B`.'
    """
    return EXAMPLE.sub(r"\1Examples:", ROLE.sub(_role, docstring))


class RestToMarkdown(griffe.Extension):
    """Rewrites every docstring with :func:`rest_to_markdown` before mkdocstrings parses it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Called by griffe for each object it loads."""
        if obj.docstring is not None:
            obj.docstring.value = rest_to_markdown(obj.docstring.value)
