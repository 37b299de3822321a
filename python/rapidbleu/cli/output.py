"""What the command prints: sacreBLEU's output formats, byte for byte.

Single system: one ``Score.format`` line or JSON object (``print_single_results``); several
systems: a table and the signature block, or a JSON list (``print_results_table``); sentence
level: one line per segment. All in ``sacrebleu/sacrebleu.py`` and ``sacrebleu/utils.py``.
Tables are drawn by sacreBLEU's ``print_results_table`` as copied in
:mod:`rapidbleu.cli.paired` (with ``tabulate``, as sacreBLEU draws them).
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Sequence
from typing import Any

from rapidbleu.cli.paired import print_results_table
from rapidbleu.metrics.bleu import BLEU, BLEUScore

__all__ = ["single_result", "single_results", "system_table"]


def single_result(score: BLEUScore, metric: BLEU, args: argparse.Namespace) -> str:
    """One system's result as sacreBLEU's ``main`` prints it (a text line or a JSON object).

    JSON always carries the long signature (``-sh`` applies to text only), as in sacreBLEU.

    Example:
        >>> from rapidbleu.cli.args import parse_args
        >>> metric = BLEU()
        >>> s = metric.corpus_score(["a b c d"], [["a b c d"]])
        >>> single_result(s, metric, parse_args(["ref", "-f", "text", "-b"]))
        '100.0'
    """
    sig = metric.get_signature().format(args.short if args.format != "json" else False)
    line = score.format(args.width, args.score_only, sig, args.format == "json")
    return single_results([line], args.format)


def single_results(results: Sequence[str], fmt: str) -> str:
    """Joins results as sacreBLEU's ``print_single_results``: one per metric, aligned on ``=``.

    Example:
        >>> single_results(["BLEU = 1.0"], "text")
        'BLEU = 1.0'
    """
    if fmt == "json":
        return "[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0]
    if len(results) == 1:
        return results[0]
    lens = []
    lines = []
    for line in results:
        if "=" in line:
            lens.append(line.index("=") - 1)
        else:
            lines.append(line)  # printed at once, as sacreBLEU does
    if lens:
        w = max(lens)
        lines += [f"{line[:n]:>{w}}{line[n:]}" for n, line in zip(lens, results)]
    return "\n".join(lines)


def system_table(
    names: Sequence[str],
    scores: dict[str, list[str]],
    signatures: dict[str, str],
    fmt: str,
    width: int,
) -> str:
    """Formats several systems as sacreBLEU's ``print_results_table`` (no paired tests).

    Args:
        names: The systems' names.
        scores: Per metric name (``BLEU``), each system's score as formatted text.
        signatures: Per metric name, its signature string.
        fmt: ``json``, ``text`` (a fancy grid) or ``latex`` (booktabs).
        width: Decimals.

    Returns:
        The text to print (ending without a newline).

    Example:
        >>> print(system_table(["a", "b"], {"BLEU": ["1.0", "2.0"]}, {"BLEU": "sig"}, "json", 1))
        [
            {
                "system": "a",
                "BLEU": "1.0"
            },
            {
                "system": "b",
                "BLEU": "2.0"
            }
        ]
    """
    # sacreBLEU's own function (tabulate's fancy_grid / latex_booktabs), without colours.
    args = argparse.Namespace(
        format=fmt, width=width, no_color=True, paired_bs=False, paired_ar=False
    )
    results: dict[str, list[Any]] = {"System": list(names), **scores}
    out = io.StringIO()
    print_results_table(results, signatures, args, out)
    return out.getvalue().removesuffix("\n")
