"""sacreBLEU's test sets (``-t wmt17 -l en-de``), through sacreBLEU's own registry and cache.

rapidbleu does not copy sacreBLEU's list of test sets: the ``datasets`` extra installs
sacreBLEU, and these functions ask its ``DATASETS`` registry, which downloads a test set into
sacreBLEU's cache (``$SACREBLEU``, default ``~/.sacrebleu``) the first time it is needed and
reads it from there afterwards. A cache filled by the ``sacrebleu`` command serves rapidbleu
too, and the other way round. ``sacrebleu`` is imported by these functions only, never by
``import rapidbleu``.

Without a network, a test set that is not in the cache yet raises
:class:`~rapidbleu.errors.DatasetDownloadError`, whose message names each file to download and
where to put it (:func:`offline_instructions`).

Example:
    >>> from rapidbleu import datasets
    >>> "wmt17" in datasets.get_available_testsets()  # the registry alone: no download
    True
    >>> datasets.get_reference_files("wmt17", "en-de")  # doctest: +SKIP
    ['/home/me/.sacrebleu/wmt17/wmt17.en-de.ref']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Callable, TypeVar

from rapidbleu.errors import DatasetDownloadError, DatasetError, MissingDependencyError
from rapidbleu.extras import install_hint

__all__ = [
    "dataset",
    "download_test_set",
    "fieldnames",
    "filter_subset",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_files",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "offline_instructions",
    "registry",
]

T = TypeVar("T")


def _sacrebleu(module: str = "sacrebleu") -> ModuleType:
    """Imports sacreBLEU (or one of its modules), or says how to install the extra.

    The real package also in accelerator mode, where the name ``sacrebleu`` is rapidbleu's.
    """
    from rapidbleu.accelerate.real import module as real_module

    try:
        return real_module(module)
    except ImportError as e:
        raise MissingDependencyError(
            "sacreBLEU's test sets (-t/--test-set, get_reference_files, ...) need sacreBLEU's "
            f"registry: {install_hint('datasets')} ({e})"
        ) from e


def registry() -> dict[str, Any]:
    """The registry ``sacrebleu.DATASETS``: test-set name -> its ``Dataset`` object.

    Raises:
        rapidbleu.errors.MissingDependencyError: sacreBLEU is not installed.
    """
    return _sacrebleu("sacrebleu.dataset").DATASETS  # type: ignore[no-any-return]


def get_available_testsets() -> list[str]:
    """Every test-set name, newest first (sacreBLEU's ``get_available_testsets``)."""
    return sorted(registry(), reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets with ``langpair`` in either direction (sacreBLEU's function of that name).

    As in sacreBLEU, ``en-fr`` also finds the test sets that have ``fr-en``, and they come in
    the registry's order.

    Args:
        langpair: A language pair such as ``en-de``.

    Returns:
        The names of the test sets that have ``langpair`` or its reverse.

    Raises:
        rapidbleu.errors.DatasetError: ``langpair`` is not of the form ``src-trg``.

    Example:
        >>> "wmt09" in get_available_testsets_for_langpair("it-en")  # the registry alone
        True
    """
    parts = langpair.split("-")
    if len(parts) < 2:
        raise DatasetError(f"language pair {langpair!r} is not of the form src-trg (e.g. en-de)")
    # sacreBLEU's `get_available_testsets_for_langpair` reads parts[0] and parts[1] only.
    pairs = (f"{parts[0]}-{parts[1]}", f"{parts[1]}-{parts[0]}")
    return [ds.name for ds in registry().values() if any(p in ds.langpairs for p in pairs)]


def dataset(test_set: str) -> Any:
    """The registry's ``Dataset`` for ``test_set``.

    Raises:
        rapidbleu.errors.DatasetError: No such test set (the message says how to list them).
    """
    datasets = registry()
    if test_set not in datasets:
        raise DatasetError(
            f"unknown test set {test_set!r}; `rapidbleu --list` shows the available test sets"
        )
    return datasets[test_set]


def get_langpairs_for_testset(test_set: str) -> list[str]:
    """The language pairs of ``test_set`` (``[]`` for an unknown test set, as in sacreBLEU)."""
    datasets = registry()
    return list(datasets[test_set].langpairs) if test_set in datasets else []


def _check_langpair(test_set: str, langpair: str | None) -> None:
    pairs = list(dataset(test_set).langpairs)
    if langpair is None:
        raise DatasetError(
            f"test set {test_set!r} needs a language pair (-l); it has: {', '.join(pairs)}"
        )
    if langpair not in pairs:
        raise DatasetError(
            f"test set {test_set!r} has no language pair {langpair!r}; it has: {', '.join(pairs)}"
        )


def fieldnames(test_set: str, langpair: str) -> list[str]:
    """The fields of ``test_set`` for ``langpair`` (``src``, ``ref``, ``ref:A``, ``docid``...)."""
    _check_langpair(test_set, langpair)
    return list(dataset(test_set).fieldnames(langpair))


def offline_instructions(test_set: str) -> str:
    """What to download, and where to put it, to use ``test_set`` without a network.

    sacreBLEU downloads each file of ``Dataset.data`` into ``$SACREBLEU/<test set>/raw/``
    under the name ``Dataset._get_tarball_filename(url)``, extracts archives there and then
    writes plain-text files next to ``raw/``. It extracts only what it downloaded itself, so
    an archive put there by hand must be extracted by hand too.

    Example:
        >>> text = offline_instructions("wmt17")
        >>> text.startswith("download https://data.statmt.org/wmt17/translation-task/test.tgz, ")
        True
        >>> "wmt17/raw/wmt17.test.tgz and extract it there (tar -xzf " in text
        True
    """
    ds = dataset(test_set)
    rawdir = ds._rawdir
    steps = []
    for url in ds.data or []:
        path = os.path.join(rawdir, ds._get_tarball_filename(url))
        step = f"download {url}, save it as {path}"
        if path.endswith((".tar.gz", ".tgz")):
            step += f" and extract it there (tar -xzf {path} -C {rawdir})"
        elif path.endswith(".zip"):
            step += f" and extract it there (unzip {path} -d {rawdir})"
        steps.append(step)
    # `_outdir` is $SACREBLEU/<test set>: the cache is the folder above it.
    cache = os.path.dirname(os.path.normpath(ds._outdir))
    return "; ".join(steps) + f" (sacreBLEU's cache is $SACREBLEU, here {cache})"


def _fetching(test_set: str, what: Callable[[], T]) -> T:
    """Runs ``what`` (which may download), turning sacreBLEU's download failures into ours.

    sacreBLEU lets ``urllib``'s errors through and calls ``sys.exit(1)`` on an SSL error or a
    wrong MD5 sum; either becomes :class:`DatasetDownloadError` with the way to do it by hand.
    """
    try:
        return what()
    except (OSError, SystemExit) as e:
        reason = (
            f"exit code {e.code}: see the sacreBLEU messages above"
            if isinstance(e, SystemExit)
            else (str(getattr(e, "reason", "") or e) or type(e).__name__)
        )
        raise DatasetDownloadError(
            f"test set {test_set!r} is not in sacreBLEU's cache and could not be downloaded "
            f"({reason}). Without a network: {offline_instructions(test_set)}"
        ) from None


def get_files(test_set: str, langpair: str) -> list[str]:
    """Every field's text file (source, references, metadata), downloading once if needed.

    Raises:
        rapidbleu.errors.DatasetError: Unknown test set or language pair.
        rapidbleu.errors.DatasetDownloadError: Not cached and the download failed.
    """
    _check_langpair(test_set, langpair)
    ds = dataset(test_set)
    return list(_fetching(test_set, lambda: ds.get_files(langpair)))


def get_source_file(test_set: str, langpair: str) -> str:
    """The source file of ``test_set``/``langpair`` (sacreBLEU's ``get_source_file``).

    Raises:
        rapidbleu.errors.DatasetError: Unknown test set or language pair.
        rapidbleu.errors.DatasetDownloadError: Not cached and the download failed.
    """
    _check_langpair(test_set, langpair)
    ds = dataset(test_set)
    return str(_fetching(test_set, lambda: ds.get_source_file(langpair)))


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The reference files of ``test_set``/``langpair`` (sacreBLEU's ``get_reference_files``).

    Raises:
        rapidbleu.errors.DatasetError: Unknown test set or language pair.
        rapidbleu.errors.DatasetDownloadError: Not cached and the download failed.
    """
    _check_langpair(test_set, langpair)
    ds = dataset(test_set)
    return list(_fetching(test_set, lambda: ds.get_reference_files(langpair)))


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Downloads (once) and processes a test set; returns its files (sacreBLEU's function).

    Raises:
        rapidbleu.errors.DatasetError: Unknown test set or language pair.
        rapidbleu.errors.DatasetDownloadError: The download failed.
    """
    ds = dataset(test_set)
    if langpair is not None:
        _check_langpair(test_set, langpair)
    return list(_fetching(test_set, lambda: ds.get_files(langpair)))


def filter_subset(
    columns: Sequence[Sequence[str]],
    test_sets: str,
    langpair: str,
    origlang: str | None,
    subset: str | None = None,
) -> list[list[str]]:
    """Keeps the segments of documents with ``origlang`` / in ``subset`` (sacreBLEU's function).

    Args:
        columns: Parallel line lists (systems and references) of the concatenated test sets.
        test_sets: Comma-separated test-set names, as given to ``-t``.
        langpair: The language pair.
        origlang: A language code, ``non-`` + a code, or ``None``.
        subset: A regular expression over the documents' subset annotation, or ``None``.

    Raises:
        rapidbleu.errors.DatasetError: The test set has no such annotation.
        rapidbleu.errors.DatasetDownloadError: The raw files are not cached and cannot be
            downloaded.
    """
    utils = _sacrebleu("sacrebleu.utils")
    if origlang is None and subset is None:
        return [list(c) for c in columns]
    first = test_sets.split(",")[0]
    try:
        kept = _fetching(
            first,
            lambda: utils.filter_subset(
                [list(c) for c in columns], test_sets, langpair, origlang, subset
            ),
        )
    except DatasetDownloadError:
        raise
    except Exception as e:  # sacreBLEU raises a bare Exception for a missing annotation
        raise DatasetError(f"--origlang/--subset on {test_sets!r}: {e}") from None
    return [list(c) for c in kept]


def __getattr__(name: str) -> Any:
    # sacreBLEU's `DATASETS`, only when asked for (it imports sacreBLEU).
    if name == "DATASETS":
        return registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
