"""Scoring files as a stream, for any set of metrics: statistics per chunk, folded in order.

The files are read a chunk of aligned lines at a time (:mod:`rapidbleu.io.chunks`: in Rust, a
chunk ahead on a background thread, for UTF-8). Each metric turns a chunk into rows
(:meth:`Metric.chunk_statistics <rapidbleu.metrics.Metric.chunk_statistics>`: BLEU counts the
lines where they lie, other metrics get lists of ``str``), and each system's rows are folded
into running corpus statistics in file order
(:meth:`Metric.accumulate <rapidbleu.metrics.Metric.accumulate>`: a column sum for BLEU and
chrF), so the corpus score of a file equals the score of the whole file in memory, with memory
bounded by a few chunks. The steps mirror sacreBLEU's ``main`` (``sacrebleu/sacrebleu.py``):
read the references and systems (:func:`open_corpus`), build the metrics
(:func:`make_metrics`), score (:func:`corpus_results`, :func:`sentence_lines`).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator
from typing import IO, Any

from rapidbleu.cli.args import metric_kwargs
from rapidbleu.cli.progress import Progress
from rapidbleu.errors import EmptyInputError, UsageError
from rapidbleu.io.chunks import Inputs, check_unique
from rapidbleu.io.reader import CHUNK_LINES
from rapidbleu.metrics.base import Metric
from rapidbleu.metrics.registry import metric_class
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
    out: dict[str, Metric[Any]] = {}
    for name in sorted(args.metrics):
        options = metric_kwargs(args, name)
        options.update({k: v for k, v in overrides.items() if k in options})
        out[name] = metric_class(name).from_command_line(
            options, trg_lang=args.trg_lang, sentence_level=sentence_level
        )
    return out


def _checks_tokenized(args: argparse.Namespace) -> bool:
    """Whether the tokenized-period warning is wanted (a metric with ``force`` off)."""
    return any(metric_kwargs(args, name).get("force") is False for name in args.metrics)


def open_corpus(args: argparse.Namespace, stdin: IO[bytes], unique_names: bool = True) -> Inputs:
    """The reference and system inputs (sacreBLEU's "read references/systems"), read lazily.

    Args:
        args: Parsed options (``refs``, ``input``, ``encoding``, ``encoding_errors``,
            ``num_refs``).
        stdin: Where ``-`` and a missing ``-i`` read from.
        unique_names: Refuse a file given twice with ``-i``. Paired tests pass ``False``:
            sacreBLEU's ``main`` skips a system named like the baseline there.

    Returns:
        The inputs; close them when done.

    Raises:
        rapidbleu.errors.InputError: Two systems have the same name.
    """
    from_test_set = getattr(args, "test_set", None) is not None
    if args.input is not None and unique_names:
        check_unique(args.input)
    inputs = Inputs(
        [] if from_test_set else list(args.refs),
        None if args.input is None else list(args.input),
        stdin,
        num_refs=args.num_refs,
        encoding=args.encoding,
        errors=args.encoding_errors,
    )
    if from_test_set:
        # References from sacreBLEU's test-set cache (-t); imported here: the datasets extra.
        from rapidbleu.cli import testsets

        return testsets.with_test_set(args, inputs)
    return inputs


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
    systems: list[list[str]] = []
    refs: list[list[str]] = []
    try:
        for batch in corpus.batches(CHUNK_LINES):
            for chunk in batch.chunks:
                end = batch.first + chunk.num_systems
                systems.extend([] for _ in range(end - len(systems)))
                for i in range(chunk.num_systems):
                    systems[batch.first + i].extend(chunk.hypotheses(i))
                if batch.first == 0:  # later batches read the references again
                    if not refs:
                        refs = [[] for _ in range(chunk.num_references)]
                    for acc, part in zip(refs, chunk.references()):
                        acc.extend(part)
    finally:
        corpus.close()
    if not systems:
        raise EmptyInputError("nothing to score: the input files have no lines")
    names = corpus.system_names or [f"System {i + 1}" for i in range(len(systems))]
    return list(zip(names, systems)), refs


def corpus_results(args: argparse.Namespace, corpus: Inputs, progress: Progress) -> Results:
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
    progress.set_total(corpus.total_bytes())
    for batch in corpus.batches(CHUNK_LINES):
        for chunk in batch.chunks:
            end = batch.first + chunk.num_systems
            totals.extend(dict.fromkeys(metrics) for _ in range(end - len(totals)))
            periods.extend(0 for _ in range(end - len(periods)))
            for name, metric in metrics.items():
                # Each system's rows are folded in file order (TER's sums need the order).
                systems = totals[batch.first : end]
                folded = metric.accumulate_chunk([t[name] for t in systems], chunk)
                for t, total in zip(systems, folded):
                    t[name] = total
            if check_periods:
                for i in range(chunk.num_systems):
                    periods[batch.first + i] += chunk.tokenized_periods(i)
            progress.update(len(chunk), batch.offset + chunk.input_bytes)
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


def sentence_lines(args: argparse.Namespace, corpus: Inputs, progress: Progress) -> Iterator[str]:
    """Yields sacreBLEU's ``--sentence-level`` lines, one per segment, produced chunk by chunk.

    Raises:
        rapidbleu.errors.UsageError: More than one system.
        rapidbleu.errors.EmptyInputError: The files have no lines.
    """
    # sacreBLEU scores one segment at a time here, so it never warns about tokenized input.
    (metric,) = make_metrics(args, sentence_level=True, force=True).values()
    signature = ""
    divisor = 100.0 if args.scale == "unit" else 1.0

    def lines(rows: Any) -> Iterator[str]:
        nonlocal signature
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

    # A metric whose rows depend on the whole set (CIDEr-D's document frequencies) is scored
    # once every chunk is read; the others chunk by chunk.
    kept: tuple[list[Any], list[list[Any]]] = ([], [])
    progress.set_total(corpus.total_bytes())
    for batch in corpus.batches(CHUNK_LINES):
        for chunk in batch.chunks:
            if chunk.num_systems > 1:
                raise UsageError("only one system can be evaluated in sentence-level mode")
            if metric.whole_set:
                streams = chunk.references()
                kept[0].extend(chunk.hypotheses(0))
                if not kept[1]:
                    kept[1].extend([] for _ in streams)
                for mine, more in zip(kept[1], streams):
                    mine.extend(more)
            else:
                (rows,) = metric.chunk_statistics(chunk)
                yield from lines(rows)
            progress.update(len(chunk), batch.offset + chunk.input_bytes)
    if kept[0]:
        yield from lines(metric.statistics(kept[0], kept[1]))
    if not signature:
        # sacreBLEU exits 1 here too ("Test set None contains no sentence").
        raise EmptyInputError("nothing to score: the input files have no lines")
