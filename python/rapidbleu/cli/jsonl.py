"""``rapidbleu --jsonl FILE``: items, one JSON object a line, scored as a stream.

Each line is an object with a candidate and its references, under the names evaluation data
uses (:data:`rapidbleu.items.CANDIDATE_KEYS`, :data:`rapidbleu.items.REFERENCE_KEYS`); an ``id``
is kept in ``--per-item`` output. Blank lines are skipped. The corpus result holds each
metric's fields (:meth:`Metric.score_fields <rapidbleu.metrics.Metric.score_fields>`; for BLEU
alone it is :meth:`rapidbleu.BleuResult.to_dict`), 0..1 with ``--scale unit`` (the default
here); ``--per-item`` prints one ``{"id": ..., "bleu": ..., ...}`` line per item.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import IO, Any

from rapidbleu.cli.progress import Progress
from rapidbleu.cli.scoring import make_metrics
from rapidbleu.errors import EmptyInputError, InputError
from rapidbleu.io.reader import CHUNK_LINES, LineReader, open_input
from rapidbleu.items import CANDIDATE_KEYS, REFERENCE_KEYS

__all__ = ["jsonl_lines", "parse_item"]

_MISSING = object()


def _first(obj: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for k in keys:
        if k in obj:
            return obj[k]
    return _MISSING


def parse_item(line: str, where: str) -> tuple[str, list[str], Any]:
    """``(candidate, references, id)`` of one JSONL line.

    Args:
        line: The line's text.
        where: ``FILE: line N``, the start of every message.

    Returns:
        The candidate, its references and the ``id`` field (``None`` when absent).

    Raises:
        rapidbleu.errors.InputError: The line is not JSON, not an object, lacks a field or has
            a field of the wrong type.

    Example:
        >>> parse_item('{"prediction": "a b", "reference": "a c", "id": 7}', "f: line 1")
        ('a b', ['a c'], 7)
    """
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deeply to be an item") from None
    if not isinstance(obj, dict):
        raise InputError(
            f"{where}: expected a JSON object with a candidate and references, "
            f"got {type(obj).__name__}"
        )
    cand = _first(obj, CANDIDATE_KEYS)
    if cand is _MISSING:
        raise InputError(
            f"{where}: no candidate; give one of the fields {', '.join(CANDIDATE_KEYS)}"
        )
    if not isinstance(cand, str):
        raise InputError(f"{where}: the candidate is {type(cand).__name__}; expected a string")
    refs = _first(obj, REFERENCE_KEYS)
    if refs is _MISSING:
        raise InputError(
            f"{where}: no references; give one of the fields {', '.join(REFERENCE_KEYS)}"
        )
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not refs:
        raise InputError(
            f"{where}: references must be a string or a non-empty list of strings, got "
            f"{json.dumps(refs)[:40]}"
        )
    for j, r in enumerate(refs):
        if not isinstance(r, str):
            raise InputError(f"{where}: references[{j}] is {type(r).__name__}; expected a string")
    return cand, refs, obj.get("id")


def _items(reader: LineReader) -> Iterator[tuple[list[str], list[list[str]], list[Any]]]:
    """Chunks of (candidates, references, ids)."""
    while True:
        first = reader.lines_read + 1
        lines = reader.read(CHUNK_LINES)
        if not lines:
            return
        cands: list[str] = []
        refs: list[list[str]] = []
        ids: list[Any] = []
        for k, line in enumerate(lines):
            if not line.strip():
                continue
            c, r, i = parse_item(line, f"{reader.name}: line {first + k}")
            cands.append(c)
            refs.append(r)
            ids.append(i)
        if cands:
            yield cands, refs, ids


def jsonl_lines(args: argparse.Namespace, stdin: IO[bytes], progress: Progress) -> Iterator[str]:
    """What ``--jsonl`` prints: one corpus JSON object, or one JSON line per item.

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
    divisor = 100.0 if args.scale == "unit" else 1.0
    metrics = make_metrics(args, sentence_level=args.per_item, force=True)
    totals: dict[str, Any] = dict.fromkeys(metrics)
    nrefs: set[int] = set()
    seen = False
    try:
        for cands, refs, ids in _items(reader):
            seen = True
            if args.per_item:
                columns = {
                    key: m.sentence_scores(cands, refs, per_segment=True).tolist()
                    for key, m in metrics.items()
                }
                for k, item_id in enumerate(ids):
                    row = {key: col[k] / divisor for key, col in columns.items()}
                    yield json.dumps(row if item_id is None else {"id": item_id, **row})
            else:
                for key, m in metrics.items():
                    rows = m.statistics(cands, refs, per_segment=True)
                    totals[key] = m.accumulate(totals[key], rows)
                    nrefs.add(m.num_refs)
            progress.update(len(cands))
    finally:
        reader.close()
    if not seen:
        raise EmptyInputError(f"{name}: no items (every line is blank)")
    if args.per_item:
        return
    # Chunks with different numbers of references per item make the corpus's nrefs "var".
    corpus_nrefs = nrefs.pop() if len(nrefs) == 1 else -1
    out: dict[str, Any] = {}
    signatures = {}
    for key, m in metrics.items():
        score = m.score_totals(totals[key])
        m.num_refs = corpus_nrefs
        out.update(m.score_fields(score, divisor))
        signatures[key] = m.get_signature().format(args.short)
    if len(signatures) == 1:
        out["signature"] = next(iter(signatures.values()))
    else:
        out["signatures"] = signatures
    out["scale"] = args.scale
    yield json.dumps(out)
