"""``rapidbleu --jsonl FILE``: items, one JSON object a line, scored as a stream.

Each line is an object with a candidate and its references (:mod:`rapidbleu.cli.jsonl_records`:
default field names, or ``--candidate-field`` / ``--references-field``; text or integer token
IDs); an ``id`` is kept in ``--per-item`` output. Blank lines are skipped. Several candidate
fields are several systems, scored against the same references.

Output (``--scale unit``, 0..1, is the default here):

- ``-f json`` (default): the corpus object holds each metric's fields
  (:meth:`Metric.score_fields <rapidbleu.metrics.Metric.score_fields>`; for BLEU alone it is
  :meth:`rapidbleu.BleuResult.to_dict`), ``{"bleu": ..., "chrf": ..., ...}`` for several
  metrics; several systems print one object each, with ``"system"`` first. ``--per-item``
  prints one ``{"id": ..., "bleu": ...}`` line per item (with several systems, one object per
  system under its field name). ``-w N`` rounds each metric's score to N decimals.
- ``-f text``: sacreBLEU's lines (one system) or table (several), as for files; with
  ``--per-item``, sacreBLEU's sentence-level line per item (and system).
- ``-b``: the numbers alone (tab-separated on one line where there are several).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import IO, Any

from rapidbleu.cli.formats import OUTPUT_FORMATS, render_results
from rapidbleu.cli.jsonl_records import kind_of, parse_record
from rapidbleu.cli.progress import Progress
from rapidbleu.cli.scoring import make_metrics
from rapidbleu.errors import EmptyInputError, InputError
from rapidbleu.io.reader import CHUNK_LINES, LineReader, open_input
from rapidbleu.metrics.base import Metric
from rapidbleu.report.model import Results

__all__ = ["jsonl_lines", "parse_item"]


def parse_item(line: str, where: str) -> tuple[Any, list[Any], Any]:
    """``(candidate, references, id)`` of one JSONL line, with the default field names.

    Raises:
        rapidbleu.errors.InputError: The line is not JSON, not an object, lacks a field or has
            a field of the wrong type.

    Example:
        >>> parse_item('{"prediction": "a b", "reference": "a c", "id": 7}', "f: line 1")
        ('a b', ['a c'], 7)
    """
    cands, refs, item_id = parse_record(line, where)
    return cands[0], refs, item_id


def _items(
    reader: LineReader, fields: list[str] | None, references_field: str | None
) -> Iterator[tuple[list[list[Any]], list[list[Any]], list[Any]]]:
    """Chunks of (candidates per system, references, ids); a system's kind never changes."""
    kinds: str | None = None
    while True:
        first = reader.lines_read + 1
        lines = reader.read(CHUNK_LINES)
        if not lines:
            return
        cands: list[list[Any]] | None = None
        refs: list[list[Any]] = []
        ids: list[Any] = []
        for k, line in enumerate(lines):
            if not line.strip():
                continue
            where = f"{reader.name}: line {first + k}"
            c, r, i = parse_record(line, where, fields, references_field)
            kind = kind_of(c[0])
            if kinds is None:
                kinds = kind
            elif kind != kinds:
                raise InputError(
                    f"{where}: the candidate is {'token IDs' if kind == 'ids' else 'text'} but "
                    "earlier items are not; one file holds one kind"
                )
            if cands is None:
                cands = [[] for _ in c]
            for system, cand in zip(cands, c):
                system.append(cand)
            refs.append(r)
            ids.append(i)
        if cands is not None:
            yield cands, refs, ids


def _one_chunk(
    chunks: Iterator[tuple[list[list[Any]], list[list[Any]], list[Any]]],
) -> Iterator[tuple[list[list[Any]], list[list[Any]], list[Any]]]:
    """Every chunk of :func:`_items` joined into one.

    For metrics whose rows depend on the whole set (``Metric.whole_set``: CIDEr-D's document
    frequencies), which a chunk at a time would compute per chunk.
    """
    cands: list[list[Any]] | None = None
    refs: list[list[Any]] = []
    ids: list[Any] = []
    for c, r, i in chunks:
        if cands is None:
            cands = [[] for _ in c]
        for system, more in zip(cands, c):
            system.extend(more)
        refs.extend(r)
        ids.extend(i)
    if cands is not None:
        yield cands, refs, ids


def _round(fields: dict[str, Any], metrics: dict[str, Metric[Any]], width: int | None) -> None:
    """``-w``: each metric's own score rounded (the other fields stay exact)."""
    if width is None:
        return
    for key in metrics:
        if isinstance(fields.get(key), float):
            fields[key] = round(fields[key], width)


