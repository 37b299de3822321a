"""The ``rapidbleu`` command line: sacreBLEU 2.6.0's spellings, grouped, plus rapidbleu's own.

Every option sacreBLEU's ``parse_args`` (``sacrebleu/sacrebleu.py``) defines for scoring files
keeps its spelling and default here. Each metric declares its own options
(:attr:`Metric.CLI_OPTIONS <rapidbleu.metrics.Metric.CLI_OPTIONS>`); they are added as one
group per metric, stored as ``<metric>_<keyword>`` (sacreBLEU's ``args_to_dict`` convention)
and handed back to the metric by :func:`metric_kwargs`. sacreBLEU's test-set options (``-t``,
``--list``, ``--echo``, ``--origlang``, ``--subset``, ``--citation``, ``--download``) go through
sacreBLEU's own registry and cache (:mod:`rapidbleu.cli.testsets`, the ``datasets`` extra).
A wrong command line raises
:class:`rapidbleu.errors.UsageError` (exit 2).
"""

from __future__ import annotations

import argparse
import codecs
import math
from typing import Any, NoReturn

import rapidbleu._config as _config
from rapidbleu.cli import card, formats, paired
from rapidbleu.errors import UsageError
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.registry import metric_class, metric_classes, metric_names

__all__ = [
    "COMMAND_DEFAULTS",
    "DEFAULT_WIDTH",
    "SCALES",
    "HelpFormatter",
    "add_options",
    "build_parser",
    "metric_kwargs",
    "new_parser",
    "parse_args",
]

#: ``--scale`` choices: 0..1 or sacreBLEU's 0..100.
SCALES = ["unit", "percent"]
#: ``--encoding-errors`` choices (Python's codec error handlers that keep going or stop).
ENCODING_ERRORS = ["strict", "replace", "ignore", "backslashreplace"]


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help in 100 columns with options up to 32 wide, so that ``--help`` stays short."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=32, width=100)


class _Parser(argparse.ArgumentParser):
    """argparse that raises :class:`UsageError` instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


#: Decimals printed without ``-w``: sacreBLEU's 1 on its 0..100 scale; 4 on the 0..1 scale
#: (``--scale unit``, the default with ``--jsonl``), the same two decimals of a percentage
#: that papers print (0.5478 is 54.78), where 1 would print 0.5.
DEFAULT_WIDTH = {"percent": 1, "unit": 4}

#: What the command's options set when a parser (``rapidbleu report``'s) leaves them out.
COMMAND_DEFAULTS: dict[str, Any] = {
    "format": "json",
    "width": None,
    "score_only": False,
    "short": False,
    "scale": None,
    "no_color": False,
    "per_item": False,
    "candidate_field": None,
    "sentence_level": False,
    "confidence": False,
    "paired_jobs": 1,
}


def new_parser(prog: str, usage: str, description: str) -> argparse.ArgumentParser:
    """An empty parser of the command's kind: its help layout, errors as :class:`UsageError`.

    Example:
        >>> new_parser("rapidbleu x", "rapidbleu x FILE", "Does x.").prog
        'rapidbleu x'
    """
    return _Parser(prog=prog, usage=usage, description=description, formatter_class=HelpFormatter)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (short ``--help``, options in groups).

    Example:
        >>> build_parser().parse_args(["ref.de", "-i", "hyp.de", "-tok", "intl"]).bleu_tokenize
        'intl'
    """
    p = new_parser(
        prog="rapidbleu",
        usage="rapidbleu REF [REF ...] [-i HYP [HYP ...]] [options] | --jsonl FILE | report ...",
        description=(
            "sacreBLEU-exact BLEU, chrF and TER, fast. Same options and output as `sacrebleu`.\n"
            "  rapidbleu ref.de -i hyp.de -f text          one system\n"
            "  rapidbleu ref.de -i a.de b.de               several systems (a table)\n"
            "  rapidbleu ref.de < hyp.de -sl               sentence level, from stdin\n"
            "  rapidbleu --jsonl items.jsonl --per-item    LLM-style items, one JSON per line\n"
            "  rapidbleu report ref.de -i a.de b.de -o r.html   the HTML comparison report"
        ),
    )
    add_options(p, report=False)
    return p


