"""The ``rapidbleu`` command: BLEU of one system against reference files, like ``sacrebleu``.

This first version covers single-system scoring with sacreBLEU's spellings and output formats
(text and JSON, byte-identical to ``sacrebleu`` 2.6.0 apart from the signature's version
field). Several systems, JSONL items, streaming and compressed input come next.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from rapidbleu.cli import paired
from rapidbleu.errors import InputError, InvalidTextError, LengthMismatchError, RapidBleuError
from rapidbleu.metrics.bleu import BLEU
from rapidbleu.tokenizers import TOKENIZERS

__all__ = ["console_main", "main"]


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="rapidbleu",
        description="sacreBLEU-exact BLEU, fast. Example: rapidbleu ref.de -i hyp.de -f text",
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment a line")
    io = p.add_argument_group("input")
    io.add_argument(
        "-i", "--input", metavar="HYP", nargs="+", help="system output file(s) (default: stdin)"
    )
    io.add_argument("-l", "--language-pair", help="SRC-TRG; TRG chooses the default tokenizer")
    bleu = p.add_argument_group("BLEU")
    bleu.add_argument("-tok", "--tokenize", choices=TOKENIZERS, default=None)
    bleu.add_argument("-lc", "--lowercase", action="store_true")
    bleu.add_argument("-s", "--smooth-method", choices=list(BLEU.SMOOTH_DEFAULTS), default="exp")
    bleu.add_argument("-sv", "--smooth-value", type=float, default=None)
    bleu.add_argument("--force", action="store_true", help="do not warn about tokenized input")
    bleu.add_argument("-sl", "--sentence-level", action="store_true", help="one score a line")
    out = p.add_argument_group("output")
    out.add_argument("-w", "--width", type=int, default=1, help="decimals (default 1)")
    out.add_argument("-f", "--format", choices=["json", "text", "latex"], default="json")
    out.add_argument("-b", "--score-only", action="store_true")
    out.add_argument("-sh", "--short", action="store_true", help="short signature")
    out.add_argument("-nc", "--no-color", action="store_true", help="no terminal colours")
    paired.add_arguments(p)
    return p


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InvalidTextError(
            f"{name}: not valid UTF-8 at line {line} (byte offset {e.start}); "
            "convert the file to UTF-8 (for example with iconv)"
        ) from None


def _read_lines(path: str) -> list[str]:
    # sacreBLEU opens files with newline="\n" (a lone "\r" is not a line break) and rstrips.
    try:
        with open(path, "rb") as f:
            text = _decode(f.read(), path)
    except FileNotFoundError:
        raise InputError(f"file not found: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a file") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _read_stdin(stdin: TextIO | BinaryIO) -> list[str]:
    """The system output from stdin, split as sacreBLEU does (universal newlines)."""
    # sacreBLEU reads io.TextIOWrapper(sys.stdin.buffer): "\r", "\n" and "\r\n" all end a line.
    raw: str | bytes = getattr(stdin, "buffer", stdin).read()
    text = _decode(raw, "stdin") if isinstance(raw, bytes) else raw
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _run(args: argparse.Namespace, stdin: TextIO | BinaryIO) -> list[str]:
    refs = [_read_lines(r) for r in args.refs]
    inputs = args.input or [None]
    systems = [(name, _read_lines(name) if name else _read_stdin(stdin)) for name in inputs]
    for name, hyps in systems:
        hyp_name = name or "the system output on stdin"
        for path, ref in zip(args.refs, refs):
            if len(ref) != len(hyps):
                raise LengthMismatchError(
                    f"{path} has {len(ref)} lines but {hyp_name} has {len(hyps)}; "
                    "references and system output need one segment per line each"
                )
    hyps = systems[0][1]
    trg_lang = ""
    if args.language_pair:
        if "-" not in args.language_pair:
            raise _UsageError("--language-pair must look like SRC-TRG, e.g. en-de")
        trg_lang = args.language_pair.split("-")[1]
    metric_kwargs = dict(
        lowercase=args.lowercase,
        force=args.force,
        tokenize=args.tokenize,
        smooth_method=args.smooth_method,
        smooth_value=args.smooth_value,
        effective_order=args.sentence_level,
        trg_lang=trg_lang,
    )
    if args.sentence_level and (args.confidence or paired.is_paired(args)):
        raise _UsageError("Statistical tests are unavailable in sentence-level mode.")
    if len(systems) > 1 or paired.is_paired(args):
        buf = io.StringIO()
        named = [(name or "System 1", lines) for name, lines in systems]
        paired.run_paired(args, named, refs, metric_kwargs, buf)
        return buf.getvalue().splitlines()
    metric = BLEU(**metric_kwargs, references=refs)
    if args.sentence_level:
        lines = []
        for hyp, *seg_refs in zip(hyps, *refs):
            score = metric.sentence_score(hyp, seg_refs)
            sig = metric.get_signature().format(args.short)
            lines.append(score.format(args.width, args.score_only, sig))
        return lines
    score = metric.corpus_score(hyps, None, args.confidence_n if args.confidence else 1)
    is_json = args.format == "json"
    sig = metric.get_signature().format(args.short if not is_json else False)
    return [score.format(args.width, args.score_only, sig, is_json)]


def main(argv: Sequence[str] | None = None, stdin: TextIO | BinaryIO | None = None) -> int:
    """Runs the command; returns its exit code (0 ok, 1 bad input, 2 usage error).

    Args:
        argv: Arguments without the program name (default ``sys.argv[1:]``).
        stdin: Where to read the system output when ``-i`` is not given (text or bytes;
            default ``sys.stdin``, read as UTF-8 bytes).

    Returns:
        The exit code.

    Example:
        >>> main(["--no-such-option"])
        2
    """
    try:
        args = _parser().parse_args(argv)
        lines = _run(args, stdin if stdin is not None else sys.stdin)
    except _UsageError as e:
        print(f"rapidbleu: error: {e} (see rapidbleu --help)", file=sys.stderr)
        return 2
    except RapidBleuError as e:
        print(f"rapidbleu: error: {e}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def console_main() -> None:
    """Entry point of the ``rapidbleu`` script."""
    sys.exit(main())
