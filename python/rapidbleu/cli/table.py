"""The multi-system table, as sacreBLEU prints it with ``tabulate`` (without depending on it).

sacreBLEU's ``print_results_table`` (``sacrebleu/utils.py``) calls ``tabulate(results,
headers="keys", tablefmt="fancy_grid" | "latex_booktabs", colalign=("right",),
stralign="center", numalign="center", floatfmt=".{width}f")``. This module reproduces that call
for its inputs (columns of strings): the column type tabulate infers (a column of numbers is
re-formatted with ``floatfmt``), ``str.strip`` of cells, centring with ``str.format``'s ``^``,
the minimum header padding of 2, wide characters when ``wcwidth`` is installed, and LaTeX
escaping. Colours are never printed (sacreBLEU's are stripped when stdout is not a terminal).
"""

from __future__ import annotations

import re
from typing import Callable

__all__ = ["fancy_grid", "latex_booktabs"]

# tabulate's _float_with_thousands_separators.
_THOUSANDS = re.compile(r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$")
_MIN_PADDING = 2  # tabulate.MIN_PADDING: headers get two spaces more than their width
# tabulate.LATEX_ESCAPE_RULES, used by the latex_booktabs rows.
_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}


def _convertible(conv: Callable[[str], object], s: str) -> bool:
    try:
        conv(s)
        return True
    except (ValueError, TypeError):
        return False


def _cell_type(s: str) -> int:
    """Column type of a str cell as tabulate's ``_type``: 0 empty, 1 bool, 2 int, 3 float, 5 str."""
    if not s:
        return 0
    if s in ("True", "False"):
        return 1
    if _convertible(int, s) or (_THOUSANDS.match(s) and "." not in s):
        return 2
    if _convertible(float, s):
        f = float(s)
        if (f not in (float("inf"), float("-inf")) and f == f) or s.lower() in (
            "inf",
            "-inf",
            "nan",
        ):
            return 3
    if _THOUSANDS.match(s):
        return 3
    return 5


def _format_cell(s: str, col_type: int, floatfmt: str) -> str:
    """Formats a str cell as tabulate's ``_format`` does in a column of ``col_type``."""
    if not s or col_type != 3:
        return s
    try:
        return format(float(s.replace(",", "")), floatfmt)
    except ValueError:
        return s


def _width_fn() -> Callable[[str], int]:
    try:  # tabulate measures with wcwidth when it is installed (WIDE_CHARS_MODE)
        import wcwidth  # type: ignore[import-not-found,unused-ignore]

        wcswidth: Callable[[str], int] = wcwidth.wcswidth
        return wcswidth
    except ImportError:
        return len


def _layout(
    headers: list[str], columns: list[list[str]], width: int
) -> tuple[list[str], list[list[str]], list[int], list[str]]:
    """Aligned headers, aligned cells (by column), column widths and alignments."""
    width_of = _width_fn()
    floatfmt = f".{width}f"
    types = [max((_cell_type(s) for s in col), default=1) for col in columns]
    aligns = ["right"] + ["center"] * (len(columns) - 1)  # colalign=("right",), the rest center
    out_cols: list[list[str]] = []
    widths: list[int] = []
    for header, col, ctype, align in zip(headers, columns, types, aligns):
        cells = [_format_cell(s, ctype, floatfmt).strip() for s in col]
        w = max(width_of(header) + _MIN_PADDING, *(width_of(c) for c in cells))
        pad = ">" if align == "right" else "^"
        # Wide characters: pad to the visible width, as tabulate's _align_column does.
        out_cols.append([f"{c:{pad}{w - (width_of(c) - len(c))}}" for c in cells])
        widths.append(w)
    aligned_headers = [
        f"{h:{'>' if a == 'right' else '^'}{w - (width_of(h) - len(h))}}"
        for h, w, a in zip(headers, widths, aligns)
    ]
    return aligned_headers, out_cols, widths, aligns


def fancy_grid(headers: list[str], columns: list[list[str]], width: int) -> str:
    """The table tabulate draws with ``tablefmt="fancy_grid"``.

    Args:
        headers: Column titles (``System``, then metric names).
        columns: Cells by column (strings; numbers as sacreBLEU formatted them).
        width: Decimals of ``floatfmt``.

    Returns:
        The table, without a final newline.

    Example:
        >>> print(fancy_grid(["System", "BLEU"], [["a.txt", "b"], ["36.1", "8.0"]], 1))
        ╒══════════╤════════╕
        │   System │  BLEU  │
        ╞══════════╪════════╡
        │    a.txt │  36.1  │
        ├──────────┼────────┤
        │        b │  8.0   │
        ╘══════════╧════════╛
    """
    heads, cols, widths, _ = _layout(headers, columns, width)

    def line(begin: str, fill: str, sep: str, end: str) -> str:
        return begin + sep.join(fill * (w + 2) for w in widths) + end

    def row(cells: list[str]) -> str:
        return "│" + "│".join(f" {c} " for c in cells) + "│"

    lines = [line("╒", "═", "╤", "╕"), row(heads), line("╞", "═", "╪", "╡")]
    rows = list(zip(*cols))
    for i, r in enumerate(rows):
        lines.append(row(list(r)))
        if i < len(rows) - 1:
            lines.append(line("├", "─", "┼", "┤"))
    lines.append(line("╘", "═", "╧", "╛"))
    return "\n".join(lines)


def latex_booktabs(headers: list[str], columns: list[list[str]], width: int) -> str:
    r"""The table tabulate writes with ``tablefmt="latex_booktabs"``.

    Args:
        headers: Column titles.
        columns: Cells by column.
        width: Decimals of ``floatfmt``.

    Returns:
        The LaTeX tabular, without a final newline.

    Example:
        >>> print(latex_booktabs(["System", "BLEU"], [["my_sys"], ["36.1"]], 1))
        \begin{tabular}{rc}
        \toprule
           System &  BLEU  \\
        \midrule
           my\_sys &  36.1  \\
        \bottomrule
        \end{tabular}
    """
    heads, cols, _, aligns = _layout(headers, columns, width)
    letters = {"right": "r", "center": "c"}

    def row(cells: list[str]) -> str:
        escaped = ["".join(_LATEX_ESCAPES.get(ch, ch) for ch in c) for c in cells]
        return ("&".join(f" {c} " for c in escaped) + "\\\\").rstrip()

    lines = [
        "\\begin{tabular}{" + "".join(letters[a] for a in aligns) + "}",
        "\\toprule",
        row(heads),
        "\\midrule",
        *(row(list(r)) for r in zip(*cols)),
        "\\bottomrule",
        "\\end{tabular}",
    ]
    return "\n".join(lines)
