"""Which columns of a table hold hypotheses and references, and reading them for a metric.

Every engine (Ray Data, Spark, Dask) hands rapidbleu a block of rows as an Arrow table; this
module turns the named columns of that table into what :meth:`Metric.statistics
<rapidbleu.metrics.Metric.statistics>` takes, and refuses what cannot be scored, naming the
column and the row:

- a column that is not there: :class:`~rapidbleu.errors.MissingColumnError`;
- a column of another type, or columns of different kinds (text next to token IDs):
  :class:`~rapidbleu.errors.InputTypeError`;
- a null cell (a hypothesis, a reference or a token): :class:`~rapidbleu.errors.NullValueError`.
  With ``allow_missing_references`` a null reference is sacreBLEU's missing reference
  (``None``), but a row must keep at least one (:class:`~rapidbleu.errors.MissingReferenceError`).

Three kinds of column are scored, and all the columns of one call must be of the same kind:

- **text**: Arrow ``string`` / ``large_string`` / ``string_view`` (or dictionary-encoded text),
  handed to the core as lines read in the block's buffers (no ``str`` per cell);
- **token IDs**: lists of integers (``list``, ``large_list`` or ``fixed_size_list``), handed to the
  core as NumPy views of the Arrow buffer (no Python int per token);
- **tokens**: lists of strings (pre-tokenised text).

Rows are numbered from 0 in dataset order. A block's checks know only the row's place in the
block; the engine adds the block's start (:meth:`Problem.exception`).

Example:
    >>> import pyarrow as pa
    >>> cols = Columns.of("hyp", ["ref"])
    >>> inputs = cols.read(pa.table({"hyp": ["a b"], "ref": ["a c"]}))
    >>> [list(s) for s in inputs.systems], [list(r) for r in inputs.references]
    ([['a b']], [['a c']])
    >>> cols.read(pa.table({"hyp": ["a", None], "ref": ["a", "b"]}))
    Traceback (most recent call last):
    ...
    rapidbleu.distributed.columns.Problem: NullValueError: column 'hyp', row 1: the cell is null...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

import rapidbleu.errors as errors
from rapidbleu.errors import InvalidOptionError, RapidBleuError
from rapidbleu.io.arrow import arrow_text

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KINDS", "Columns", "Inputs", "Problem", "as_table", "kind_of"]

#: The kinds of column that can be scored, by the name used in messages.
KINDS = {"text": "text", "ids": "token IDs (lists of integers)", "tokens": "token lists"}


class Problem(Exception):
    """A cell or column that cannot be scored, found inside a block.

    It carries the error class's name and the row's place in its block, so the engine can raise
    the :mod:`rapidbleu.errors` exception with the row's place in the dataset once it knows where
    the block starts. It pickles (a block may send it back from a worker).

    Args:
        error: The name of a :mod:`rapidbleu.errors` class.
        column: The column, or ``None`` when the problem is not one column's.
        row: The row in its block, or ``None``.
        reason: What is wrong and what is allowed.
    """

    def __init__(self, error: str, column: str | None, row: int | None, reason: str) -> None:
        super().__init__(error, column, row, reason)
        self.error = error
        self.column = column
        self.row = row
        self.reason = reason

    def where(self, start: int | None = 0, block_rows: int | None = None) -> str:
        """Where the problem is: ``column 'c', row 17``.

        Args:
            start: The block's first row in the dataset, or ``None`` when it is not known.
            block_rows: The block's length (said when ``start`` is unknown).

        Example:
            >>> Problem("NullValueError", "ref", 3, "null").where(100)
            "column 'ref', row 103"
            >>> Problem("NullValueError", "ref", 3, "null").where(None, 50)
            "column 'ref', row 3 of a batch of 50 rows"
        """
        parts = [] if self.column is None else [f"column {self.column!r}"]
        if self.row is not None:
            if start is None:
                parts.append(f"row {self.row} of a batch of {block_rows} rows")
            else:
                parts.append(f"row {start + self.row}")
        return ", ".join(parts)

    def exception(self, start: int | None = 0, block_rows: int | None = None) -> RapidBleuError:
        """The :mod:`rapidbleu.errors` exception to raise, placed in the dataset.

        Example:
            >>> Problem("NullValueError", "hyp", 0, "the cell is null").exception(7)
            NullValueError("column 'hyp', row 7: the cell is null")
        """
        cls = getattr(errors, self.error, None)
        if not (isinstance(cls, type) and issubclass(cls, RapidBleuError)):
            cls = errors.InputError
        where = self.where(start, block_rows)
        return cls(f"{where}: {self.reason}" if where else self.reason)

    def __str__(self) -> str:
        return f"{self.error}: {self.where()}: {self.reason}"


@dataclass(frozen=True)
class Inputs:
    """A block's columns as a metric takes them.

    Attributes:
        systems: One hypothesis list per system column (str, or token sequences).
        references: Reference streams (``references[k][i]``), or with ``per_segment`` one list
            of references per row (``references[i]``: missing references left out).
        per_segment: The layout of ``references``.
        num_rows: Rows in the block.
    """

    systems: list[Sequence[Any]]
    references: Sequence[Sequence[Any]]
    per_segment: bool
    num_rows: int


def as_table(batch: Any) -> pa.Table:
    """A block as an Arrow table: Arrow tables and record batches, pandas frames, dicts of arrays.

    Example:
        >>> as_table({"hyp": ["a"]}).column_names
        ['hyp']
    """
    import pyarrow as pa

    if isinstance(batch, pa.Table):
        return batch
    if isinstance(batch, pa.RecordBatch):
        return pa.Table.from_batches([batch])
    if type(batch).__module__.split(".")[0] == "pandas":
        return pa.Table.from_pandas(batch, preserve_index=False)
    if isinstance(batch, dict):
        return pa.table({k: _arrow_column(v) for k, v in batch.items()})
    raise errors.InputTypeError(
        f"a block must be an Arrow table, a pandas DataFrame or a dict of columns, "
        f"not {type(batch).__name__}"
    )


def _arrow_column(values: Any) -> Any:
    """One column of a dict batch as Arrow (NumPy object arrays of lists become Arrow lists)."""
    import pyarrow as pa

    if isinstance(values, np.ndarray) and values.dtype == object:
        return pa.array(values.tolist())
    return pa.array(values) if not isinstance(values, (pa.Array, pa.ChunkedArray)) else values


def kind_of(arrow_type: Any) -> str | None:
    """The kind of an Arrow column type (``text``, ``ids``, ``tokens``), or None if not scored.

    Example:
        >>> import pyarrow as pa
        >>> kind_of(pa.string()), kind_of(pa.list_(pa.int32())), kind_of(pa.int64())
        ('text', 'ids', None)
    """
    import pyarrow as pa

    t = arrow_type
    if pa.types.is_dictionary(t):
        t = t.value_type
    if _is_text(t):
        return "text"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        if pa.types.is_integer(t.value_type):
            return "ids"
        if _is_text(t.value_type):
            return "tokens"
    return None


def _is_text(t: Any) -> bool:
    import pyarrow as pa

    return bool(
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or (hasattr(pa.types, "is_string_view") and pa.types.is_string_view(t))
    )


@dataclass(frozen=True)
class Columns:
    """The hypothesis columns (one per system) and the reference columns of a table.

    Attributes:
        systems: Hypothesis columns; the first is the baseline of a paired comparison.
        references: Reference columns (one reference stream each).
        allow_missing_references: A null reference is a missing reference (sacreBLEU's
            ``None``) instead of an error; every row still needs one.
    """

    systems: tuple[str, ...]
    references: tuple[str, ...]
    allow_missing_references: bool = False

    @classmethod
    def of(
        cls,
        systems: str | Sequence[str],
        references: str | Sequence[str],
        allow_missing_references: bool = False,
    ) -> Columns:
        """Checked column names (a single name or a list of names each).

        Raises:
            rapidbleu.errors.InvalidOptionError: No column, a name that is not a str, or a
                column named twice.

        Example:
            >>> Columns.of(["a", "b"], "ref").systems
            ('a', 'b')
        """
        sys_cols = _names(systems, "hypothesis columns")
        ref_cols = _names(references, "reference columns")
        if len(set(sys_cols)) != len(sys_cols):
            raise InvalidOptionError(f"a hypothesis column is named twice: {list(sys_cols)}")
        if len(set(ref_cols)) != len(ref_cols):
            raise InvalidOptionError(f"a reference column is named twice: {list(ref_cols)}")
        both = set(sys_cols) & set(ref_cols)
        if both:
            raise InvalidOptionError(
                f"column {sorted(both)[0]!r} is named both as hypotheses and as references"
            )
        return cls(sys_cols, ref_cols, bool(allow_missing_references))

    @property
    def names(self) -> tuple[str, ...]:
        """Every column read, systems first."""
        return self.systems + self.references

    def check_schema(self, names: Sequence[str], types: Sequence[Any] | None = None) -> str:
        """Checks column names (and Arrow types, when known) before any block is read.

        Args:
            names: The table's column names.
            types: Their Arrow types, in the same order (``None``: names only).

        Returns:
            The columns' kind (``text``, ``ids`` or ``tokens``; ``""`` without types).

        Raises:
            rapidbleu.errors.MissingColumnError: A column is not in the table.
            rapidbleu.errors.InputTypeError: A column cannot be scored, or the columns differ
                in kind.

        Example:
            >>> import pyarrow as pa
            >>> Columns.of("h", "r").check_schema(["h", "r"], [pa.string(), pa.string()])
            'text'
        """
        try:
            self._check_schema(names, types)
        except Problem as p:
            raise p.exception() from None
        return "" if types is None else str(kind_of(types[list(names).index(self.systems[0])]))

    def _check_schema(self, names: Sequence[str], types: Sequence[Any] | None) -> None:
        available = list(names)
        for col in self.names:
            if col not in available:
                role = "hypothesis" if col in self.systems else "reference"
                raise Problem(
                    "MissingColumnError",
                    None,
                    None,
                    f"the {role} column {col!r} is not in the data; its columns are "
                    + ", ".join(repr(c) for c in available),
                )
        if types is None:
            return
        kinds: dict[str, str] = {}
        for col in self.names:
            t = types[available.index(col)]
            kind = kind_of(t)
            if kind is None:
                raise Problem(
                    "InputTypeError",
                    col,
                    None,
                    f"holds {t}; a scored column holds text (string), token IDs (lists of "
                    "integers) or token lists (lists of strings)",
                )
            kinds[col] = kind
        # References among themselves first, so that the message names the two references.
        first_ref = self.references[0]
        for col in self.references[1:]:
            if kinds[col] != kinds[first_ref]:
                raise Problem(
                    "InputTypeError", None, None, _mixed("reference", first_ref, col, kinds)
                )
        for col in self.systems:
            if kinds[col] != kinds[first_ref]:
                raise Problem("InputTypeError", None, None, _mixed("", col, first_ref, kinds))

    def read(self, table: pa.Table) -> Inputs:
        """The columns of one block, checked, as a metric takes them.

        Args:
            table: The block.

        Returns:
            The hypotheses of each system and the references.

        Raises:
            Problem: Something cannot be scored (the row is the row in this block).
        """
        self._check_schema(table.column_names, list(table.schema.types))
        n = table.num_rows
        decoded = {name: _decoded(table.column(name)) for name in self.names}
        problem = self._first_problem(decoded)
        if problem is not None:
            raise problem
        systems = [_values(decoded[name]) for name in self.systems]
        text = _is_text(decoded[self.references[0]].type)  # the columns' kinds agree (checked)
        if text or not any(decoded[name].null_count for name in self.references):
            # Text is read by the core in place, a null as None: a missing reference in a
            # stream, which every metric drops as sacreBLEU drops None.
            return Inputs(systems, [_values(decoded[name]) for name in self.references], False, n)
        # Missing token references (allowed): one list per row without them.
        valid = [np.asarray(decoded[name].is_valid()) for name in self.references]
        present = [
            iter(_values(decoded[name].filter(ok))) for name, ok in zip(self.references, valid)
        ]
        refs = [[next(it) for it, ok in zip(present, valid) if ok[i]] for i in range(n)]
        return Inputs(systems, refs, True, n)

    def _first_problem(self, decoded: dict[str, Any]) -> Problem | None:
        """The problem at the block's first bad row (then in column order), or ``None``."""
        import pyarrow.compute as pc

        found: list[tuple[int, int, Problem]] = []
        for order, name in enumerate(self.names):
            column = decoded[name]
            missing_ok = name in self.references and self.allow_missing_references
            if column.null_count and not missing_ok:
                row = _first_false(column.is_valid())
                found.append((row, order, Problem("NullValueError", name, row, _NULL_CELL)))
            if kind_of(column.type) != "text":
                flat = pc.list_flatten(column)
                if flat.null_count:
                    token = _first_false(flat.is_valid())
                    row = int(np.asarray(pc.list_parent_indices(column))[token])
                    reason = "a token in the list is null"
                    found.append((row, order, Problem("NullValueError", name, row, reason)))
        if self.allow_missing_references:
            present = np.logical_or.reduce(
                [np.asarray(decoded[name].is_valid()) for name in self.references]
            )
            if not present.all():
                row = _first_false(present)
                reason = (
                    "every reference column is null there; a row needs at least one reference "
                    "(an empty string is allowed)"
                )
                found.append((row, -1, Problem("MissingReferenceError", None, row, reason)))
        return min(found, key=lambda f: (f[0], f[1]))[2] if found else None


