"""The SentencePiece tokenizers ``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K``.

They copy ``sacrebleu.tokenizers.tokenizer_spm.TokenizerSPM`` (sacreBLEU 2.6.0): the output is
``" ".join(sp.EncodeAsPieces(line))``, the signature is the model's name, and ``spm`` is a
deprecated alias of ``flores101``. One difference is deliberate: **rapidbleu never downloads.**
The model comes from an explicit ``spm_model`` path, or from the file sacreBLEU itself would
have downloaded, ``$SACREBLEU/models/<basename of the URL>`` (default ``~/.sacrebleu``), so
users of sacreBLEU who already have its cached models need nothing more. When the file is
missing, :class:`~rapidbleu.errors.MissingModelError` says where to get it and where to put it.

``$SACREBLEU`` is read each time a tokenizer is built (sacreBLEU reads it once, at import).

The dependency is an optional extra, imported only when a tokenizer is built:
the ``spm`` extra (``sentencepiece``; :func:`rapidbleu.extras.install_hint`).

Example:
    >>> from rapidbleu.tokenizers.spm import model_path_for
    >>> model_path_for("flores200").endswith("flores200sacrebleuspm")
    True
"""

from __future__ import annotations

import importlib
import logging
import os
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable

from rapidbleu.errors import InvalidOptionError, MissingDependencyError, MissingModelError
from rapidbleu.extras import install_hint

__all__ = [
    "CACHE_SIZE",
    "SPM_MODELS",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "TokenizerSPM",
    "model_path_for",
    "sacrebleu_dir",
    "spBLEU1KTokenizer",
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
                f"the {key!r} tokenizer was given spm_model={path!r}, which is not a file; "
                f"pass the path of the SentencePiece model (sacreBLEU's model for {key!r} "
                f"can be downloaded from {url})"
            )
        return path
    path = model_path_for(key)
    if not os.path.isfile(path):
        raise MissingModelError(
            f"the {key!r} tokenizer needs the SentencePiece model file {path!r}, which does "
            f"not exist, and rapidbleu never downloads. Download it by hand from {url} and "
            f"either put it at {path!r} (sacreBLEU's model cache, under $SACREBLEU or "
            f"~/.sacrebleu; sacreBLEU finds it there too) or pass its path as spm_model=..."
        )
    return path


def _encode_with(sp: Any) -> Callable[[str], str]:
    """The uncached tokenizer, the body of sacreBLEU's ``TokenizerSPM.__call__``.

    It closes over the processor rather than the tokenizer so that the per-instance cache
    wrapped around it does not form a reference cycle back to the instance.
    """

    def encode(line: str) -> str:
        # SentencePieceProcessor's encoding is const in C++, so it is safe from several threads.
        return " ".join(sp.EncodeAsPieces(line))

    return encode


def _rebuild(cls: type[TokenizerSPM], key: str, spm_model: str) -> TokenizerSPM:
    """Unpickles a tokenizer: loads the same model file again, without warning again."""
    tok = cls.__new__(cls)
    tok._setup(key, spm_model)
    return tok