def add_options(parser: argparse.ArgumentParser, *, report: bool) -> None:
    """Adds the options of the command, or those that ``rapidbleu report`` uses.

    The report reads the same inputs with the same metric, test-set and significance options,
    but prints no scores: it has no output options but ``-q``, no sentence level, and its
    ``-m`` defaults to every metric. What it leaves out is set to the command's defaults
    (:data:`COMMAND_DEFAULTS`), so that :func:`parse_args` checks both alike.

    Args:
        parser: The parser to add to.
        report: Whether it is ``rapidbleu report``'s.
    """
    p = parser
    p.add_argument("refs", nargs="*", default=[], metavar="REF", help="reference files")
    io = p.add_argument_group("input")
    io.add_argument(
        "-i",
        "--input",
        nargs="*",
        default=None,
        metavar="HYP",
        help="system output file(s) (default: stdin, systems tab-separated)",
    )
    io.add_argument(
        "-nr",
        "--num-refs",
        type=int,
        default=1,
        metavar="N",
        help="references per line of a single, tab-separated reference file",
    )
    io.add_argument(
        "-e", "--encoding", default="utf-8", metavar="ENC", help="input encoding (default utf-8)"
    )
    io.add_argument(
        "--encoding-errors",
        default="strict",
        metavar="{strict,replace,...}",
        help="undecodable bytes: strict (stop, default), replace, ignore or backslashreplace",
    )
    io.add_argument(
        "--jsonl",
        metavar="FILE",
        help="items, one JSON object a line (candidate, references); - for stdin",
    )
    if not report:
        io.add_argument("--per-item", action="store_true", help="with --jsonl: one line per item")
    _add_jsonl_field_options(io, candidates=not report)
    io.add_argument(
        "-l",
        "--language-pair",
        metavar="SRC-TRG",
        help="TRG picks the default tokenizer (zh, ja-mecab, ko-mecab, 13a)",
    )
    scoring = p.add_argument_group("metrics")
    # The report shows the registered metrics made for it unless -m says otherwise; the
    # command BLEU.
    reported = [name for name, cls in metric_classes().items() if cls.in_default_report]
    default_metrics = reported if report else ["bleu"]
    scoring.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        default=default_metrics,
        metavar="METRIC",
        help="metrics to compute: "
        + ", ".join(metric_names())
        + f" (default: {' '.join(default_metrics)})",
    )
    if not report:
        scoring.add_argument(
            "-sl", "--sentence-level", action="store_true", help="one score a line"
        )
    added: set[tuple[str, ...]] = set()
    for cls in _metric_list():
        _add_metric_options(p, cls, added)
    out = p.add_argument_group("output")
    if not report:
        out.add_argument(
            "-f",
            "--format",
            default="json",
            metavar="FMT",
            help=formats.help_text(),
        )
        out.add_argument(
            "-w",
            "--width",
            type=int,
            default=None,
            metavar="W",
            help="decimals (default 1; 4 on the 0..1 scale, as with --jsonl)",
        )
        out.add_argument("-b", "--score-only", action="store_true", help="print only the score")
        out.add_argument("-sh", "--short", action="store_true", help="short signature")
        out.add_argument(
            "--scale",
            default=None,
            metavar="{unit,percent}",
            help="0..1 or 0..100 (default: unit with --jsonl, else sacreBLEU's 0..100)",
        )
    out.add_argument("-q", "--quiet", action="store_true", help="no warnings, no progress bar")
    if not report:
        out.add_argument("-nc", "--no-color", action="store_true", help="no colours (paired tests)")
    out.add_argument("-V", "--version", action="store_true", help="print the version")
    _add_test_set_options(p)
    paired.add_arguments(p, report=report)
    card.add_arguments(p, report=report)
    if report:
        p.set_defaults(**COMMAND_DEFAULTS)


def _add_test_set_options(parser: argparse.ArgumentParser) -> None:
    """SacreBLEU's test-set options (the ``datasets`` extra: sacreBLEU's registry and cache)."""
    g = parser.add_argument_group("sacreBLEU test sets (extra: datasets)")
    g.add_argument("-t", "--test-set", default=None, metavar="TEST", help="e.g. wmt17 (with -l)")
    g.add_argument("--list", action="store_true", help="test sets (or with -t: their fields)")
    g.add_argument("--echo", nargs="+", default=None, metavar="FIELD", help="print src/ref/...")
    g.add_argument("-ol", "--origlang", default=None, metavar="LANG", help="documents of LANG")
    g.add_argument("--subset", default=None, metavar="RE", help="documents whose subset matches")
    hidden = argparse.SUPPRESS
    g.add_argument("--download", default=None, help=hidden)
    g.add_argument("--citation", "--cite", action="store_true", help=hidden)
    # Not supported: refused with a clear message in parse_args.
    g.add_argument("-d", "--detail", action="store_true", help=hidden)


