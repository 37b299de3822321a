"""Command-line options a metric declares (plain data: the metric never imports argparse).

The command builds one option group per metric from :attr:`Metric.CLI_OPTIONS
<rapidbleu.metrics.base.Metric.CLI_OPTIONS>` and passes the values back as constructor
keywords, so a new metric brings its own options with it.

Example:
    >>> opt = CliOption(("--chrf-beta",), "beta", type=int, default=2, help="recall weight")
    >>> opt.is_flag, opt.kwarg
    (False, 'beta')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, NamedTuple

__all__ = ["CliOption"]


# A NamedTuple, not a dataclass: `dataclasses` imports `inspect`, which cost a cold ja-mecab
# score (a fresh process) more time than the rest of BLEU's own imports.
class CliOption(NamedTuple):
    """One option of a metric on the command line.

    Attributes:
        flags: The spellings, e.g. ``("--chrf-char-order", "-cc")``.
        kwarg: The metric's constructor keyword the value goes to.
        type: The value's type (``bool`` for an on/off flag without a value).
        default: The default value.
        help: One line of help.
        choices: Allowed values (checked with a message that lists them), or ``None``.
        metavar: How the value is shown in ``--help``.
        minimum: The smallest allowed value of a number (numbers must also be finite).
    """

    flags: tuple[str, ...]
    kwarg: str
    type: Callable[[str], Any] | type[bool] = str
    default: Any = None
    help: str = ""
    choices: Sequence[str] | None = None
    metavar: str | None = None
    minimum: float | None = None

    @property
    def is_flag(self) -> bool:
        """Whether the option is an on/off switch (``action="store_true"``)."""
        return self.type is bool
