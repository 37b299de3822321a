"""The SentencePiece tokenizers ``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K``.

They copy ``sacrebleu.tokenizers.tokenizer_spm.TokenizerSPM`` (sacreBLEU 2.6.0): the output is
``" ".join(sp.EncodeAsPieces(line))``, the signature is the model's name, and ``spm`` is a
deprecated alias of ``flores101``. One difference is deliberate: **rapidbleu never downloads.**
The model comes from an explicit ``spm_model`` path, or from the file sacreBLEU itself would
have downloaded, ``$SACREBLEU/models/<basename of the URL>`` (default ``~/.sacrebleu``), so
users of sacreBLEU who already have its cached models need nothing more. When the file is
missing, :class:`~rapidbleu.errors.MissingModelError` says where to get it and where to put it.

``$SACREBLEU`` is read each time a tokenizer is built (sacreBLEU reads it once, at import).

:meth:`TokenizerSPM.tokenize_batch` encodes a whole batch with the sentencepiece package's own
batch encoder (``EncodeAsIds(list, num_threads=...)``: native threads, and the GIL released
from sentencepiece 0.2.2 on) and joins the ids' pieces in the Rust core, backend ``engine``;
backend ``python`` calls ``EncodeAsPieces(line)`` per line, as sacreBLEU does. Both run the
same C++ ``SentencePieceProcessor::Encode`` on each line, so the pieces are the same.

The dependency is an optional extra, imported only when a tokenizer is built:
``pip install sentencepiece``, or in a rapidbleu source checkout ``pip install ".[spm]"``.

Example:
    >>> from rapidbleu.tokenizers.spm import model_path_for
    >>> model_path_for("flores200").endswith("flores200sacrebleuspm")
    True
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable

import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError, MissingDependencyError, MissingModelError
from rapidbleu.extras import install_hint
from rapidbleu.tokenizers._cache import CachedBatches, LineCache
from rapidbleu.tokenizers.backend import resolve_backend

__all__ = [
    "CACHE_SIZE",
    "SPM_MODELS",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "TokenizerSPM",
    "model_path_for",
    "sacrebleu_dir",
    "sharing_key",
    "spBLEU1KTokenizer",
    "warn_spm_alias",
]

logger = logging.getLogger("rapidbleu")

#: Entries in each tokenizer's cache of tokenized lines (sacreBLEU's ``lru_cache(maxsize=2**16)``).
CACHE_SIZE = 2**16

#: sacreBLEU 2.6.0's ``tokenizer_spm.SPM_MODELS``: where each model is downloaded from (its
#: basename is the cached file's name) and the ``tok:`` signature it gives.
SPM_MODELS: dict[str, dict[str, str]] = {
    "spm": {
        "url": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "signature": "flores101",
    },
    "flores101": {
        "url": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "signature": "flores101",
    },
    "flores200": {
        "url": "https://tinyurl.com/flores200sacrebleuspm",
        "signature": "flores200",
    },
    "spBLEU-1K": {
        "url": "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
        "signature": "spBLEU-1K",
    },
}


def sacrebleu_dir() -> str:
    """The data folder of sacreBLEU: ``$SACREBLEU`` or ``~/.sacrebleu`` (``utils.SACREBLEU_DIR``).

    Example:
        >>> import os
        >>> sacrebleu_dir() == os.environ.get("SACREBLEU", os.path.expanduser("~/.sacrebleu"))
        True
    """
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def model_path_for(key: str) -> str:
    """Where sacreBLEU keeps the model of tokenizer ``key`` once it has downloaded it.

    This is the path ``TokenizerSPM.__init__`` builds:
    ``os.path.join(SACREBLEU_DIR, "models", os.path.basename(url))``.

    Args:
        key: ``spm``, ``flores101``, ``flores200`` or ``spBLEU-1K``.

    Raises:
        InvalidOptionError: ``key`` is not a SentencePiece tokenizer.

    Example:
        >>> import os
        >>> os.path.basename(model_path_for("spm"))
        'sacrebleu_tokenizer_spm.model'
    """
    return os.path.join(sacrebleu_dir(), "models", os.path.basename(_model(key)["url"]))


def _model(key: str) -> dict[str, str]:
    """``SPM_MODELS[key]``, or an error listing the valid keys."""
    try:
        return SPM_MODELS[key]
    except KeyError:
        raise InvalidOptionError(
            f"unknown SentencePiece tokenizer {key!r}; allowed: " + ", ".join(SPM_MODELS)
        ) from None


def _import_sentencepiece(key: str) -> ModuleType:
    """Imports ``sentencepiece``, or says which extra installs it."""
    try:
        return importlib.import_module("sentencepiece")
    except ImportError as e:
        raise MissingDependencyError(
            f"the {key!r} tokenizer needs the sentencepiece package ({e}); "
            f"install it with: {install_hint('spm')}"
        ) from e


def _resolve_model(key: str, spm_model: str | os.PathLike[str] | None) -> str:
    """The model file to load: ``spm_model`` if given, else sacreBLEU's cached copy.

    Raises:
        MissingModelError: the file does not exist. Where sacreBLEU would download it
            (``utils.download_file``), rapidbleu says how to provide it.
    """
    url = _model(key)["url"]
    if spm_model is not None:
        path = os.fspath(spm_model)
        if not os.path.isfile(path):
            raise MissingModelError(
                f"the {key!r} tokenizer was given the model {path!r} (spm_model= or "
                f"--spm-model), which is not a file; pass the path of the SentencePiece model "
                f"(sacreBLEU's model for {key!r} can be downloaded from {url})"
            )
        return path
    path = model_path_for(key)
    if not os.path.isfile(path):
        raise MissingModelError(
            f"the {key!r} tokenizer needs the SentencePiece model file {path!r}, which does "
            f"not exist, and rapidbleu never downloads. Download it by hand from {url} and "
            f"either put it at {path!r} (sacreBLEU's model cache, under $SACREBLEU or "
            f"~/.sacrebleu; sacreBLEU finds it there too) or pass its path: spm_model=... in "
            f"Python, --spm-model FILE on the command line"
        )
    return path


def sharing_key(
    key: str, spm_model: str | os.PathLike[str] | None, backend: str
) -> tuple[tuple[str, str, int, int, str], str]:
    """What makes two tokenizers interchangeable, and the model file to load.

    Two requests for the same tokenizer, the same model file (as it is now on disk) and the
    same backend may share one instance and its line cache (``get_python_tokenizer`` does).

    Args:
        key: ``spm``, ``flores101``, ``flores200`` or ``spBLEU-1K``.
        spm_model: As for :class:`TokenizerSPM`.
        backend: ``engine`` or ``python`` (or ``auto``).

    Returns:
        ``((key, real path, mtime in ns, size, backend), path)``.

    Raises:
        InvalidOptionError: ``key`` is unknown.
        MissingDependencyError: ``sentencepiece`` is not installed.
        MissingModelError: the model file does not exist.

    Example:
        >>> sharing_key("flores300", "flores300.model", "engine")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InvalidOptionError: unknown SentencePiece tokenizer 'flores300'; ...
    """
    _model(key)
    _import_sentencepiece(key)
    path = _resolve_model(key, spm_model)
    stat = os.stat(path)
    return (key, os.path.realpath(path), stat.st_mtime_ns, stat.st_size, backend), path


def warn_spm_alias(key: str) -> None:
    """Logs sacreBLEU's deprecation warning for ``spm`` (``TokenizerSPM.__init__``).

    Example:
        >>> warn_spm_alias("flores200")  # only "spm" warns
    """
    if key == "spm":
        # sacreBLEU's TokenizerSPM.__init__ logs this (sacrelogger.warn) and goes on.
        logger.warning(
            "Tokenizer 'spm' has been changed to '%s', and may be removed in the future.",
            _model(key)["signature"],
        )


#: Below this many lines a batch is encoded on the calling thread: starting threads (the
#: sentencepiece package starts a pool per call) would cost more than it gains.
_MIN_PARALLEL = 64


def _encode_many_with(sp: Any, one: Callable[[str], str]) -> Callable[[list[str], int], list[str]]:
    """The ``engine`` batch: sentencepiece's batch encoder, exactly ``[one(line) ...]``.

    ``EncodeAsIds(list)`` runs ``SentencePieceProcessor::Encode`` on each line, as
    ``EncodeAsPieces(line)`` does, on native threads; the core joins the ids' pieces
    (``_core.PieceTable``, which explains why that is exact). A line with an unknown piece
    (whose text is not the vocabulary's) goes through ``one``, and so does the whole batch if
    the encoder refuses it (a line that is not valid text), so that the error is sacreBLEU's own.
    """
    tables: list[_core.PieceTable] = []  # built on first use: a FLORES vocabulary has 256k

    def many(lines: list[str], num_threads: int) -> list[str]:
        if not tables:
            size = sp.GetPieceSize()
            tables.append(_core.PieceTable(sp.IdToPiece(list(range(size))), sp.unk_id()))
        # rapidbleu's 0 (all cores) is sentencepiece's -1; its 0 would mean one thread.
        threads = 1 if len(lines) < _MIN_PARALLEL else (num_threads or -1)
        try:
            ids = sp.EncodeAsIds(lines, num_threads=threads)
        except Exception:
            return [one(line) for line in lines]
        joined = tables[0].join(ids)
        return [one(line) if text is None else text for line, text in zip(lines, joined)]

    return many


def _serial(one: Callable[[str], str]) -> Callable[[list[str], int], list[str]]:
    """The ``python`` batch: ``one`` per line (``num_threads`` is unused)."""

    def many(lines: list[str], num_threads: int) -> list[str]:
        return [one(line) for line in lines]

    return many


def _encode_with(sp: Any) -> Callable[[str], str]:
    """The uncached tokenizer, the body of sacreBLEU's ``TokenizerSPM.__call__``.

    It closes over the processor rather than the tokenizer so that the per-instance cache
    wrapped around it does not form a reference cycle back to the instance.
    """

    def encode(line: str) -> str:
        # SentencePieceProcessor's encoding is const in C++, so it is safe from several threads.
        return " ".join(sp.EncodeAsPieces(line))

    return encode


def _rebuild(
    cls: type[TokenizerSPM], key: str, spm_model: str, backend: str | None = None
) -> TokenizerSPM:
    """Unpickles a tokenizer: loads the same model file again, without warning again."""
    tok = cls.__new__(cls)
    tok._setup(key, spm_model, backend)
    return tok


class TokenizerSPM(CachedBatches):
    """A SentencePiece tokenizer (sacreBLEU's ``TokenizerSPM``), without the download.

    Args:
        key: ``spm`` (deprecated alias of ``flores101``), ``flores101``, ``flores200`` or
            ``spBLEU-1K``; it decides the signature and the default model file.
        spm_model: Path of the model file. ``None`` uses sacreBLEU's cached copy,
            :func:`model_path_for` ``(key)``. The signature names ``key``'s model either way.
        backend: ``auto`` or ``engine`` (batches through sentencepiece's batch encoder) or
            ``python`` (one line at a time); ``None`` reads ``$RAPIDBLEU_TOKENIZER_BACKEND``.

    Attributes:
        model_path: The model file that was loaded.
        backend: The backend in use, ``engine`` or ``python``.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``key`` or ``backend`` is unknown, or the file is
            not a SentencePiece model.
        rapidbleu.errors.MissingDependencyError: ``sentencepiece`` is not installed.
        rapidbleu.errors.MissingModelError: the model file does not exist.

    Example:
        >>> from rapidbleu.tokenizers.spm import TokenizerSPM
        >>> tok = TokenizerSPM("flores200", spm_model="flores200.model")  # doctest: +SKIP
        >>> tok("Hello world"), tok.signature()  # doctest: +SKIP
        ('▁Hello ▁world', 'flores200')
    """

    model_path: str
    backend: str

    def __init__(
        self,
        key: str = "spm",
        spm_model: str | os.PathLike[str] | None = None,
        backend: str | None = None,
    ) -> None:
        _model(key)
        warn_spm_alias(key)
        self._setup(key, spm_model, backend)

    def _setup(
        self, key: str, spm_model: str | os.PathLike[str] | None, backend: str | None
    ) -> None:
        """Imports sentencepiece, finds and loads the model, builds the caches."""
        self._key = key
        self._asked = backend
        self.backend = "python" if resolve_backend(backend) == "python" else "engine"
        self.name = _model(key)["signature"]
        spm = _import_sentencepiece(key)
        path = _resolve_model(key, spm_model)
        sp = spm.SentencePieceProcessor()
        try:
            sp.Load(path)
        except (OSError, RuntimeError) as e:
            raise InvalidOptionError(
                f"the {key!r} tokenizer could not load {path!r} as a SentencePiece model ({e}); "
                f"the file is corrupt or not a model. sacreBLEU's model for {key!r} can be "
                f"downloaded from {_model(key)['url']}; put it at {model_path_for(key)!r} "
                "(sacreBLEU's model cache) or pass its path as spm_model=..."
            ) from e
        self.model_path = path
        # Per instance, unlike sacreBLEU's class-level lru_cache: the caches die with the
        # tokenizer instead of keeping it alive.
        one = _encode_with(sp)
        self._tokenize = lru_cache(maxsize=CACHE_SIZE)(one)
        self._many = _serial(one) if self.backend == "python" else _encode_many_with(sp, one)
        self._batches = LineCache(CACHE_SIZE)

    def __call__(self, line: str) -> str:
        """Tokenizes one segment into SentencePiece pieces separated by single spaces.

        Args:
            line: The segment.

        Returns:
            ``" ".join(sp.EncodeAsPieces(line))``.
        """
        return self._tokenize(line)

    def tokenize_batch(self, lines: Sequence[str], num_threads: int = 0) -> list[str]:
        """Tokenizes many segments at once: ``[self(line) for line in lines]``, faster.

        Each distinct line not seen before (by this method) is encoded once; with the
        ``engine`` backend all of them in one call of sentencepiece's batch encoder on
        ``num_threads`` threads.

        Args:
            lines: The segments.
            num_threads: Threads (0: all cores); the output does not depend on it.

        Returns:
            One tokenized segment per line.

        Example:
            With sacreBLEU's FLORES-200 model in ``flores200.model`` (not shipped, so not
            run here)::

                tok = TokenizerSPM("flores200", spm_model="flores200.model")
                tok.tokenize_batch(["Hello world", "Hello world"])
                # ['▁Hello ▁world', '▁Hello ▁world']
        """
        return self._tokenize_batch(lines, num_threads)

    def signature(self) -> str:
        """The ``tok:`` signature field: ``flores101`` (also for ``spm``), ``flores200``, ..."""
        return self.name

    def __reduce__(self) -> tuple[Callable[..., TokenizerSPM], tuple[Any, ...]]:
        # A SentencePieceProcessor is rebuilt from the same file in the receiving process.
        return (_rebuild, (type(self), self._key, self.model_path, self._asked))

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self._key!r} model={self.model_path!r} "
            f"backend={self.backend}>"
        )


class Flores101Tokenizer(TokenizerSPM):
    """``flores101`` (sacreBLEU's ``Flores101Tokenizer``); see :class:`TokenizerSPM`.

    Example:
        A model path that is not a file is refused, saying where to get the model:

        >>> Flores101Tokenizer(spm_model="missing.model")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.MissingModelError: the 'flores101' tokenizer was given the model ...
    """

    def __init__(
        self, spm_model: str | os.PathLike[str] | None = None, backend: str | None = None
    ) -> None:
        super().__init__("flores101", spm_model, backend)


class Flores200Tokenizer(TokenizerSPM):
    """``flores200`` (sacreBLEU's ``Flores200Tokenizer``); see :class:`TokenizerSPM`.

    Example:
        A model path that is not a file is refused, saying where to get the model:

        >>> Flores200Tokenizer(spm_model="missing.model")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.MissingModelError: the 'flores200' tokenizer was given the model ...
    """

    def __init__(
        self, spm_model: str | os.PathLike[str] | None = None, backend: str | None = None
    ) -> None:
        super().__init__("flores200", spm_model, backend)


class spBLEU1KTokenizer(TokenizerSPM):  # sacreBLEU's class name, lower-case first letter
    """``spBLEU-1K`` (sacreBLEU's ``spBLEU1KTokenizer``); see :class:`TokenizerSPM`.

    Example:
        A model path that is not a file is refused, saying where to get the model:

        >>> spBLEU1KTokenizer(spm_model="missing.model")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rapidbleu.errors.MissingModelError: the 'spBLEU-1K' tokenizer was given the model ...
    """

    def __init__(
        self, spm_model: str | os.PathLike[str] | None = None, backend: str | None = None
    ) -> None:
        super().__init__("spBLEU-1K", spm_model, backend)
