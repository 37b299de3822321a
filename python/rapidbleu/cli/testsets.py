"""sacreBLEU's test-set options (``-t``, ``--list``, ``--echo``, ...) on sacreBLEU's registry.

The options: ``-t``, ``-l``, ``--list``, ``--echo``, ``--origlang``, ``--subset``, ``--citation``,
``--download``.

The registry and the downloads are sacreBLEU's own (:mod:`rapidbleu.datasets`, the
``datasets`` extra); this module only does what sacreBLEU's ``main`` does with them: it prints
lists, fields and citations, and turns ``-t TEST -l SRC-TRG`` into reference streams read from
the cache (several comma-separated test sets are concatenated), with the documents of one
original language or subset kept when asked (sacreBLEU's ``filter_subset``). Scoring then goes
through the same streamed pipeline as reference files.
"""

from __future__ import annotations

import argparse
import io
import logging
from collections.abc import Iterator

import rapidbleu.datasets as datasets
from rapidbleu.cli.args import metric_kwargs
from rapidbleu.errors import DatasetError, EmptyInputError, LengthMismatchError
from rapidbleu.io.chunks import Inputs
from rapidbleu.io.reader import CHUNK_LINES, Corpus, LineReader
from rapidbleu.metrics.registry import metric_classes

__all__ = ["info_lines", "is_info_request", "with_test_set"]

logger = logging.getLogger("rapidbleu")


def is_info_request(args: argparse.Namespace) -> bool:
    """Whether the command only prints information (``--list``, ``--echo``, ...), no scores."""
    return bool(args.list or args.echo or args.citation or args.download)


def _test_sets(args: argparse.Namespace) -> list[str]:
    names = [t for t in (args.test_set or "").split(",") if t]
    for name in names:
        datasets.dataset(name)  # unknown names fail here, before anything is read
    return names


def info_lines(args: argparse.Namespace) -> Iterator[str]:
    """What ``--download``, ``--list``, ``--citation`` and ``--echo`` print (sacreBLEU's lines).

    Raises:
        rapidbleu.errors.DatasetError: Unknown test set, language pair or field.
        rapidbleu.errors.DatasetDownloadError: Not cached and the download failed.
        rapidbleu.errors.MissingDependencyError: The ``datasets`` extra is missing.
    """
    lp = args.language_pair
    if args.download:
        datasets.download_test_set(args.download, lp)
        return
    if args.list:
        yield from _list_lines(args.test_set, lp)
        return
    names = _test_sets(args)
    if args.citation:
        for name in names:
            citation = datasets.dataset(name).citation
            if not citation:
                raise DatasetError(f"no citation found for test set {name!r}")
            yield citation
        return
    for name in names:
        yield from _echo_lines(name, lp, args.echo, args.origlang, args.subset)


def _list_lines(test_set: str | None, langpair: str | None) -> Iterator[str]:
    """SacreBLEU's ``--list``: the fields of a test set, or the test sets (for a pair)."""
    if test_set:
        pairs = [langpair] if langpair else datasets.get_langpairs_for_testset(test_set)
        for pair in pairs:
            yield f"{pair}: {', '.join(datasets.fieldnames(test_set, pair))}"
        return
    if langpair:
        yield f"The available test sets for {langpair} are:"
        utils = datasets._sacrebleu("sacrebleu.utils")
        names = utils.get_available_testsets_for_langpair(langpair)
    else:
        yield "The available test sets are:"
        names = datasets.get_available_testsets()
    registry = datasets.registry()
    for name in sorted(names):
        yield f"{name:<30}: {registry[name].description.strip()}"


def _echo_lines(
    test_set: str, langpair: str, fields: list[str], origlang: str | None, subset: str | None
) -> Iterator[str]:
    """SacreBLEU's ``print_test_set``: the requested fields, tab-separated, one line each."""
    names = datasets.fieldnames(test_set, langpair)
    if "all" in fields:
        if len(fields) != 1:
            raise DatasetError("--echo all cannot be combined with other fields")
        fields = names
    # sacreBLEU: "ref" stands for the first reference field where there is no plain "ref".
    if "ref" in fields and "ref" not in names:
        first_ref = min(f for f in names if f.startswith("ref"))
        fields = [first_ref if f == "ref" else f for f in fields]
    for f in fields:
        if f not in names:
            raise DatasetError(
                f"test set {test_set!r} ({langpair}) has no field {f!r}; it has: "
                + ", ".join(names)
            )
    files = datasets.get_files(test_set, langpair)
    columns = [_read(files[names.index(f)]) for f in fields]
    columns = datasets.filter_subset(columns, test_set, langpair, origlang, subset)
    for row in zip(*columns):
        yield "\t".join(row)