def _check_test_set_options(args: argparse.Namespace) -> bool:
    """Where the test-set options cannot apply; returns whether references come from ``-t``."""
    if args.detail:
        raise UsageError("-d/--detail (per-origlang breakdown) is not supported by rapidbleu")
    if args.echo is not None and (args.test_set is None or args.language_pair is None):
        raise UsageError("--echo needs a test set (-t) and a language pair (-l)")
    if args.citation and args.test_set is None:
        raise UsageError("--citation needs a test set (-t)")
    if args.test_set is None:
        if args.origlang is not None or args.subset is not None:
            raise UsageError("--origlang/--subset need a test set (-t) and a language pair (-l)")
        return False
    if args.jsonl is not None:
        raise UsageError("-t/--test-set brings its own references; it cannot go with --jsonl")
    if args.refs:
        raise UsageError(
            "give either a test set (-t) or reference files, not both "
            "(reference files go before -i)"
        )
    if args.num_refs != 1:
        raise UsageError("-nr/--num-refs is for reference files, not -t/--test-set")
    if args.language_pair is None and not (args.list or args.citation):
        raise UsageError("-t/--test-set needs a language pair (-l); --list -t TEST lists them")
    return True


def _add_jsonl_field_options(group: Any, *, candidates: bool) -> None:
    """``--candidate-field`` / ``--references-field``: the JSONL fields to read."""
    if candidates:  # the report names its systems' fields with --candidates
        group.add_argument(
            "--candidate-field",
            nargs="+",
            default=None,
            metavar="FIELD",
            help="with --jsonl: candidate field(s); several compare systems",
        )
    group.add_argument(
        "--references-field", default=None, metavar="FIELD", help="with --jsonl: references field"
    )


def _check_jsonl_fields(args: argparse.Namespace) -> None:
    """The JSONL field options need ``--jsonl``."""
    if args.jsonl is None:
        for opt, flag in (
            ("candidate_field", "--candidate-field"),
            ("references_field", "--references-field"),
        ):
            if getattr(args, opt) is not None:
                raise UsageError(f"{flag} needs --jsonl FILE")
        return
    if args.candidate_field is not None and len(set(args.candidate_field)) != len(
        args.candidate_field
    ):
        raise UsageError("--candidate-field: each field at most once")


def _metric_list() -> list[type[Metric[Any]]]:
    """The registered metric classes, in sacreBLEU's order (sorted by name: BLEU, CHRF, TER)."""
    return list(metric_classes().values())


def _metric_options() -> dict[tuple[str, ...], tuple[CliOption, str]]:
    """Each metric option's flags -> the option and where its value is stored.

    The value is stored as ``<cli_name>_<keyword>`` of the first registered metric that
    declares the option.

    A metric that reuses another's options (a subclass inheriting ``CLI_OPTIONS``: spBLEU as
    ``SPBLEU(BLEU)``) shares them: one flag on the command line, one value, read by both.

    Example:
        >>> _metric_options()[("-lc", "--lowercase")][1]
        'bleu_lowercase'
    """
    out: dict[tuple[str, ...], tuple[CliOption, str]] = {}
    for cls in _metric_list():
        for opt in cls.CLI_OPTIONS:
            out.setdefault(opt.flags, (opt, f"{cls.cli_name}_{opt.kwarg}"))
    return out


def _add_metric_options(
    parser: argparse.ArgumentParser, cls: type[Metric[Any]], added: set[tuple[str, ...]]
) -> None:
    """One group with the options ``cls`` declares that no metric before it did.

    ``added`` holds the flags added so far; each value is stored as ``<cli_name>_<keyword>``.
    """
    new = [opt for opt in cls.CLI_OPTIONS if opt.flags not in added]
    if not new:
        return
    group = parser.add_argument_group(cls.__name__)
    for opt in new:
        added.add(opt.flags)
        dest = f"{cls.cli_name}_{opt.kwarg}"
        if opt.is_flag:
            group.add_argument(*opt.flags, dest=dest, action="store_true", help=opt.help)
        else:
            group.add_argument(
                *opt.flags,
                dest=dest,
                type=opt.type,
                default=opt.default,
                metavar=opt.metavar,
                help=opt.help,
            )