_NULL_CELL = (
    "the cell is null; every hypothesis and reference must be given (an empty string or an "
    "empty list scores as empty)"
)


def _first_false(mask: Any) -> int:
    """The index of the first False in a boolean Arrow or NumPy array."""
    return int(np.flatnonzero(~np.asarray(mask))[0])


def _mixed(role: str, a: str, b: str, kinds: dict[str, str]) -> str:
    """The message for two columns of different kinds."""
    names = (
        f"reference columns {a!r} ({KINDS[kinds[a]]}) and {b!r} ({KINDS[kinds[b]]})"
        if role
        else f"hypothesis column {a!r} ({KINDS[kinds[a]]}) and reference column {b!r} "
        f"({KINDS[kinds[b]]})"
    )
    return (
        f"{names} hold different kinds; every hypothesis and reference column must hold the "
        "same kind"
    )


def _names(value: str | Sequence[str], what: str) -> tuple[str, ...]:
    names = (value,) if isinstance(value, str) else tuple(value)
    if not names:
        raise InvalidOptionError(f"no {what}: name at least one")
    for name in names:
        if not isinstance(name, str):
            raise InvalidOptionError(f"{what} must be column names (str), got {name!r}")
    return names


def _decoded(column: Any) -> Any:
    """A column with dictionary-encoded chunks decoded, as one Arrow array."""
    import pyarrow as pa

    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return column


def _values(column: Any) -> Sequence[Any]:
    """The cells of a checked column: text, or token sequences (null-free).

    Text is read by the core in place, a null as ``None``.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    t = column.type
    if _is_text(t):
        return arrow_text(column)  # type: ignore[no-any-return]
    flat = pc.list_flatten(column)
    if _is_text(t.value_type):
        return column.to_pylist()  # type: ignore[no-any-return]
    values = flat.to_numpy(zero_copy_only=False)
    if pa.types.is_fixed_size_list(t):
        return list(values.reshape(len(column), t.list_size))
    # Views into the flattened buffer: the core reads each through its buffer.
    lengths = np.asarray(pc.list_value_length(column), dtype=np.int64)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    return [values[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
