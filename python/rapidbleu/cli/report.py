"""``rapidbleu report``: the HTML comparison report (:mod:`rapidbleu.report.html`) from the command.

Two ways in, with the command's input, metric and significance options (``-m``, ``-l``,
``-tok``, ``-lc``, ``-pbs``/``-par`` and their sample counts, ``-cin``, ``-e``, ``-nr``, ...);
it has no output options (``-f``, ``-w``, ``-b``, ``--scale``): it writes a page.

- files: ``rapidbleu report REF [REF ...] -i SYS [SYS ...] -o report.html [--source SRC]``;
- items: ``rapidbleu report --jsonl items.jsonl --candidates sys_a sys_b -o report.html``, one
  JSON object a line with a field per system, the references (``reference``/``references``)
  and, optionally, the source (``source``/``src``).

The first system is the baseline unless ``--baseline`` names another. Significance is the
paired bootstrap unless ``-par`` asks for approximate randomisation.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, TextIO

from rapidbleu.cli.args import add_options, metric_kwargs, new_parser, parse_args
from rapidbleu.cli.scoring import make_metrics, whole_corpus
from rapidbleu.errors import EmptyInputError, InputError, InputFileError, UsageError
from rapidbleu.extras import install_hint
from rapidbleu.io.reader import CHUNK_LINES, LineReader, open_input
from rapidbleu.items import CANDIDATE_KEYS, REFERENCE_KEYS
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.metrics.checks import count_tokenized
from rapidbleu.report.build import ReportInput, ReportOptions, build_report
from rapidbleu.report.html import render_html, require_extra
from rapidbleu.report.words import Words, word_metric

__all__ = [
    "COMMAND",
    "SOURCE_KEYS",
    "build_report_parser",
    "parse_report_args",
    "run",
]

#: The sub-command's name: ``rapidbleu report ...``.
COMMAND = "report"
#: Fields of a ``--jsonl`` item that hold the source, in order of preference.
SOURCE_KEYS = ("source", "src", "input")


def build_report_parser() -> argparse.ArgumentParser:
    """The parser of ``rapidbleu report``: the command's inputs and metrics, the report's options.

    Only options the report uses are there (no ``-f``, ``-w``, ``-b``, ``--scale``, ``-sl``):
    :func:`rapidbleu.cli.args.add_options` with ``report=True``.

    Example:
        >>> build_report_parser().parse_args(["ref", "-i", "a", "b", "-o", "r.html"]).output
        'r.html'
    """
    p = new_parser(
        prog="rapidbleu report",
        usage=(
            "rapidbleu report REF [REF ...] -i SYS [SYS ...] -o report.html [--source SRC]"
            " [options]\n       rapidbleu report --jsonl FILE --candidates FIELD [FIELD ...]"
            " [--references-field F] -o report.html"
        ),
        description=(
            "One self-contained HTML file comparing systems: BLEU, chrF and TER (or the metrics\n"
            "of -m) with 95% confidence intervals and paired significance against the baseline\n"
            "(the first system; the paired bootstrap unless -par), charts, scores by bucket,\n"
            "n-gram differences, the segments where systems differ most, and a reporting card.\n"
            "Needs the report extra:\n  " + install_hint("report")
        ),
    )
    add_options(p, report=True)
    g = p.add_argument_group("report")
    g.add_argument("-o", "--output", metavar="FILE", help="the HTML file to write (- for stdout)")
    g.add_argument("--source", metavar="FILE", help="source lines, shown with each segment")
    g.add_argument(
        "--baseline",
        metavar="SYS",
        help="the system the others are compared with (default: the first)",
    )
    g.add_argument(
        "--candidates",
        nargs="+",
        metavar="FIELD",
        help="with --jsonl: the fields holding each system's output (default: the candidate "
        "field, e.g. prediction)",
    )
    g.add_argument(
        "--segments", type=int, default=200, metavar="N", help="segments listed (default 200)"
    )
    g.add_argument("--title", metavar="TEXT", help="the report's title")
    return p


#: Options of the command that the report refuses with a reason (the others it lacks are
#: refused by argparse as unrecognised).
_REFUSED = {
    ("-sl", "--sentence-level"): "the report shows sentence scores itself; drop -sl",
}


def parse_report_args(argv: list[str]) -> argparse.Namespace:
    """Parses and checks ``rapidbleu report``'s arguments (without ``report``).

    Raises:
        rapidbleu.errors.UsageError: The command line is wrong; the message says how.

    Example:
        >>> parse_report_args(["ref", "-i", "a", "-o", "r.html", "-pbsn", "10"]).paired_bs_n
        10
    """
    for flags, message in _REFUSED.items():
        if any(a in flags for a in argv):
            raise UsageError(message)
    args = parse_args(argv, build_report_parser())
    if args.version:
        return args
    if not args.output:
        raise UsageError("rapidbleu report needs -o FILE (the HTML file to write; - for stdout)")
    if args.segments < 1:
        raise UsageError(f"--segments must be >= 1, got {args.segments}")
    if args.candidates is not None and args.jsonl is None:
        raise UsageError("--candidates names fields of --jsonl items; give --jsonl FILE")
    if args.source is not None and args.jsonl is not None:
        raise UsageError("--jsonl items carry their own source (a 'source' field); drop --source")
    return args


def _read_lines(path: str, args: argparse.Namespace, stdin: IO[bytes]) -> list[str]:
    reader = LineReader(
        path, open_input(path, stdin), args.encoding, args.encoding_errors, owns_stream=path != "-"
    )
    lines: list[str] = []
    try:
        while chunk := reader.read(CHUNK_LINES):
            lines.extend(chunk)
    finally:
        reader.close()
    return lines


def _from_files(args: argparse.Namespace, stdin: IO[bytes]) -> ReportInput:
    systems, references = whole_corpus(args, stdin)
    sources = None if args.source is None else _read_lines(args.source, args, stdin)
    return ReportInput(
        list(systems),
        references,
        sources,
        list(args.refs),
        args.source,
        args.language_pair,
    )


def _field(obj: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if k in obj), None)


def _from_jsonl(args: argparse.Namespace, stdin: IO[bytes]) -> ReportInput:
    """Items with one field per system (``--candidates``), references and an optional source."""
    name = "stdin" if args.jsonl == "-" else args.jsonl
    fields: list[str] = list(args.candidates or [])
    outputs: dict[str, list[str]] = {}
    refs: list[list[str]] = []
    sources: list[str] = []
    source_key: str | None = None
    first_ref_key = ""
    for number, line in enumerate(_read_lines(args.jsonl, args, stdin), 1):
        if not line.strip():
            continue
        where = f"{name}: line {number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        if not fields:
            key = _field(obj, CANDIDATE_KEYS)
            if key is None:
                raise InputError(
                    f"{where}: no candidate field; name the systems' fields with --candidates "
                    f"(this item has: {', '.join(obj)})"
                )
            fields = [key]
        if not outputs:
            outputs = {f: [] for f in fields}
            source_key = _field(obj, SOURCE_KEYS)
        for f in fields:
            value = obj.get(f)
            if not isinstance(value, str):
                what = "missing" if f not in obj else f"{type(value).__name__}, not a string"
                raise InputError(f"{where}: the field {f!r} (--candidates) is {what}")
            outputs[f].append(value)
        ref_key = getattr(args, "references_field", None) or _field(obj, REFERENCE_KEYS)
        item_refs = obj.get(ref_key) if ref_key else None
        if isinstance(item_refs, str):
            item_refs = [item_refs]
        if (
            not isinstance(item_refs, list)
            or not item_refs
            or not all(isinstance(r, str) for r in item_refs)
        ):
            raise InputError(
                f"{where}: references must be a string or a non-empty list of strings, under "
                + (repr(ref_key) if args.references_field else " or ".join(REFERENCE_KEYS))
                + " (name the field with --references-field)"
            )
        refs.append(item_refs)
        first_ref_key = first_ref_key or str(ref_key)
        if source_key is not None:
            src = obj.get(source_key)
            if not isinstance(src, str):
                raise InputError(f"{where}: the source field {source_key!r} must be a string")
            sources.append(src)
    if not refs:
        raise EmptyInputError(f"{name}: no items (every line is blank)")
    width = max(len(r) for r in refs)
    # Items may have different numbers of references: streams padded with None (missing).
    streams: list[list[str | None]] = [
        [r[k] if k < len(r) else None for r in refs] for k in range(width)
    ]
    return ReportInput(
        [(f, outputs[f]) for f in fields],
        streams,
        sources if source_key is not None else None,
        [f"{name} ({first_ref_key})"],
        f"{name} ({source_key})" if source_key else None,
        args.language_pair,
    )


def _with_baseline(data: ReportInput, baseline: str | None) -> ReportInput:
    """``data`` with the system named ``baseline`` (path or file name) moved first."""
    if baseline is None:
        return data
    names = [n for n, _ in data.systems]
    matches = [i for i, n in enumerate(names) if baseline in (n, n.rsplit("/", 1)[-1])]
    if len(matches) != 1:
        raise UsageError(
            f"--baseline {baseline!r} names {'no' if not matches else 'more than one'} system; "
            "systems: " + ", ".join(names)
        )
    first = data.systems[matches[0]]
    data.systems = [first] + [s for i, s in enumerate(data.systems) if i != matches[0]]
    return data


def run(args: argparse.Namespace, stdin: IO[bytes], out: TextIO) -> int:
    """Builds the report the arguments ask for and writes it.

    Args:
        args: From :func:`parse_report_args`.
        stdin: Where ``-`` and a missing ``-i`` read from.
        out: Standard output (for ``-o -``).

    Returns:
        0.

    Raises:
        rapidbleu.errors.MissingDependencyError: Jinja2 or vl-convert-python is missing.
        rapidbleu.errors.RapidBleuError: Bad input (the message says what).
    """
    require_extra()  # before reading anything: say what to install at once
    data = _from_jsonl(args, stdin) if args.jsonl is not None else _from_files(args, stdin)
    data = _with_baseline(data, args.baseline)
    metrics = make_metrics(args, force=True)
    sentence_metrics = make_metrics(args, sentence_level=True, force=True)
    if any(metric_kwargs(args, m).get("force") is False for m in args.metrics):
        # sacreBLEU's tokenized-input warning, once per system (not once per pass over it).
        first = next(iter(metrics.values()))
        for name, hyps in data.systems:
            first.warn_tokenized(count_tokenized(hyps), name)
    # The word views are in the words of the report's metric that counts them; without one
    # (-m chrf), in BLEU's words with the command's BLEU options.
    word_counter = word_metric(metrics.values()) or BLEU.from_command_line(
        metric_kwargs(args, "bleu"), trg_lang=args.trg_lang
    )
    words = Words(word_counter)
    options = ReportOptions(
        test="ar" if args.paired_ar else "bs",
        n_samples=args.paired_ar_n if args.paired_ar else args.paired_bs_n,
        confidence_n=args.confidence_n,
        segments=args.segments,
    )
    report = build_report(data, metrics, sentence_metrics, words=words, options=options)
    page = render_html(report, command=args.command_line, notes=args.notes, title=args.title)
    if args.output == "-":
        out.write(page)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as e:
            raise InputFileError(f"{args.output}: cannot write the report ({e.strerror})") from None
        if not args.quiet:
            size = len(page.encode("utf-8")) / 1e6
            print(
                f"rapidbleu: wrote {args.output} ({size:.1f} MB): {len(data.systems)} systems, "
                f"{len(data.systems[0][1]):,} segments",
                file=sys.stderr,
            )
    return 0