class TokenizerSPM:
    """A SentencePiece tokenizer (sacreBLEU's ``TokenizerSPM``), without the download.

    Args:
        key: ``spm`` (deprecated alias of ``flores101``), ``flores101``, ``flores200`` or
            ``spBLEU-1K``; it decides the signature and the default model file.
        spm_model: Path of the model file. ``None`` uses sacreBLEU's cached copy,
            :func:`model_path_for` ``(key)``. The signature names ``key``'s model either way.

    Attributes:
        model_path: The model file that was loaded.

    Raises:
        rapidbleu.errors.InvalidOptionError: ``key`` is unknown, or the file is not a
            SentencePiece model.
        rapidbleu.errors.MissingDependencyError: ``sentencepiece`` is not installed.
        rapidbleu.errors.MissingModelError: the model file does not exist.

    Example:
        >>> from rapidbleu.tokenizers.spm import TokenizerSPM
        >>> tok = TokenizerSPM("flores200", spm_model="flores200.model")  # doctest: +SKIP
        >>> tok("Hello world"), tok.signature()  # doctest: +SKIP
        ('▁Hello ▁world', 'flores200')
    """

    model_path: str

    def __init__(self, key: str = "spm", spm_model: str | os.PathLike[str] | None = None) -> None:
        name = _model(key)["signature"]
        if key == "spm":
            # sacreBLEU's TokenizerSPM.__init__ logs this (sacrelogger.warn) and goes on.
            logger.warning(
                "Tokenizer 'spm' has been changed to '%s', and may be removed in the future.",
                name,
            )
        self._setup(key, spm_model)

    def _setup(self, key: str, spm_model: str | os.PathLike[str] | None) -> None:
        """Imports sentencepiece, finds and loads the model, builds the cache."""
        self._key = key
        self.name = _model(key)["signature"]
        spm = _import_sentencepiece(key)
        path = _resolve_model(key, spm_model)
        sp = spm.SentencePieceProcessor()
        try:
            sp.Load(path)
        except (OSError, RuntimeError) as e:
            raise InvalidOptionError(
                f"the {key!r} tokenizer could not load {path!r} as a SentencePiece model ({e}); "
                f"sacreBLEU's model for {key!r} can be downloaded from {_model(key)['url']}"
            ) from e
        self.model_path = path
        # Per instance, unlike sacreBLEU's class-level lru_cache: the cache dies with the
        # tokenizer instead of keeping it alive.
        self._tokenize = lru_cache(maxsize=CACHE_SIZE)(_encode_with(sp))

    def __call__(self, line: str) -> str:
        """Tokenizes one segment into SentencePiece pieces separated by single spaces.

        Args:
            line: The segment.

        Returns:
            ``" ".join(sp.EncodeAsPieces(line))``.
        """
        return self._tokenize(line)

    def signature(self) -> str:
        """The ``tok:`` signature field: ``flores101`` (also for ``spm``), ``flores200``, ..."""
        return self.name

    def __reduce__(self) -> tuple[Callable[..., TokenizerSPM], tuple[Any, ...]]:
        # A SentencePieceProcessor is rebuilt from the same file in the receiving process.
        return (_rebuild, (type(self), self._key, self.model_path))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._key!r} model={self.model_path!r}>"


class Flores101Tokenizer(TokenizerSPM):
    """``flores101`` (sacreBLEU's ``Flores101Tokenizer``); see :class:`TokenizerSPM`.

    Example:
        >>> Flores101Tokenizer(spm_model="flores101.model").signature()  # doctest: +SKIP
        'flores101'
    """

    def __init__(self, spm_model: str | os.PathLike[str] | None = None) -> None:
        super().__init__("flores101", spm_model)


class Flores200Tokenizer(TokenizerSPM):
    """``flores200`` (sacreBLEU's ``Flores200Tokenizer``); see :class:`TokenizerSPM`.

    Example:
        >>> Flores200Tokenizer(spm_model="flores200.model").signature()  # doctest: +SKIP
        'flores200'
    """

    def __init__(self, spm_model: str | os.PathLike[str] | None = None) -> None:
        super().__init__("flores200", spm_model)


class spBLEU1KTokenizer(TokenizerSPM):  # sacreBLEU's class name, lower-case first letter
    """``spBLEU-1K`` (sacreBLEU's ``spBLEU1KTokenizer``); see :class:`TokenizerSPM`.

    Example:
        >>> spBLEU1KTokenizer(spm_model="spbleu-1k.model").signature()  # doctest: +SKIP
        'spBLEU-1K'
    """

    def __init__(self, spm_model: str | os.PathLike[str] | None = None) -> None:
        super().__init__("spBLEU-1K", spm_model)
