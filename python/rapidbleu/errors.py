"""Exceptions raised by rapidbleu.

Every error that rapidbleu raises on purpose is a :class:`RapidBleuError`. Each class also
derives from the built-in exception that sacreBLEU (or Python) raises for the same mistake, so
``except TypeError`` / ``except ValueError`` keep working in code written for sacreBLEU.

Example:
    >>> import rapidbleu
    >>> try:
    ...     rapidbleu.corpus_bleu(["a"], [["a", "b"]])
    ... except rapidbleu.errors.LengthMismatchError as e:
    ...     print(type(e).__name__)
    LengthMismatchError
"""

from __future__ import annotations

__all__ = [
    "DatasetDownloadError",
    "DatasetError",
    "EmptyInputError",
    "FailedOptionCheckError",
    "InputError",
    "InputFileError",
    "InputTypeError",
    "InternalError",
    "InvalidOptionError",
    "InvalidTextError",
    "LengthMismatchError",
    "MissingColumnError",
    "MissingDependencyError",
    "MissingModelError",
    "MissingReferenceError",
    "MissingResourceError",
    "NoReferencesError",
    "NullValueError",
    "RapidBleuError",
    "ReferenceNestingError",
    "UnknownNameError",
    "UsageError",
]


class RapidBleuError(Exception):
    """Base class of every error rapidbleu raises on purpose."""


class InvalidOptionError(RapidBleuError, ValueError):
    """An option has a value outside what is allowed (the message lists what is allowed)."""


class InputError(RapidBleuError, ValueError):
    """The input cannot be scored as given (the message says where and why)."""


class InputFileError(RapidBleuError, OSError):
    """An input file cannot be read: missing, a directory, not permitted, or corrupt."""


class UsageError(InvalidOptionError):
    """The command line is wrong: an unknown option, a missing or invalid value (exit code 2)."""


class InputTypeError(RapidBleuError, TypeError):
    """An input has the wrong type, e.g. a number where a string was expected."""


class LengthMismatchError(InputError):
    """Hypotheses and a reference stream (or other parallel inputs) differ in length."""


class ReferenceNestingError(LengthMismatchError, InputTypeError):
    """References nested otherwise than as sacreBLEU's streams, ``references[k][i]``.

    Raised where the nesting cannot be right: a flat list of strings, or one list per
    hypothesis (``references[i] = [ref1, ref2]``) where none is as long as the hypotheses; and by
    :func:`rapidbleu.check_references` for a square corpus whose text reads per segment. The
    message shows the expected shape and the fix (``zip(*references)``). It is a
    :class:`LengthMismatchError` and an :class:`InputTypeError` (so ``except ValueError`` and
    ``except TypeError`` catch it, as they caught what sacreBLEU raised, when it raised).
    """


class EmptyInputError(InputError, IndexError):
    """There is nothing to score: no hypotheses, or no reference streams.

    An ``IndexError`` too, as sacreBLEU raises for it (``list index out of range``).
    """


class NoReferencesError(EmptyInputError, RuntimeError):
    """A call without references (``references=None``) on a metric that has none cached.

    A ``RuntimeError`` too, as sacreBLEU raises for it ("No references provided and the cache
    is empty.").
    """


class InvalidTextError(InputError):
    """Text that is not valid Unicode (a lone surrogate) or not valid UTF-8 bytes."""


class MissingReferenceError(InputError, TypeError):
    """A segment has no reference at all (every stream is ``None`` there).

    A ``TypeError`` too, as sacreBLEU raises for it (it reads the ``None``).
    """


class MissingColumnError(InputError):
    """A column named for scoring is not in the table or dataset (the message lists those that are).

    Raised by :mod:`rapidbleu.distributed` for datasets and data frames.
    """


class NullValueError(InputError):
    """A cell to be scored is null (the message names the column and the row).

    Raised by :mod:`rapidbleu.distributed`: a null hypothesis, reference or token is never
    skipped silently.
    """


class MissingDependencyError(RapidBleuError, ImportError):
    """An optional dependency (an extra such as ``ja``, :mod:`rapidbleu.extras`) is missing."""


class MissingModelError(RapidBleuError, FileNotFoundError):
    """A model file (e.g. a SentencePiece model) is needed and was not found.

    rapidbleu downloads no model; the message says where to put the file.
    """


class DatasetError(InputError):
    """A sacreBLEU test set, language pair, field or subset that does not exist (``-t``, ``-l``)."""


class DatasetDownloadError(RapidBleuError, OSError):
    """A test set is not in sacreBLEU's cache and could not be downloaded.

    The message names each file to download and where to put it, for machines without a network.
    """


class InternalError(RapidBleuError, RuntimeError):
    """A bug in rapidbleu (for example a Rust panic caught at the boundary). Please report it."""


class MissingResourceError(MissingDependencyError, LookupError):
    """Data an oracle reads (NLTK's ``punkt_tab``, ...) is not installed where it looks.

    A ``LookupError`` too, as NLTK raises for it; the message says how to install it.
    """


class UnknownNameError(InvalidOptionError, KeyError):
    """An option names something that does not exist (a tokenizer).

    A ``KeyError`` too, as sacreBLEU raises for it (its ``_get_tokenizer`` looks the name up);
    its message reads as a ``ValueError``'s (not quoted).
    """

    __str__ = Exception.__str__


class FailedOptionCheckError(InvalidOptionError, AssertionError):
    """An option value that sacreBLEU checks with ``assert`` (``BLEU``'s ``smooth_method``).

    An ``AssertionError`` too, as sacreBLEU raises for it.
    """