def metric_kwargs(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """The constructor keywords of metric ``name`` that the command line asks for.

    sacreBLEU's ``args_to_dict(args, name, strip_prefix=True)``.

    Example:
        >>> metric_kwargs(parse_args(["ref", "-lc"]), "bleu")["lowercase"]
        True
    """
    stored = _metric_options()
    return {
        opt.kwarg: getattr(args, stored[opt.flags][1])
        for opt in metric_class(name).CLI_OPTIONS
        if hasattr(args, stored[opt.flags][1])
    }


def _check_metric_options(args: argparse.Namespace) -> None:
    """Each metric option's value against what the metric declares (choices, minimum)."""
    for opt, dest in _metric_options().values():
        value = getattr(args, dest)
        flags = "/".join(sorted(opt.flags, key=len))
        if value is None or opt.is_flag:
            continue
        if opt.choices is not None:
            _one_of(flags, value, list(opt.choices))
        if opt.minimum is not None and (not math.isfinite(value) or value < opt.minimum):
            what = "a finite number" if isinstance(value, float) else ""
            raise UsageError(
                f"{flags} must be {what + ' ' if what else ''}>= {opt.minimum}, got {value}"
            )


def _one_of(option: str, value: str, allowed: list[str]) -> None:
    if value not in allowed:
        raise UsageError(f"{option}: invalid choice {value!r}; allowed: " + ", ".join(allowed))


def parse_args(
    argv: list[str], parser: argparse.ArgumentParser | None = None
) -> argparse.Namespace:
    """Parses and checks the command line.

    Args:
        argv: The arguments, without the program name.
        parser: :func:`build_parser`'s parser with more options (``rapidbleu report``).

    Returns:
        The options, with ``trg_lang`` ("" without ``-l``) and ``scale`` filled in.

    Raises:
        rapidbleu.errors.UsageError: The command line is wrong; the message says how.

    Example:
        >>> parse_args(["ref", "-l", "en-zh"]).trg_lang
        'zh'
    """
    args = (parser or build_parser()).parse_args(argv)
    if args.version:
        return args
    # sacreBLEU: the SACREBLEU_FORMAT environment variable overrides -f when it is valid.
    args.format = _config.output_format(args.format, formats.SACREBLEU_FORMATS)
    _one_of("-f/--format", args.format, list(formats.OUTPUT_FORMATS))
    _check_metric_options(args)
    _one_of("--encoding-errors", args.encoding_errors, ENCODING_ERRORS)
    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise UsageError(
            f"-e/--encoding: unknown encoding {args.encoding!r} (e.g. utf-8, latin-1, utf-16)"
        ) from None
    if args.scale is not None:
        _one_of("--scale", args.scale, SCALES)
    for m in args.metrics:
        _one_of("-m/--metrics", m, metric_names())
    if len(set(args.metrics)) != len(args.metrics):
        raise UsageError("-m/--metrics: each metric at most once")
    if args.sentence_level and len(args.metrics) > 1:
        # sacreBLEU's `main` refuses this combination with the same words.
        raise UsageError("Only one metric can be used in sentence-level mode.")
    from_test_set = _check_test_set_options(args)
    info_only = bool(args.list or args.echo or args.citation or args.download)
    # JSONL keeps full precision unless -w is given; printed numbers default to
    # DEFAULT_WIDTH's decimals for their scale (set below, once the scale is known).
    args.width_given = args.width
    if args.width is not None and args.width < 0:
        raise UsageError(f"-w/--width must be >= 0, got {args.width}")
    _check_jsonl_fields(args)
    if args.num_refs < 1:
        raise UsageError(f"-nr/--num-refs must be >= 1, got {args.num_refs}")
    args.trg_lang = ""
    if args.language_pair is not None:
        parts = args.language_pair.split("-")
        if len(parts) < 2 or not parts[1]:
            raise UsageError(
                "-l/--language-pair must look like SRC-TRG (e.g. en-de), "
                f"got {args.language_pair!r}"
            )
        args.trg_lang = parts[1]
    if args.jsonl is not None:
        if args.refs or args.input is not None:
            raise UsageError("--jsonl FILE carries its own references; give no REF and no -i")
        if args.sentence_level:
            raise UsageError("with --jsonl, use --per-item for one score per item")
    elif not info_only:
        if args.per_item:
            raise UsageError("--per-item needs --jsonl FILE")
        if not args.refs and not from_test_set:
            raise UsageError(
                "no reference files: rapidbleu REF [REF ...] -i HYP (give references before -i)"
            )
        if args.num_refs != 1 and len(args.refs) > 1:
            raise UsageError("-nr/--num-refs splits ONE reference file on tabs; give only one REF")
        if args.input is not None and len(args.input) == 0:
            raise UsageError("-i/--input needs at least one file")
    if args.confidence or paired.is_paired(args):
        _check_significance(args)
    if args.scale is None:
        args.scale = "unit" if args.jsonl is not None else "percent"
    if args.width is None:
        args.width = DEFAULT_WIDTH[args.scale]
    return args


def _check_significance(args: argparse.Namespace) -> None:
    """Where ``--confidence`` / ``--paired-bs`` / ``--paired-ar`` cannot apply."""
    if args.sentence_level:
        # sacreBLEU's `main` refuses this combination with the same words.
        raise UsageError("Statistical tests are unavailable in sentence-level mode.")
    if args.jsonl is not None:
        raise UsageError("--confidence and the paired tests apply to system files, not --jsonl")