def jsonl_lines(args: argparse.Namespace, stdin: IO[bytes], progress: Progress) -> Iterator[str]:
    """What ``--jsonl`` prints: corpus results, or one line per item.

    Raises:
        rapidbleu.errors.InputError: A bad line (its number is in the message).
        rapidbleu.errors.EmptyInputError: No items.
    """
    name = "stdin" if args.jsonl == "-" else args.jsonl
    reader = LineReader(
        name,
        open_input(args.jsonl, stdin),
        args.encoding,
        args.encoding_errors,
        owns_stream=args.jsonl != "-",
    )
    fields: list[str] | None = getattr(args, "candidate_field", None)
    systems = fields or ["candidate"]
    divisor = 100.0 if args.scale == "unit" else 1.0
    metrics = make_metrics(args, sentence_level=args.per_item, force=True)
    totals: list[dict[str, Any]] = [dict.fromkeys(metrics) for _ in systems]
    nrefs: set[int] = set()
    seen = False
    n_items = 0
    chunks = _items(reader, fields, getattr(args, "references_field", None))
    if any(m.whole_set for m in metrics.values()):
        chunks = _one_chunk(chunks)
    try:
        for cands, refs, ids in chunks:
            seen = True
            n_items += len(refs)
            if args.per_item:
                yield from _per_item_lines(args, metrics, systems, cands, refs, ids, divisor)
            else:
                for s, hyps in enumerate(cands):
                    for key, m in metrics.items():
                        rows = m.statistics(hyps, refs, per_segment=True)
                        totals[s][key] = m.accumulate(totals[s][key], rows)
                        nrefs.add(m.num_refs)
            progress.update(len(refs))
    finally:
        reader.close()
    if not seen:
        raise EmptyInputError(f"{name}: no items (every line is blank)")
    if not args.per_item:
        # Chunks with different numbers of references per item make the corpus's nrefs "var".
        corpus_nrefs = nrefs.pop() if len(nrefs) == 1 else -1
        yield from _corpus_lines(
            args, metrics, systems, fields, totals, corpus_nrefs, divisor, n_items
        )


def _corpus_lines(
    args: argparse.Namespace,
    metrics: dict[str, Metric[Any]],
    systems: list[str],
    fields: list[str] | None,
    totals: list[dict[str, Any]],
    corpus_nrefs: int,
    divisor: float,
    n_items: int,
) -> Iterator[str]:
    scores = [{key: m.score_totals(t[key]) for key, m in metrics.items()} for t in totals]
    for m in metrics.values():
        m.num_refs = corpus_nrefs
    if not OUTPUT_FORMATS[args.format].json or args.score_only:
        signatures = {scores[0][k].name: m.get_signature() for k, m in metrics.items()}
        named = {
            sys: {s.name: s.scaled(divisor) for s in sys_scores.values()}
            for sys, sys_scores in zip(systems, scores)
        }
        results = Results.of_scores(named, signatures)
        if args.score_only:
            for sys_scores in named.values():
                yield "\t".join(f"{s.score:.{args.width}f}" for s in sys_scores.values())
            return
        yield render_results(results, args, n_items)
        return
    signature_text = {key: m.get_signature().format(args.short) for key, m in metrics.items()}
    for system, sys_scores in zip(systems, scores):
        out: dict[str, Any] = {"system": system} if fields and len(fields) > 1 else {}
        for key, m in metrics.items():
            out.update(m.score_fields(sys_scores[key], divisor))
        _round(out, metrics, getattr(args, "width_given", None))
        if len(signature_text) == 1:
            out["signature"] = next(iter(signature_text.values()))
        else:
            out["signatures"] = signature_text
        out["scale"] = args.scale
        yield json.dumps(out, allow_nan=False)


def _per_item_lines(
    args: argparse.Namespace,
    metrics: dict[str, Metric[Any]],
    systems: list[str],
    cands: list[list[Any]],
    refs: list[list[Any]],
    ids: list[Any],
    divisor: float,
) -> Iterator[str]:
    if not OUTPUT_FORMATS[args.format].json and not args.score_only:
        # sacreBLEU's sentence-level line: for each system and metric, one per item.
        for s, hyps in enumerate(cands):
            for m in metrics.values():
                rows = m.statistics(hyps, refs, per_segment=True)
                sig = m.get_signature().format(args.short)
                prefix = f"{systems[s]}\t" if len(systems) > 1 else ""
                for k, row in enumerate(rows):
                    score = m.score_totals(m.total(row)).scaled(divisor)
                    lines_of_item = prefix + score.format(args.width, False, sig)
                    yield (f"{ids[k]}\t" if ids[k] is not None else "") + lines_of_item
        return
    columns = [
        {key: m.item_values(hyps, refs, divisor) for key, m in metrics.items()} for hyps in cands
    ]
    for k, item_id in enumerate(ids):
        per_system = [{key: col[k] for key, col in sys_cols.items()} for sys_cols in columns]
        if args.score_only:
            yield "\t".join(f"{v:.{args.width}f}" for row in per_system for v in row.values())
            continue
        for row in per_system:
            _round(row, metrics, getattr(args, "width_given", None))
        if len(systems) == 1:
            body: dict[str, Any] = per_system[0]
        else:
            body = dict(zip(systems, per_system))
        yield json.dumps(body if item_id is None else {"id": item_id, **body}, allow_nan=False)
