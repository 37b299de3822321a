"""Paired significance tests on the command line: sacreBLEU's ``-pbs``/``-par``/``-ci`` options.

:func:`add_arguments` adds sacreBLEU's options (same spellings and defaults); :func:`run_paired`
runs the test for every metric of ``-m`` and renders it in the format of ``-f``
(:mod:`rapidbleu.cli.formats`), sacreBLEU's: the ``fancy_grid`` table (``-f text``),
``latex_booktabs`` (``-f latex``) or JSON, byte for byte, apart from the signature's version
field. Colours (sacreBLEU's colorama colours) are written only to a terminal, unless
``NO_COLOR`` is set or ``--no-color`` given; colorama strips them when sacreBLEU's output is
not a terminal.
"""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any, TextIO

import rapidbleu._config as _config
from rapidbleu.cli import formats
from rapidbleu.errors import InputError, InvalidOptionError
from rapidbleu.metrics.base import Metric
from rapidbleu.report.model import Results

logger = logging.getLogger("rapidbleu")

__all__ = ["add_arguments", "is_paired", "run_paired", "use_colors"]


def add_arguments(parser: argparse.ArgumentParser, *, report: bool = False) -> None:
    """Adds sacreBLEU's confidence-interval and paired-test options to ``parser``.

    Args:
        parser: The command's parser.
        report: For ``rapidbleu report``, which always computes intervals and a paired test
            (the bootstrap unless ``-par``): no ``-ci``, and no ``-j``.

    Example:
        >>> p = argparse.ArgumentParser()
        >>> add_arguments(p)
        >>> a = p.parse_args(["-pbs", "-pbsn", "50"])
        >>> a.paired_bs, a.paired_bs_n, a.paired_ar_n, a.confidence_n
        (True, 50, 10000, 1000)
    """
    sig = parser.add_argument_group("significance (whole corpus in memory)")
    if not report:
        sig.add_argument(
            "-ci", "--confidence", action="store_true", help="bootstrap CI, one system"
        )
    sig.add_argument(
        "-cin",
        "--confidence-n",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples of the confidence intervals (1000)"
        if report
        else "CI resamples (1000)",
    )
    choice = sig.add_mutually_exclusive_group()
    choice.add_argument(
        "-par", "--paired-ar", action="store_true", help="paired approx. randomisation"
    )
    choice.add_argument(
        "-pbs",
        "--paired-bs",
        action="store_true",
        help="paired bootstrap (the default)" if report else "paired bootstrap",
    )
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
    if not report:
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


def use_colors(args: argparse.Namespace, out: TextIO) -> bool:
    """SacreBLEU's colours: on a terminal, unless ``NO_COLOR`` or ``--no-color``."""
    if os.environ.get("NO_COLOR", False) or getattr(args, "no_color", False):
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def run_paired(
    args: argparse.Namespace,
    systems: list[tuple[str, list[str]]],
    references: list[list[str]],
    metrics: dict[str, Metric[Any]],
    out: TextIO,
    from_stdin: bool = False,
) -> int:
    """Runs sacreBLEU's paired test of ``systems`` (the first is the baseline) and prints it.

    Args:
        args: Parsed options (those of :func:`add_arguments`, plus ``format``, ``width`` and
            ``short``; ``no_color`` if the command has it).
        systems: ``(name, lines)`` per system, as given to ``-i``; the first is the baseline.
        references: Reference streams.
        metrics: The metrics, by name (each caches ``references``).
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
    # Imported here, not at the top: the parser imports this module, and the tests need NumPy,
    # which a command that runs no test never loads (a third of its start-up).
    from rapidbleu.analysis.significance import PairedTest, check_samples

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
    # sacreBLEU's `main` builds its metrics in `-m` order and PairedTest keeps that order (only
    # the other modes sort them by name): `-m chrf bleu -pbs` puts chrF first.
    order = [m for m in getattr(args, "metrics", []) if m in metrics]
    metrics = {**{m: metrics[m] for m in order}, **metrics}
    for metric in metrics.values():
        metric.cache_references(references)
    test_type = "bs" if args.paired_bs else "ar"
    n_samples = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    if n_samples > 0:  # 0 or less: the default (sacreBLEU's rule, kept by PairedTest)
        # Checked before the informational lines, so that a bad count is the only line on stderr.
        check_samples(n_samples, "n_samples")
    _config.seed()  # $SACREBLEU_SEED too: a bad one is the only line on stderr
    # sacreBLEU's informational lines on stderr (hidden by -q).
    logger.info(f"Found {len(named)} systems.")
    what = "bootstrap resampling" if test_type == "bs" else "approximate randomization"
    unit = "resamples" if test_type == "bs" else "trials"
    logger.info(f" > Performing paired {what} test (# {unit}: {n_samples})")
    test = PairedTest(named, metrics, None, test_type, n_samples, n_jobs=args.paired_jobs)
    sigs, table = test()
    # sacreBLEU's legend names the number of samples as given on the command line.
    results = Results.of_paired_test(table, sigs, test_type, n_samples)
    # --scale unit: scores, means and intervals on 0..1 (p-values are unchanged).
    results = results.scaled(100.0 if getattr(args, "scale", None) == "unit" else 1.0)
    n_segments = len(references[0]) if references else 0
    out.write(formats.render_results(results, args, n_segments, use_colors(args, out)))
    out.write("\n")
    return 0
