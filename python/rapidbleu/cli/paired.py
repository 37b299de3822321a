"""Paired significance tests on the command line: sacreBLEU's ``-pbs``/``-par`` options and table.

:func:`add_arguments` adds sacreBLEU's options (same spellings and defaults);
:func:`run_paired` runs the test and prints sacreBLEU's output (``utils.print_results_table``):
the ``fancy_grid`` table (``-f text``), ``latex_booktabs`` (``-f latex``) or JSON, byte for byte,
apart from the signature's version field. Tables are drawn by ``tabulate``, as sacreBLEU does.
Colours (sacreBLEU's colorama colours) are written only to a terminal, unless ``NO_COLOR`` is
set or ``--no-color`` given; colorama strips them when sacreBLEU's output is not a terminal.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from typing import Any, TextIO

from rapidbleu.errors import InputError, InvalidOptionError
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.significance import PairedTest

__all__ = ["add_arguments", "is_paired", "run_paired"]

_COLORS = {"red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}
_RESET = "\x1b[0m"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds sacreBLEU's confidence-interval and paired-test options to ``parser``.

    Args:
        parser: The command's parser.

    Example:
        >>> p = argparse.ArgumentParser()
        >>> add_arguments(p)
        >>> a = p.parse_args(["-pbs", "-pbsn", "50"])
        >>> a.paired_bs, a.paired_bs_n, a.paired_ar_n, a.confidence_n
        (True, 50, 10000, 1000)
    """
    sig = parser.add_argument_group("significance (whole corpus in memory)")
    sig.add_argument("-ci", "--confidence", action="store_true", help="bootstrap CI, one system")
    sig.add_argument(
        "-cin", "--confidence-n", type=int, default=1000, metavar="N", help="CI resamples (1000)"
    )
    choice = sig.add_mutually_exclusive_group()
    choice.add_argument(
        "-par", "--paired-ar", action="store_true", help="paired approx. randomisation"
    )
    choice.add_argument("-pbs", "--paired-bs", action="store_true", help="paired bootstrap")
    sig.add_argument(
        "-parn", "--paired-ar-n", type=int, default=10000, metavar="N", help="AR trials (10000)"
    )
    sig.add_argument(
        "-pbsn",
        "--paired-bs-n",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples (1000)",
    )
    sig.add_argument(
        "-j",
        "--paired-jobs",
        type=int,
        default=1,
        metavar="N",
        help="accepted; the tests use all cores",
    )


def is_paired(args: argparse.Namespace) -> bool:
    """Whether a paired test was requested (``--paired-bs`` or ``--paired-ar``)."""
    return bool(getattr(args, "paired_bs", False) or getattr(args, "paired_ar", False))


def _use_colors(args: argparse.Namespace, out: TextIO) -> bool:
    if os.environ.get("NO_COLOR", False) or getattr(args, "no_color", False):
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def _color(msg: str, color: str, enabled: bool) -> str:
    return f"{_COLORS[color]}{msg}{_RESET}" if enabled else msg


def _format_score_lines(
    scores: dict[str, list[Any]], width: int, multiline: bool, colors: bool
) -> dict[str, list[str]]:
    """SacreBLEU's ``utils._format_score_lines``."""
    new_scores: dict[str, list[Any]] = {"System": scores.pop("System")}
    p_val_break_char = "\n" if multiline else " "
    is_bootstrap = False

    def _color_p_value(p: float) -> str:
        msg = f"(p = {p:.4f})"
        if p > 0.05:
            return _color(msg, "red", colors)
        return msg + "*"

    for metric, vals in scores.items():
        new_vals = []
        for result in vals:
            if not isinstance(result, str):
                _str = f"{result.score:.{width}f}"
                if result.mean is not None:
                    is_bootstrap = True
                    _str += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
                if result.p_value is not None:
                    _str += p_val_break_char + _color_p_value(result.p_value)
            else:
                _str = result
            new_vals.append(_str)
        if is_bootstrap:
            metric += " (μ ± 95% CI)"
        new_scores[metric] = new_vals
    return new_scores