def _read(path: str, encoding: str = "utf-8") -> list[str]:
    # sacreBLEU: smart_open(file, encoding=...) and line.rstrip().
    with open(path, "rb") as f:
        reader = LineReader(path, f, encoding, "strict", owns_stream=False)
        return _read_all(reader)


def _read_all(reader: LineReader) -> list[str]:
    lines: list[str] = []
    while True:
        chunk = reader.read(CHUNK_LINES)
        if not chunk:
            return lines
        lines.extend(chunk)


def _in_memory(name: str, lines: list[str]) -> LineReader:
    data = "".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass")
    return LineReader(name, io.BytesIO(data), "utf-8", "surrogatepass")


def with_test_set(args: argparse.Namespace, inputs: Inputs) -> Inputs:
    """The corpus of ``-t TEST -l SRC-TRG``: references from sacreBLEU's cache, systems as given.

    Args:
        args: Parsed options (``test_set``, ``language_pair``, ``origlang``, ``subset``, ...).
        inputs: The systems (``-i`` or stdin), opened without references.

    The references are held in memory, so the Python reader reads the systems (test sets are
    a few thousand lines).

    Raises:
        rapidbleu.errors.DatasetError: Unknown test set or pair, or no subset annotation.
        rapidbleu.errors.DatasetDownloadError: Not cached and the download failed.
        rapidbleu.errors.EmptyInputError: No segment of the requested origlang/subset.
        rapidbleu.errors.LengthMismatchError: A system's line count differs from the test set's.
    """
    names = _test_sets(args)
    # sacreBLEU's main warns when the command turns a metric's tokenizer off (its `-tok none`),
    # whichever metrics `-m` asks for.
    if any(metric_kwargs(args, name).get("tokenize") == "none" for name in metric_classes()):
        logger.warning(
            "You are turning off BLEU's internal tokenizer presumably to supply your own "
            "tokenized files."
        )
        logger.warning("Published numbers will not be comparable to other papers.")
    # References: every test set's reference files, concatenated stream by stream.
    ref_files = [datasets.get_reference_files(n, args.language_pair) for n in names]
    if len({len(f) for f in ref_files}) > 1:
        raise DatasetError(f"the test sets {args.test_set!r} have different numbers of references")
    ref_names = ["+".join(f[k] for f in ref_files) for k in range(len(ref_files[0]))]
    streams = [
        [line for f in ref_files for line in _read(f[k], args.encoding)]
        for k in range(len(ref_files[0]))
    ]
    corpus = inputs.python_corpus(inputs.systems)
    try:
        if args.origlang is not None or args.subset is not None:
            corpus.systems = _filtered_systems(args, corpus, streams, ref_names)
            streams = datasets.filter_subset(
                streams, args.test_set, args.language_pair, args.origlang, args.subset
            )
            if not streams or not streams[0]:
                what = "".join(
                    f" {k}={v}"
                    for k, v in (("origlang", args.origlang), ("subset", args.subset))
                    if v
                )
                raise EmptyInputError(f"test set {args.test_set!r} contains no sentence with{what}")
        corpus.ref_names = ref_names
        corpus.refs = [_in_memory(n, s) for n, s in zip(ref_names, streams)]
    except BaseException:
        corpus.close()
        raise
    return Inputs(ref_names, inputs.systems, inputs.stdin, opened=corpus)


def _filtered_systems(
    args: argparse.Namespace, corpus: Corpus, streams: list[list[str]], ref_names: list[str]
) -> list[LineReader]:
    """Each system reader read whole, checked against the test set, and filtered."""
    out = []
    for reader in corpus.systems:
        lines = _read_all(reader)
        reader.close()
        if len(lines) != len(streams[0]):
            raise LengthMismatchError(
                f"{reader.name} has {len(lines)} lines but the test set {args.test_set!r} "
                f"({ref_names[0]}) has {len(streams[0])}"
            )
        (kept,) = datasets.filter_subset(
            [lines], args.test_set, args.language_pair, args.origlang, args.subset
        )
        out.append(_in_memory(reader.name, kept))
    return out
