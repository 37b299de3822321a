"""The ``rapidbleu`` command: sacreBLEU's command line and output, streamed, with clear errors.

Output (text, json, latex; one or several systems; sentence level) is byte-identical to
``sacrebleu`` 2.6.0 given the same arguments, apart from the signature's version field. Errors
are one line on stderr: exit code 2 for a wrong command line, 1 for bad input, never a
traceback. The pieces: :mod:`~rapidbleu.cli.args` (options, with each metric's own),
:mod:`~rapidbleu.io.reader` (files in chunks), :mod:`~rapidbleu.cli.scoring` (streamed
statistics of any metrics), :mod:`~rapidbleu.report.tables` (sacreBLEU's formats, rendered from
the results model), :mod:`~rapidbleu.cli.paired` (significance tests),
:mod:`~rapidbleu.cli.jsonl` (``--jsonl`` items), :mod:`~rapidbleu.cli.formats` (``-f``) and
:mod:`~rapidbleu.cli.report` (``rapidbleu report``, the HTML report).
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, TextIO

from rapidbleu.cli import card, formats, paired, testsets
from rapidbleu.cli.args import parse_args
from rapidbleu.cli.progress import Progress
from rapidbleu.cli.scoring import (
    corpus_results,
    make_metrics,
    open_corpus,
    sentence_lines,
    whole_corpus,
)
from rapidbleu.errors import InputFileError, InvalidOptionError, RapidBleuError, UsageError
from rapidbleu.report.model import Results
from rapidbleu.version import SACREBLEU_VERSION, __version__

__all__ = ["console_main", "main"]


class _ClosedStdin(io.RawIOBase):
    """Standard input when the process has none (``<&-``): reading it is a clear error."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise InputFileError(
            "standard input is closed: give the system output with -i FILE (or pipe it in)"
        )


def _binary_stdin(stdin: Any) -> IO[bytes]:
    """The system output's byte stream: ``stdin.buffer``, or a text stream encoded as UTF-8."""
    if stdin is None:
        return io.BufferedReader(_ClosedStdin())
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        return buffer  # type: ignore[no-any-return]
    if isinstance(stdin, io.TextIOBase):
        return io.BytesIO(stdin.read().encode("utf-8", "surrogatepass"))
    return stdin  # type: ignore[no-any-return]


@contextmanager
def _logging(quiet: bool) -> Iterator[None]:
    """Shows rapidbleu's warnings on stderr as ``rapidbleu: ...`` (nothing with ``--quiet``)."""
    logger = logging.getLogger("rapidbleu")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("rapidbleu: %(message)s"))
    old_level, old_propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.ERROR if quiet else logging.INFO)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        logger.propagate = old_propagate


def _divisor(args: argparse.Namespace) -> float:
    """What scores are divided by: 100 for ``--scale unit`` (0..1), else 1 (sacreBLEU's)."""
    return 100.0 if args.scale == "unit" else 1.0


def _score_files(args: argparse.Namespace, stdin: IO[bytes], progress: Progress) -> Iterator[str]:
    """Scores reference and system files as sacreBLEU does (``main`` in ``sacrebleu.py``)."""
    if args.sentence_level and args.input is not None and len(args.input) > 1:
        raise UsageError("only one system can be evaluated in sentence-level mode")
    corpus = open_corpus(args, stdin)
    try:
        if args.sentence_level:
            yield from sentence_lines(args, corpus, progress)
            return
        results = corpus_results(args, corpus, progress)
    finally:
        corpus.close()
    yield formats.render_results(results.scaled(_divisor(args)), args, corpus.segments)


def _confidence(args: argparse.Namespace, stdin: IO[bytes]) -> Iterator[str]:
    """One system's scores with bootstrap confidence intervals (sacreBLEU's ``-ci``)."""
    systems, references = whole_corpus(args, stdin)
    if len(systems) > 1:
        # sacreBLEU's `main` refuses this combination with the same words.
        raise UsageError("Use paired tests (--paired) for multiple systems.")
    name, hyps = systems[0]
    scores, signatures = {}, {}
    for metric in make_metrics(args).values():
        metric.cache_references(references)
        score = metric.corpus_score(hyps, None, n_bootstrap=args.confidence_n)
        scores[score.name] = score
        signatures[score.name] = metric.get_signature()
    results = Results.of_scores({name: scores}, signatures)
    yield formats.render_results(results.scaled(_divisor(args)), args, len(hyps))


#: The first argument that runs ``rapidbleu report`` (:data:`rapidbleu.cli.report.COMMAND`).
REPORT_COMMAND = "report"

#: Output kept in memory before it spills to a temporary file (all-or-nothing output).
_SPOOL_BYTES = 8 << 20