def print_results_table(
    results: dict[str, list[Any]],
    signatures: Mapping[str, str],
    args: argparse.Namespace,
    out: TextIO,
) -> None:
    """SacreBLEU's ``utils.print_results_table``, written to ``out``."""
    from tabulate import tabulate  # type: ignore[import-untyped]

    def say(text: str = "") -> None:
        out.write(text + "\n")

    colors = _use_colors(args, out)
    if args.format == "json":
        proper_json = []
        keys = list(results.keys())
        for i in range(len(results["System"])):
            value: dict[str, Any] = {"system": results["System"][i]}
            for key in keys[1:]:
                item = results[key][i]
                value[key] = item if isinstance(item, str) else item.__dict__
            proper_json.append(value)
        say(json.dumps(proper_json, indent=4))
        return
    tablefmt = {"text": "fancy_grid", "latex": "latex_booktabs"}.get(args.format, args.format)
    formatted = _format_score_lines(
        results, args.width, multiline=tablefmt == "fancy_grid", colors=colors
    )
    new_dict = {}
    has_baseline = False
    baseline_name = ""
    for name in formatted:
        val = formatted[name]
        if val[0].startswith("Baseline:") or has_baseline:
            if val[0].startswith("Baseline:"):
                baseline_name = val[0]
            has_baseline = True
            val[0] = _color(val[0], "yellow", colors)
        new_dict[_color(name, "cyan", colors)] = formatted[name]
    say(
        tabulate(
            new_dict,
            headers="keys",
            tablefmt=tablefmt,
            colalign=("right",),
            stralign="center",
            numalign="center",
            floatfmt=f".{args.width}f",
        )
    )
    say()
    if is_paired(args):
        test_type = "bootstrap resampling" if args.paired_bs else "approximate randomization"
        n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        kind = "resampling trials" if args.paired_bs else "trials"
        msg = f"Paired {test_type} test with {n} {kind}"
        bline = _color("baseline", "yellow", colors)
        bline_name = _color(baseline_name, "yellow", colors)
        null_hyp = _color("Null hypothesis", "green", colors)
        pval_color = _color("highlighted in red", "red", colors)
        say("-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg))
        say(f" - Each system is pairwise compared to {bline_name}.")
        if args.paired_bs:
            say(
                "   Actual system score / bootstrap estimated true mean / 95% CI are provided "
                "for each metric."
            )
        else:
            say("   Actual system score is provided for each metric.")
        say()
        say(f" - {null_hyp}: the system and the {bline} translations are essentially")
        say(f"   generated by the same underlying process. For a given system and the {bline},")
        say("   the p-value is roughly the probability of the absolute score difference (delta)")
        say(
            "   or higher occurring due to chance, under the assumption that the "
            f"{null_hyp.lower()} is correct."
        )
        say()
        say(f" - Assuming a significance threshold of 0.05, the {null_hyp.lower()} can be rejected")
        say(
            '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely '
            "to be attributed"
        )
        say(f'   to chance, hence the system is significantly "different" than the {bline}.')
        say(f"   Otherwise, the p-values are {pval_color}.")
        say()
        say(
            ' - NOTE: Significance does not tell whether a system is "better" than the '
            f"{bline} but rather"
        )
        say(
            '   emphasizes the "difference" of the systems in terms of the replicability of '
            "the delta."
        )
        say()
    say("-----------------")
    say("Metric signatures")
    say("-----------------")
    for name, sig in signatures.items():
        say(f" - {name:<10} {sig}")


def run_paired(
    args: argparse.Namespace,
    systems: list[tuple[str, list[str]]],
    references: list[list[str]],
    metric_kwargs: dict[str, Any],
    out: TextIO,
    from_stdin: bool = False,
) -> int:
    """Runs sacreBLEU's paired test of ``systems`` (the first is the baseline) and prints it.

    Args:
        args: Parsed options (those of :func:`add_arguments`, plus ``format``, ``width`` and
            ``short``; ``no_color`` if the command has it).
        systems: ``(name, lines)`` per system, as given to ``-i``; the first is the baseline.
        references: Reference streams.
        metric_kwargs: Options of :class:`~rapidbleu.metrics.BLEU` (``tokenize``,
            ``lowercase``, ...).
        out: Where to print.
        from_stdin: The systems came from stdin's tab-separated columns: named ``Baseline``,
            ``System 1``, ... as sacreBLEU's ``main`` names them.

    Returns:
        0.

    Raises:
        rapidbleu.errors.InputError: Two systems with one name.
        rapidbleu.errors.InvalidOptionError: Fewer than two systems,
            or no paired test requested.
    """
    if not is_paired(args):
        raise InvalidOptionError(
            "several systems need a paired test: add --paired-bs or --paired-ar "
            "(--confidence is for a single system)"
        )
    named: list[tuple[str, list[str]]] = []
    for name, lines in systems:
        if named and name == named[0][0]:
            continue  # sacreBLEU ignores a system that is also the baseline.
        if any(name == n for n, _ in named):
            raise InputError(
                f"{name!r} already used to name a system; give each system a different file name"
            )
        named.append((name, lines))
    if len(named) < 2:
        raise InvalidOptionError(
            "Paired tests require multiple input systems given to --input (-i)."
        )
    if from_stdin:
        named = [
            ("Baseline" if i == 0 else f"System {i}", lines) for i, (_, lines) in enumerate(systems)
        ]
    else:
        named[0] = (f"Baseline: {named[0][0]}", named[0][1])
    metric = BLEU(**metric_kwargs, references=references)
    test_type = "bs" if args.paired_bs else "ar"
    n_samples = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    test = PairedTest(named, {"BLEU": metric}, None, test_type, n_samples, n_jobs=args.paired_jobs)
    sigs, scores = test()
    short = bool(getattr(args, "short", False))
    print_results_table(scores, {k: v.format(short) for k, v in sigs.items()}, args, out)
    return 0
