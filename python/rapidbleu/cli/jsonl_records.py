"""One ``--jsonl`` line -> candidates and references, with the fields the user chose.

By default the candidate is the first of :data:`rapidbleu.items.CANDIDATE_KEYS` present and the
references the first of :data:`rapidbleu.items.REFERENCE_KEYS`; ``--candidate-field`` (one or
several fields: several compare systems) and ``--references-field`` name them instead, so that
``{"output": ..., "target": ...}`` works. A candidate is a string or a list of integer token
IDs; references are a string, a list of strings, a list of IDs (one reference) or a list of
ID lists.

Example:
    >>> parse_record('{"output": [1, 2], "target": [1, 3]}', "f: line 1", ("output",), "target")
    ([[1, 2]], [[1, 3]], None)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rapidbleu.errors import InputError, ReferenceNestingError
from rapidbleu.items import CANDIDATE_KEYS, REFERENCE_KEYS

__all__ = ["is_ids", "kind_of", "parse_record"]

_MISSING = object()


def is_ids(value: Any) -> bool:
    """Whether ``value`` is a list of integer token IDs (``bool`` is not an ID)."""
    return isinstance(value, list) and all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    )


def kind_of(value: Any) -> str:
    """``text`` or ``ids``: the kind of a candidate (items of one field must not mix kinds)."""
    return "ids" if isinstance(value, list) else "text"


def _first(obj: dict[str, Any], keys: Sequence[str]) -> tuple[str, Any]:
    for k in keys:
        if k in obj:
            return k, obj[k]
    return "", _MISSING


def _candidate(obj: dict[str, Any], field: str | None, where: str) -> Any:
    if field is None:
        name, cand = _first(obj, CANDIDATE_KEYS)
        if cand is _MISSING:
            raise InputError(
                f"{where}: no candidate; give one of the fields {', '.join(CANDIDATE_KEYS)} "
                "(or name yours with --candidate-field)"
            )
    else:
        name, cand = field, obj.get(field, _MISSING)
        if cand is _MISSING:
            raise InputError(
                f"{where}: no field {field!r} (--candidate-field); the line has: "
                + ", ".join(map(repr, obj))
            )
    if not isinstance(cand, str) and not is_ids(cand):
        raise InputError(
            f"{where}: the candidate {name!r} is {type(cand).__name__}; expected a string or a "
            "list of integer token IDs"
        )
    return cand


def _references(obj: dict[str, Any], field: str | None, where: str, ids: bool) -> list[Any]:
    if field is None:
        _, refs = _first(obj, REFERENCE_KEYS)
        if refs is _MISSING:
            raise InputError(
                f"{where}: no references; give one of the fields {', '.join(REFERENCE_KEYS)} "
                "(or name yours with --references-field)"
            )
    else:
        refs = obj.get(field, _MISSING)
        if refs is _MISSING:
            raise InputError(
                f"{where}: no field {field!r} (--references-field); the line has: "
                + ", ".join(map(repr, obj))
            )
    if isinstance(refs, str) or (ids and refs and is_ids(refs)):
        refs = [refs]
    if not isinstance(refs, list) or not refs:
        raise InputError(
            f"{where}: references must be a string or a non-empty list of strings, got "
            f"{json.dumps(refs)[:40]}"
        )
    for j, r in enumerate(refs):
        if ids and not is_ids(r):
            raise InputError(
                f"{where}: references[{j}] is {type(r).__name__}; the candidate is token IDs, "
                "so each reference must be a list of integer IDs"
            )
        if not ids and isinstance(r, list) and all(isinstance(x, str) for x in r):
            # Streams inside an item: references nested one level too deep.
            raise ReferenceNestingError(
                f"{where}: references[{j}] is a list of strings; an item's references are its "
                "candidate's own, a string or a list of strings (one per reference "
                f"translation), not streams: flatten it to {json.dumps(r)[:60]}"
            )
        if not ids and not isinstance(r, str):
            raise InputError(f"{where}: references[{j}] is {type(r).__name__}; expected a string")
    return refs


def parse_record(
    line: str,
    where: str,
    candidate_fields: Sequence[str] | None = None,
    references_field: str | None = None,
) -> tuple[list[Any], list[Any], Any]:
    """``(candidates, references, id)`` of one JSONL line: one candidate per candidate field.

    Args:
        line: The line's text.
        where: ``FILE: line N``, the start of every message.
        candidate_fields: The candidate fields (``None``: the first of ``CANDIDATE_KEYS``).
        references_field: The references field (``None``: the first of ``REFERENCE_KEYS``).

    Returns:
        The candidates (one per field), the references and the ``id`` field (or ``None``).

    Raises:
        rapidbleu.errors.InputError: Not a JSON object, a field missing or of the wrong type,
            an id that is not finite.
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
    fields: Sequence[str | None] = candidate_fields or [None]
    cands = [_candidate(obj, f, where) for f in fields]
    kinds = {kind_of(c) for c in cands}
    if len(kinds) > 1:
        raise InputError(f"{where}: some candidates are text and some token IDs; use one kind")
    refs = _references(obj, references_field, where, ids=kinds == {"ids"})
    item_id = obj.get("id")
    try:
        # Python's json reads NaN, Infinity and 1e999; written back they are not valid JSON.
        json.dumps(item_id, allow_nan=False)
    except ValueError:
        raise InputError(
            f"{where}: the id holds a number that is not finite (NaN, Infinity or beyond "
            "1.8e308), which --per-item could not write as valid JSON; use a finite number "
            "or a string"
        ) from None
    return cands, refs, item_id