def _run(args: argparse.Namespace, source: IO[bytes], out: TextIO) -> None:
    """Runs the scoring the options ask for, writing everything to ``out``."""
    progress = Progress(sys.stderr, enabled=not args.quiet)
    try:
        if args.jsonl is not None:
            from rapidbleu.cli.jsonl import jsonl_lines  # its dialects are not needed otherwise

            lines = jsonl_lines(args, source, progress)
        elif paired.is_paired(args):
            # The tests resample segments: the whole corpus is read into memory.
            systems, references = whole_corpus(args, source)
            metrics = make_metrics(args)
            paired.run_paired(args, systems, references, metrics, out, args.input is None)
            return
        elif args.confidence:
            lines = _confidence(args, source)
        else:
            lines = _score_files(args, source, progress)
        for line in lines:
            out.write(line + "\n")
    finally:
        progress.close()


def main(argv: Sequence[str] | None = None, stdin: TextIO | IO[bytes] | None = None) -> int:
    """Runs the command; returns its exit code.

    Exit codes: 0 success; 1 bad input or an input/output error (a missing file, text that is
    not valid in its encoding, different line counts, output that cannot be written, not
    enough memory); 2 a wrong command line or option value; 70 an internal error (a bug);
    130 interrupted. Every error is one line on stderr, and nothing is written to stdout then:
    output is produced in full (in memory, spilling to a temporary file) before any of it is
    written, so a late error never leaves half an output behind.

    Args:
        argv: Arguments without the program name (default ``sys.argv[1:]``); ``report ...``
            runs ``rapidbleu report`` (the HTML report).
        stdin: Where ``-`` and a missing ``-i`` read from (bytes or text; default
            ``sys.stdin``, read as bytes).

    Returns:
        The exit code.

    Example:
        >>> main(["--no-such-option"])
        2
    """
    out = sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    # `rapidbleu report ...`: the HTML report. Its modules are imported only when it runs:
    # they are a fifth of the command's start-up, which is most of its time on small files.
    is_report = argv[:1] == [REPORT_COMMAND]
    try:
        if is_report:
            from rapidbleu.cli import report
        args = report.parse_report_args(argv[1:]) if is_report else parse_args(argv)
        args.command_line = card.command_line(argv)
        formats.check(args)
        if out is None:
            raise InputFileError("standard output is closed: there is nowhere to write to")
        if args.version:
            out.write(f"rapidbleu {__version__} (sacreBLEU {SACREBLEU_VERSION} compatible)\n")
            return 0
        if testsets.is_info_request(args):
            # --list, --echo, --citation, --download: all lines first, so that an error (no
            # `datasets` extra after the heading line) leaves stdout empty, as errors do.
            text = "".join(line + "\n" for line in testsets.info_lines(args))
            out.write(text)
            return 0
        source = _binary_stdin(stdin if stdin is not None else sys.stdin)
        with (
            _logging(args.quiet),
            tempfile.SpooledTemporaryFile(
                _SPOOL_BYTES, "w+", encoding="utf-8", newline=""
            ) as buffer,
        ):
            if is_report:
                code = report.run(args, source, buffer)  # type: ignore[arg-type]
            else:
                _run(args, source, buffer)  # type: ignore[arg-type]
                code = 0
            buffer.seek(0)
            try:
                shutil.copyfileobj(buffer, out)
                out.flush()
            except BrokenPipeError:
                raise
            except OSError as e:
                raise InputFileError(f"cannot write the output: {e.strerror or e}") from None
            return code
    except InvalidOptionError as e:  # UsageError included
        print(f"rapidbleu: error: {e} (see rapidbleu --help)", file=sys.stderr)
        return 2
    except RapidBleuError as e:
        print(f"rapidbleu: error: {e}", file=sys.stderr)
        return 1
    except MemoryError:
        print(
            "rapidbleu: error: not enough memory for this input and these options", file=sys.stderr
        )
        return 1
    except KeyboardInterrupt:
        print("rapidbleu: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # console_main: `rapidbleu ... | head` stops quietly
    except Exception as e:  # never a traceback: a bug, named as one
        print(
            f"rapidbleu: internal error: {type(e).__name__}: {e}; this is a bug, please report it",
            file=sys.stderr,
        )
        return 70


def console_main() -> None:
    """Entry point of the ``rapidbleu`` script and ``python -m rapidbleu``."""
    # sacreBLEU writes UTF-8 whatever the locale says.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")
    try:
        code = main()
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        # `rapidbleu ... | head`: stop quietly, like a command whose reader went away.
        code = 141
    except OSError as e:
        print(f"rapidbleu: error: cannot write the output: {e.strerror or e}", file=sys.stderr)
        code = 1
    if code in (1, 141) and sys.stdout is not None:
        # What is left in stdout's buffer can never be written: drop it, so that the
        # interpreter's own flush at exit does not print a traceback.
        sys.stdout = open(os.devnull, "w")
    sys.exit(code)
