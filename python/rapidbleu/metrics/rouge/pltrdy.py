"""The ``rouge`` package 1.0.1 (pltrdy): ``Rouge`` and ``FilesRouge``, exact, on the Rust core.

``Rouge(metrics, stats, return_lengths, raw_results, exclusive).get_scores(hyps, refs, avg,
ignore_empty)`` gives the package's numbers (``==``), result dicts (keys in its order, ``int``
counts and lengths) and exceptions: ``ValueError("Hypothesis is empty.")`` and its kin on a
text with no sentence (raised as :class:`~rapidbleu.errors.InputError`, a ``ValueError``, with
the package's message), ``AssertionError`` on mismatched inputs, ``KeyError('hyp')`` for
``avg`` with ``raw_results``, ``ZeroDivisionError`` on no items. Two cases run the real package
(installed as ``rouge``) instead, since only it can say what it does there: an item whose
recursive LCS read-back (``_recon_lcs``) goes deeper than CPython's recursion limit allows
(the package raises ``RecursionError`` or not, depending on the caller's stack), and texts
that are not ``str`` or hold lone surrogates.

:mod:`rapidbleu.metrics.rouge.chinese` is ``rouge-chinese`` 1.0.3, the same code with its
sentence splitter and ROUGE-L.

Example:
    >>> Rouge().get_scores("the cat sat", "the cat sat down")[0]["rouge-1"]["r"]
    0.75
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, ClassVar

from rapidbleu import _core
from rapidbleu.errors import (
    InputError,
    InvalidOptionError,
    InvalidTextError,
    MissingDependencyError,
)
from rapidbleu.metrics.rouge.packages import real_module

__all__ = ["FilesRouge", "Rouge"]

#: ``_recon``'s recursion depth (its calls) beyond which the real package decides: CPython's
#: default limit is 1,000 frames, and the package's own callers take about ten.
_DEEP = 900

_METRICS = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"]


def _string_types(hyps: object) -> bool:
    # six.string_types on Python 3 is (str,).
    return isinstance(hyps, str)


class Rouge:
    """The ``rouge`` package's ``Rouge``.

    Args:
        metrics: Names among ``rouge-1`` .. ``rouge-5``, ``rouge-l`` (any case); default
            ``rouge-1``, ``rouge-2``, ``rouge-l``.
        stats: Among ``r``, ``p``, ``f`` (any case); default all three.
        return_lengths: Add each item's (or the mean) word counts under ``"lengths"``.
        raw_results: Counts ``hyp``, ``ref``, ``overlap`` instead of scores.
        exclusive: Count n-grams (and ROUGE-L words) as sets, the package's default.

    Example:
        >>> Rouge(metrics=["rouge-2"], stats=["f"]).get_scores(["a b c"], ["a b d"])
        [{'rouge-2': {'f': 0.4999999950000001}}]
    """

    DEFAULT_METRICS: ClassVar[list[str]] = ["rouge-1", "rouge-2", "rouge-l"]
    AVAILABLE_METRICS: ClassVar[dict[str, str]] = {m: m for m in _METRICS}
    DEFAULT_STATS: ClassVar[list[str]] = ["r", "p", "f"]
    AVAILABLE_STATS: ClassVar[list[str]] = ["r", "p", "f"]

    #: The real package's module (the fallback), and whether this is rouge-chinese.
    _PACKAGE = "rouge"
    _CHINESE = False

    def __init__(
        self,
        metrics: Sequence[str] | None = None,
        stats: Sequence[str] | None = None,
        return_lengths: bool = False,
        raw_results: bool = False,
        exclusive: bool = True,
    ) -> None:
        self.return_lengths = return_lengths
        self.raw_results = raw_results
        self.exclusive = exclusive
        if metrics is not None:
            self.metrics = [m.lower() for m in metrics]
            for m in self.metrics:
                if m not in Rouge.AVAILABLE_METRICS:
                    raise InvalidOptionError(f"Unknown metric '{m}'")
        else:
            self.metrics = Rouge.DEFAULT_METRICS
        if self.raw_results:
            self.stats = ["hyp", "ref", "overlap"]
        elif stats is not None:
            self.stats = [s.lower() for s in stats]
            for s in self.stats:
                if s not in Rouge.AVAILABLE_STATS:
                    raise InvalidOptionError(f"Unknown stat '{s}'")
        else:
            self.stats = Rouge.DEFAULT_STATS

    def _options(self) -> _core.PltrdyOptions:
        return _core.PltrdyOptions(self.metrics, bool(self.exclusive), self._CHINESE)

    def _real(self) -> Any:
        """The real package's ``Rouge`` with these options (the fallback)."""
        try:
            module = real_module(f"{self._PACKAGE}.rouge")
        except ImportError as e:
            raise MissingDependencyError(
                f"this input needs the real {self._PACKAGE} package (texts that are not str, or "
                f"an LCS too deep for its recursion); pip install {self._PACKAGE.replace('_', '-')}"
            ) from e
        real = module.Rouge(
            metrics=self.metrics,
            return_lengths=self.return_lengths,
            raw_results=self.raw_results,
            exclusive=self.exclusive,
        )
        real.stats = self.stats
        return real

    def get_scores(
        self, hyps: Any, refs: Any, avg: bool = False, ignore_empty: bool = False
    ) -> Any:
        """Scores of each ``hyps[i]`` against ``refs[i]``, or their means (``avg``).

        Args:
            hyps: Hypotheses (a ``str`` for one).
            refs: One reference per hypothesis (a ``str`` for one).
            avg: The means over items instead of a list of per-item dicts.
            ignore_empty: Skip the pairs where either string is empty.

        Returns:
            A list of ``{metric: {stat: value}}`` (and ``"lengths"``), or one such dict.

        Example:
            >>> Rouge(stats=["f"]).get_scores(["a b"], ["a b"], avg=True)["rouge-l"]
            {'f': 0.999999995}
        """
        if _string_types(hyps):
            hyps, refs = [hyps], [refs]
        if ignore_empty:
            pairs = [p for p in zip(hyps, refs) if len(p[0]) > 0 and len(p[1]) > 0]
            hyps, refs = zip(*pairs)
        assert isinstance(hyps, type(refs))
        assert len(hyps) == len(refs)
        if not all(isinstance(t, str) for t in hyps) or not all(isinstance(t, str) for t in refs):
            return self._real().get_scores(hyps, refs, avg=avg)
        opts = self._options()
        try:
            rows = opts.item_rows(hyps, refs)
        except InvalidTextError:
            return self._real().get_scores(hyps, refs, avg=avg)
        if (
            "rouge-l" in self.metrics
            and not self._CHINESE
            and len(rows)
            and rows[:, -1].max() > _DEEP
        ):
            return self._real().get_scores(hyps, refs, avg=avg)
        if avg and self.raw_results and self.metrics:
            # The package's average asks each score dict for "hyp": the first item decides.
            if not len(rows):
                raise ZeroDivisionError("division by zero")
            self._raise_first(opts, rows[:1])
            raise KeyError("hyp")
        self._raise_first(opts, rows)
        return self._average(opts, rows) if avg else self._items(opts, rows)

    @staticmethod
    def _raise_first(opts: _core.PltrdyOptions, rows: Any) -> None:
        err = opts.first_error(rows)
        if err is not None:
            raise InputError(err[1])

    def _slots(self, opts: _core.PltrdyOptions) -> dict[str, int]:
        """Each metric name's triple index in a row (repeated names share one)."""
        distinct = list(dict.fromkeys(self.metrics))
        return {m: distinct.index(m) for m in self.metrics}

    def _items(self, opts: _core.PltrdyOptions, rows: Any) -> list[dict[str, Any]]:
        slots = self._slots(opts)
        n = len(set(slots.values()))
        if self.raw_results:
            values = rows[:, : 3 * n].tolist()
            index = {"hyp": 0, "ref": 1, "overlap": 2}
        else:
            # No metric: an array of no columns has no rows either.
            values = opts.item_scores(rows).tolist() if n else [[]] * len(rows)
            index = {"f": 0, "p": 1, "r": 2}
        # Performance decision: each item's dicts are built from precomputed (key, column)
        # pairs, the one Python loop over items left (the numbers come from the core).
        cols = [(m, [(s, 3 * k + index[s]) for s in self.stats]) for m, k in slots.items()]
        out: list[dict[str, Any]] = [
            {m: {s: v[c] for s, c in sc} for m, sc in cols} for v in values
        ]
        if self.return_lengths:
            for item, (h, r) in zip(out, rows[:, 3 * n : 3 * n + 2].tolist()):
                item["lengths"] = {"hyp": h, "ref": r}
        return out

    def _average(self, opts: _core.PltrdyOptions, rows: Any) -> dict[str, Any]:
        if not len(rows):
            # `sums / count` runs per metric (and for the lengths): none, no division.
            if self.metrics or self.return_lengths:
                raise ZeroDivisionError("division by zero")
            return {}
        # A repeated name's scores are added once per appearance (`_get_avg_scores`).
        distinct = list(dict.fromkeys(self.metrics))
        means, lengths = opts.average(rows, [self.metrics.count(m) for m in distinct])
        means = means.tolist()
        keys = {"f": 0, "p": 1, "r": 2}
        out: dict[str, Any] = {
            m: {s: means[k][keys[s]] for s in self.stats} for m, k in self._slots(opts).items()
        }
        if self.return_lengths:
            out["lengths"] = {"hyp": lengths[0], "ref": lengths[1]}
        return out


