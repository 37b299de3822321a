"""Scoring files as a stream: statistics per chunk, summed; sentence scores per chunk.

Statistics add (``[hyp_len, ref_len, correct_1..N, total_1..N]`` per segment), so the corpus
score of the sum of per-chunk sums equals the score of the whole file, with memory bounded by
one chunk. The steps mirror sacreBLEU's ``main`` (``sacrebleu/sacrebleu.py``): read the
references and systems (:func:`open_corpus`), build the metric (:func:`make_metric`), score
(:func:`corpus_scores`, :func:`sentence_lines`).
"""

from __future__ import annotations

import argparse
import logging
import operator
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from rapidbleu.cli.progress import Progress
from rapidbleu.cli.reader import CHUNK_LINES, Corpus, LineReader, open_input, read_all
from rapidbleu.errors import EmptyInputError, InputError, UsageError
from rapidbleu.metrics.bleu import BLEU, BLEUScore

__all__ = [
    "corpus_scores",
    "make_metric",
    "metric_kwargs",
    "open_corpus",
    "rescale",
    "sentence_lines",
    "whole_corpus",
]

logger = logging.getLogger("rapidbleu")

# sacreBLEU's test for tokenized hypotheses, applied with map() so the loop stays in C.
_ENDS_WITH_PERIOD = operator.methodcaller("endswith", " .")


def metric_kwargs(args: argparse.Namespace, effective_order: bool = False) -> dict[str, Any]:
    """The keyword arguments of :class:`~rapidbleu.metrics.BLEU` that the options ask for.

    Args:
        args: Parsed options.
        effective_order: sacreBLEU turns it on for sentence-level scores.

    Returns:
        ``lowercase``, ``force``, ``tokenize``, ``smooth_method``, ``smooth_value``,
        ``max_ngram_order``, ``effective_order`` and ``trg_lang``.

    Example:
        >>> from rapidbleu.cli.args import parse_args
        >>> metric_kwargs(parse_args(["ref", "-l", "en-zh", "-lc"]))["trg_lang"]
        'zh'
    """
    return {
        "lowercase": args.lowercase,
        "force": args.force,
        "tokenize": args.tokenize,
        "smooth_method": args.smooth_method,
        "smooth_value": args.smooth_value,
        "max_ngram_order": args.max_ngram_order,
        "effective_order": effective_order,
        "trg_lang": args.trg_lang,
    }


def make_metric(args: argparse.Namespace, effective_order: bool = False) -> BLEU:
    """The BLEU metric the options ask for (``force`` is handled per system by the caller).

    Example:
        >>> from rapidbleu.cli.args import parse_args
        >>> make_metric(parse_args(["ref", "-tok", "intl"])).tokenizer_signature
        'intl'
    """
    # force=True: the tokenized-period warning is counted per system while streaming
    # (corpus_scores), as sacreBLEU warns once per system, not once per chunk.
    return BLEU(**{**metric_kwargs(args, effective_order), "force": True})


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

    For what needs the whole corpus at once: sacreBLEU's significance tests resample segments
    (``rapidbleu.cli.paired.run_paired`` takes exactly these two values). Files are read,
    decoded, split (``-nr``, tab-separated stdin) and checked as when streaming. A file given
    twice with ``-i`` is kept twice (the paired test skips a repeat of the baseline, as
    sacreBLEU's ``main`` does). Systems from stdin are named ``System 1``, ``System 2``, ...

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


def _warn_tokenized(name: str) -> None:
    # sacreBLEU's Metric._extract_corpus_statistics warns when >= 100 hypotheses end in " .".
    logger.warning(f"{name}: that's 100 lines that end in a tokenized period ('.')")
    logger.warning(
        "It looks like you forgot to detokenize your test data, which may hurt your score."
    )
    logger.warning(
        "If you insist your data is detokenized, or don't care, you can suppress this "
        "message with --force."
    )


def corpus_scores(
    args: argparse.Namespace, metric: BLEU, corpus: Corpus, progress: Progress
) -> list[BLEUScore]:
    """Corpus BLEU of every system, reading the files one chunk at a time.

    Returns:
        One score per system, in order; ``corpus.system_names`` is filled in.

    Raises:
        rapidbleu.errors.EmptyInputError: The files have no lines.
    """
    totals: list[Any] = []
    periods: list[int] = []
    for systems, refs in corpus.chunks(CHUNK_LINES):
        if not totals:
            totals = [0] * len(systems)
            periods = [0] * len(systems)
        if len(systems) > 1:
            # Tokenize and count this chunk's references once for all systems (as sacreBLEU's
            # BLEU(references=...) does for the whole corpus).
            metric._ref_cache = metric._cache_references(refs)
        for i, hyps in enumerate(systems):
            stats = metric.corpus_statistics(hyps, None if len(systems) > 1 else refs)
            totals[i] = totals[i] + stats.sum(axis=0, dtype=np.int64)
            if not args.force:
                periods[i] += sum(map(_ENDS_WITH_PERIOD, hyps))
        progress.update(len(refs[0]))
    if not totals:
        raise EmptyInputError("nothing to score: the input files have no lines")
    if not corpus.system_names:
        corpus.system_names = [f"System {i + 1}" for i in range(len(totals))]
    for name, n in zip(corpus.system_names, periods):
        if n >= 100:
            _warn_tokenized(name)
    return [metric._compute_score_from_stats(t) for t in totals]


def sentence_lines(
    args: argparse.Namespace, metric: BLEU, corpus: Corpus, progress: Progress
) -> Iterator[str]:
    """Yields sacreBLEU's ``--sentence-level`` lines, one per segment, produced chunk by chunk.

    Raises:
        rapidbleu.errors.UsageError: More than one system.
    """
    signature = ""
    divisor = 100.0 if args.scale == "unit" else 1.0
    for systems, refs in corpus.chunks(CHUNK_LINES):
        if len(systems) > 1:
            raise UsageError("only one system can be evaluated in sentence-level mode")
        stats = metric.corpus_statistics(systems[0], refs)
        if not signature:
            signature = metric.get_signature().format(args.short)
        if args.score_only:
            # One batched call: equal to sentence_score(...).score for each row.
            for s in metric._score_rows(stats):
                yield f"{s / divisor:.{args.width}f}"
        else:
            for row in stats.tolist():
                score = rescale(metric._compute_score_from_stats(row), divisor)
                yield score.format(args.width, False, signature)
        progress.update(len(refs[0]))


def rescale(score: BLEUScore, divisor: float) -> BLEUScore:
    """``score`` with the score and precisions divided by ``divisor`` (``--scale unit``).

    Example:
        >>> s = BLEU().corpus_score(["a b c d"], [["a b c d"]])
        >>> rescale(s, 100.0).score
        1.0000000000000004
    """
    if divisor == 1.0:
        return score
    return BLEUScore(
        score.score / divisor,
        score.counts,
        score.totals,
        [p / divisor for p in score.precisions],
        score.bp,
        score.sys_len,
        score.ref_len,
    )
