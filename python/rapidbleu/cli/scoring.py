"""Scoring files as a stream, for any set of metrics: statistics per chunk, folded in order.

Each metric's rows of a chunk are folded into running corpus statistics
(:meth:`Metric.accumulate <rapidbleu.metrics.Metric.accumulate>`: a column sum for BLEU and
chrF), so the corpus score of a file equals the score of the whole file in memory, with memory
bounded by one chunk. The steps mirror sacreBLEU's ``main`` (``sacrebleu/sacrebleu.py``): read
the references and systems (:func:`open_corpus`), build the metrics (:func:`make_metrics`),
score (:func:`corpus_results`, :func:`sentence_lines`).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator
from typing import IO, Any

from rapidbleu.cli.args import metric_kwargs
from rapidbleu.cli.progress import Progress
from rapidbleu.errors import EmptyInputError, InputError, UsageError
from rapidbleu.io.reader import CHUNK_LINES, Corpus, LineReader, open_input, read_all
from rapidbleu.metrics import metric_classes
from rapidbleu.metrics.base import Metric, count_tokenized
from rapidbleu.report.model import Results

logger = logging.getLogger("rapidbleu")

__all__ = [
    "corpus_results",
    "make_metrics",
    "open_corpus",
    "sentence_lines",
    "whole_corpus",
]


def make_metrics(
    args: argparse.Namespace, sentence_level: bool = False, **overrides: Any
) -> dict[str, Metric[Any]]:
    """The metrics of ``-m``, in sacreBLEU's order (sorted by name), built from the options.

    Args:
        args: Parsed options.
        sentence_level: Sentence-level scores are asked for (BLEU turns effective order on).
        **overrides: Constructor keywords that replace the options' (e.g. ``force=True``).

    Returns:
        Metric name (``bleu``, ``chrf``, ...) -> metric.

    Example:
        >>> from rapidbleu.cli.args import parse_args
        >>> make_metrics(parse_args(["ref", "-tok", "intl"]))["bleu"].tokenizer_signature
        'intl'
    """
    classes = metric_classes()
    out: dict[str, Metric[Any]] = {}
    for name in sorted(args.metrics):
        options = metric_kwargs(args, name)
        options.update({k: v for k, v in overrides.items() if k in options})
        out[name] = classes[name].from_command_line(
            options, trg_lang=args.trg_lang, sentence_level=sentence_level
        )
    return out


def _checks_tokenized(args: argparse.Namespace) -> bool:
    """Whether the tokenized-period warning is wanted (a metric with ``force`` off)."""
    return any(metric_kwargs(args, name).get("force") is False for name in args.metrics)


def open_corpus(args: argparse.Namespace, stdin: IO[bytes], unique_names: bool = True) -> Corpus:
    """Opens every reference and system file (sacreBLEU's "read references/systems").

    Args:
        args: Parsed options (``refs``, ``input``, ``encoding``, ``encoding_errors``,
            ``num_refs``).
        stdin: Where ``-`` and a missing ``-i`` read from.
        unique_names: Refuse a file given twice with ``-i``. Paired tests pass ``False``:
            sacreBLEU's ``main`` skips a system named like the baseline there.

    Returns:
        The opened corpus; close it when done.

    Raises:
        rapidbleu.errors.InputFileError: A file is missing or unreadable.
        rapidbleu.errors.InputError: Two systems have the same name.
    """
    if getattr(args, "test_set", None) is not None:
        # References from sacreBLEU's test-set cache (-t), systems as below.
        from rapidbleu.cli import testsets

        return testsets.open_corpus(args, stdin, unique_names)
    enc, errors = args.encoding, args.encoding_errors
    refs = [LineReader(p, open_input(p), enc, errors) for p in args.refs]
    if args.input is None:
        systems = [
            LineReader("stdin", stdin, enc, errors, universal_newlines=True, owns_stream=False)
        ]
        names: list[str] = []  # known after the first line: System 1, System 2, ...
    else:
        names = []
        for p in args.input:
            if unique_names and p in names:
                raise InputError(
                    f"{p!r} is given twice with -i; give each system a different file name"
                )
            names.append(p)
        systems = [
            LineReader(p, open_input(p, stdin), enc, errors, owns_stream=p != "-")
            for p in args.input
        ]
    return Corpus(
        names,
        list(args.refs),
        refs,
        systems,
        num_refs=args.num_refs,
        from_stdin=args.input is None,
    )


def whole_corpus(
    args: argparse.Namespace, stdin: IO[bytes]
) -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    r"""Every system as ``(name, lines)`` and every reference stream, all in memory.

    For what needs the whole corpus at once: sacreBLEU's significance tests resample segments.
    Files are read, decoded, split (``-nr``, tab-separated stdin) and checked as when
    streaming. A file given twice with ``-i`` is kept twice (the paired test skips a repeat of
    the baseline, as sacreBLEU's ``main`` does). Systems from stdin are named ``System 1``,
    ``System 2``, ...

    Args:
        args: Parsed options.
        stdin: Where ``-`` and a missing ``-i`` read from.

    Returns:
        ``(systems, references)``.

    Raises:
        rapidbleu.errors.EmptyInputError: The files have no lines.
        rapidbleu.errors.LengthMismatchError: Files differ in line count.

    Example:
        >>> import io, os, tempfile
        >>> from rapidbleu.cli.args import parse_args
        >>> ref = os.path.join(tempfile.mkdtemp(), "ref")
        >>> with open(ref, "w") as f:
        ...     _ = f.write("a b\nc d\n")
        >>> whole_corpus(parse_args([ref]), io.BytesIO(b"a b\tx\nc\ty\n"))
        ([('System 1', ['a b', 'c']), ('System 2', ['x', 'y'])], [['a b', 'c d']])
    """
    corpus = open_corpus(args, stdin, unique_names=False)
    try:
        systems, refs = read_all(corpus)
    finally:
        corpus.close()
    if not systems:
        raise EmptyInputError("nothing to score: the input files have no lines")
    names = corpus.system_names or [f"System {i + 1}" for i in range(len(systems))]
    return list(zip(names, systems)), refs


def corpus_results(args: argparse.Namespace, corpus: Corpus, progress: Progress) -> Results:
    """Every metric's corpus score of every system, reading the files one chunk at a time.

    Returns:
        The results (systems in order; ``corpus.system_names`` is filled in).

    Raises:
        rapidbleu.errors.EmptyInputError: The files have no lines.
    """
    check_periods = _checks_tokenized(args)
    # force=True: the tokenized-period warning is counted per system across chunks, as
    # sacreBLEU warns once per system, not once per chunk.
    metrics = make_metrics(args, force=True)
    totals: list[dict[str, Any]] = []
    periods: list[int] = []
    for systems, refs in corpus.chunks(CHUNK_LINES):
        if not totals:
            totals = [dict.fromkeys(metrics) for _ in systems]
            periods = [0] * len(systems)
        for metric in metrics.values():
            if len(systems) > 1:
                # This chunk's references are prepared once for all systems (as sacreBLEU's
                # metric(references=...) does for the whole corpus).
                metric.cache_references(refs)
            for i, hyps in enumerate(systems):
                rows = metric.statistics(hyps, None if len(systems) > 1 else refs)
                totals[i][metric.cli_name] = metric.accumulate(totals[i][metric.cli_name], rows)
        if check_periods:
            for i, hyps in enumerate(systems):
                periods[i] += count_tokenized(hyps)
        progress.update(len(refs[0]))
    if not totals:
        raise EmptyInputError("nothing to score: the input files have no lines")
    if not corpus.system_names:
        corpus.system_names = [f"System {i + 1}" for i in range(len(totals))]
    if len(totals) > 1:
        logger.info(f"Found {len(totals)} systems.")  # sacreBLEU's line on stderr (not with -q)
    for name, n in zip(corpus.system_names, periods):
        next(iter(metrics.values())).warn_tokenized(n, name)
    scores: dict[str, dict[str, Any]] = {}
    signatures = {}
    for name, sys_totals in zip(corpus.system_names, totals):
        scores[name] = {}
        for metric in metrics.values():
            score = metric.score_totals(sys_totals[metric.cli_name])
            scores[name][score.name] = score
            signatures[score.name] = metric.get_signature()
    return Results.of_scores(scores, signatures)


def sentence_lines(args: argparse.Namespace, corpus: Corpus, progress: Progress) -> Iterator[str]:
    """Yields sacreBLEU's ``--sentence-level`` lines, one per segment, produced chunk by chunk.

    Raises:
        rapidbleu.errors.UsageError: More than one system.
    """
    # sacreBLEU scores one segment at a time here, so it never warns about tokenized input.
    (metric,) = make_metrics(args, sentence_level=True, force=True).values()
    signature = ""
    divisor = 100.0 if args.scale == "unit" else 1.0
    for systems, refs in corpus.chunks(CHUNK_LINES):
        if len(systems) > 1:
            raise UsageError("only one system can be evaluated in sentence-level mode")
        rows = metric.statistics(systems[0], refs)
        if not signature:
            signature = metric.get_signature().format(args.short)
        if args.score_only:
            # One batched call: equal to sentence_score(...).score for each row.
            for s in metric.score_rows(rows):
                yield f"{s / divisor:.{args.width}f}"
        else:
            for row in rows:
                score = metric.score_totals(metric.total(row)).scaled(divisor)
                yield score.format(args.width, False, signature)
        progress.update(len(refs[0]))