class FilesRouge:
    """The ``rouge`` package's ``FilesRouge``: lines of two files, paired.

    Args:
        *args: :class:`Rouge`'s arguments.
        **kwargs: :class:`Rouge`'s keyword arguments.

    Example:
        >>> FilesRouge().rouge.metrics
        ['rouge-1', 'rouge-2', 'rouge-l']
    """

    _ROUGE: type[Rouge] = Rouge

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.rouge = self._ROUGE(*args, **kwargs)

    def _check_files(self, hyp_path: str, ref_path: str) -> None:
        assert os.path.isfile(hyp_path)
        assert os.path.isfile(ref_path)

        def line_count(path: str) -> int:
            with open(path, "rb") as f:
                return sum(1 for _ in f)

        assert line_count(hyp_path) == line_count(ref_path)

    def get_scores(
        self, hyp_path: str, ref_path: str, avg: bool = False, ignore_empty: bool = False
    ) -> Any:
        r"""Scores of the files' lines (each line's last character dropped, as the package does).

        Args:
            hyp_path: Hypotheses, one per line.
            ref_path: References, one per line.
            avg: The means instead of per-line dicts.
            ignore_empty: Skip the pairs where either line is empty.

        Returns:
            What :meth:`Rouge.get_scores` returns.

        Example:
            >>> import tempfile, pathlib
            >>> d = pathlib.Path(tempfile.mkdtemp())
            >>> _ = (d / "h").write_text("a b\\n"); _ = (d / "r").write_text("a c\\n")
            >>> FilesRouge(stats=["f"]).get_scores(str(d / "h"), str(d / "r"))[0]["rouge-1"]
            {'f': 0.4999999950000001}
        """
        self._check_files(hyp_path, ref_path)
        with open(hyp_path, encoding="utf-8") as hyp_file:
            hyps = [line[:-1] for line in hyp_file]
        with open(ref_path, encoding="utf-8") as ref_file:
            refs = [line[:-1] for line in ref_file]
        return self.rouge.get_scores(hyps, refs, avg=avg, ignore_empty=ignore_empty)
