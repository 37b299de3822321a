"""The row layout a metric declares: what each column of its statistics rows means.

Every metric gives one int64 row of statistics per segment. Code above the metrics (dialects,
significance tests, reports) reads columns through the layout instead of slicing rows by hand,
so a metric can change its row without breaking its users.

Example:
    >>> import numpy as np
    >>> layout = RowLayout.of(["hyp_len", "ref_len"], correct=2, total=2)
    >>> layout.columns
    ('hyp_len', 'ref_len', 'correct_1', 'correct_2', 'total_1', 'total_2')
    >>> rows = np.array([[3, 3, 2, 1, 3, 2]])
    >>> layout.group(rows, "correct").tolist(), layout.column(rows, "ref_len").tolist()
    ([[2, 1]], [3])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["RowLayout", "Rows"]

#: Statistics rows: one int64 row per segment, contiguous. (A string: NumPy is not imported
#: until rows are made, so the command's corpus path starts without it.)
Rows: TypeAlias = "npt.NDArray[np.int64]"


# A NamedTuple, not a dataclass: `dataclasses` imports `inspect`, which cost a cold ja-mecab
# score (a fresh process) more time than the rest of BLEU's own imports.
class RowLayout(NamedTuple):
    """Column names of a metric's statistics rows, and named groups of columns.

    Attributes:
        columns: One name per column, in order.
        groups: Named column sets (e.g. ``correct`` -> the columns ``correct_1..N``), as
            slices (a step is allowed: chrF interleaves ``hyp``/``ref``/``match`` per order).
    """

    columns: tuple[str, ...]
    groups: Mapping[str, slice] = {}  # shared, but a Mapping: never written

    @classmethod
    def of(cls, scalars: Sequence[str], **per_order: int) -> RowLayout:
        """Scalar columns, then groups of numbered columns (``name_1..name_k``), in order.

        Args:
            scalars: Names of the leading single columns.
            **per_order: Group name -> how many numbered columns it has.

        Returns:
            The layout.

        Example:
            >>> RowLayout.of(["a"], b=2).groups["b"]
            slice(1, 3, None)
        """
        columns = list(scalars)
        groups: dict[str, slice] = {}
        for name, n in per_order.items():
            groups[name] = slice(len(columns), len(columns) + n)
            columns += [f"{name}_{i}" for i in range(1, n + 1)]
        return cls(tuple(columns), groups)

    @property
    def width(self) -> int:
        """Number of columns.

        Example:
            >>> RowLayout(("a", "b")).width
            2
        """
        return len(self.columns)

    def index(self, name: str) -> int:  # type: ignore[override]  # by name, not tuple.index
        """The position of column ``name``.

        Example:
            >>> RowLayout(("a", "b")).index("b")
            1
        """
        return self.columns.index(name)

    def column(self, rows: npt.NDArray[Any], name: str) -> npt.NDArray[Any]:
        """Column ``name`` of ``rows`` (a 2-D array) or of one row (a 1-D array), as a view.

        Example:
            >>> import numpy as np
            >>> RowLayout(("a", "b")).column(np.array([[1, 2], [3, 4]]), "b").tolist()
            [2, 4]
        """
        return rows[..., self.index(name)]

    def group(self, rows: npt.NDArray[Any], name: str) -> npt.NDArray[Any]:
        """The columns of group ``name`` of ``rows`` (2-D or one row), as a view.

        Example:
            >>> import numpy as np
            >>> RowLayout.of([], x=2).group(np.array([[5, 6]]), "x").tolist()
            [[5, 6]]
        """
        return rows[..., self.groups[name]]
