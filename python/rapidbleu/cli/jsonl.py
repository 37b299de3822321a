"""``rapidbleu --jsonl FILE``: items, one JSON object a line, scored as a stream.

Each line is an object with a candidate and its references, under the names evaluation data
uses (:data:`rapidbleu.items.CANDIDATE_KEYS`, :data:`rapidbleu.items.REFERENCE_KEYS`); an ``id``
is kept in ``--per-item`` output. Blank lines are skipped. The corpus result is
:meth:`rapidbleu.BleuResult.to_dict` (0..1 with ``--scale unit``, the default here).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from rapidbleu.cli.progress import Progress
from rapidbleu.cli.reader import CHUNK_LINES, LineReader, open_input
from rapidbleu.cli.scoring import make_metric
from rapidbleu.errors import EmptyInputError, InputError
from rapidbleu.items import CANDIDATE_KEYS, REFERENCE_KEYS, BleuResult

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
    metric = make_metric(args, effective_order=args.per_item)
    total: Any = None
    nrefs: set[int] = set()
    try:
        for cands, refs, ids in _items(reader):
            if args.per_item:
                scores = metric._sentence_scores(cands, refs, per_segment=True)
                for item_id, s in zip(ids, scores.tolist()):
                    row = {"bleu": s / divisor}
                    yield json.dumps(row if item_id is None else {"id": item_id, **row})
                total = True
            else:
                stats = metric._item_statistics(cands, refs).sum(axis=0, dtype=np.int64)
                total = stats if total is None else total + stats
                nrefs.add(metric.num_refs)
            progress.update(len(cands))
    finally:
        reader.close()
    if total is None:
        raise EmptyInputError(f"{name}: no items (every line is blank)")
    if args.per_item:
        return
    s = metric._compute_score_from_stats(total)
    # Chunks with different numbers of references per item make the corpus's nrefs "var".
    metric.num_refs = nrefs.pop() if len(nrefs) == 1 else -1
    result = BleuResult(
        score=s.score / divisor,
        precisions=tuple(p / divisor for p in s.precisions),
        brevity_penalty=s.bp,
        hyp_len=s.sys_len,
        ref_len=s.ref_len,
        counts=tuple(s.counts),
        totals=tuple(s.totals),
        signature=metric.get_signature().format(args.short),
        scale=args.scale,
    )
    yield json.dumps(result.to_dict())
