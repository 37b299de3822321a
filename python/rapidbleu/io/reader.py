r"""The Python reader: files in chunks of lines, decoded with Python's codecs.

The command reads UTF-8 files in Rust (:mod:`rapidbleu.io.chunks`); this reader serves the
other encodings (``-e latin-1``, ``-e utf-16``, ...), the ``--encoding-errors`` handlers other
than ``strict``, and ``--jsonl``. Both split lines the same way and word their errors alike.

Lines are split and stripped as sacreBLEU's command does (``sacrebleu/sacrebleu.py``): files are
opened with ``newline="\n"`` (only ``\n`` ends a line) and every line is ``rstrip()``-ed;
standard input is read with universal newlines (``\r``, ``\r\n`` and ``\n`` end a line) and
may hold several systems separated by tabs. Unlike sacreBLEU, ``.xz``/``.lzma`` and ``.bz2``
files are decompressed too (``.gz`` in both), different line counts are an error naming every
file and its count, and undecodable bytes are reported with file, line and byte offset.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import IO, Any, NoReturn

from rapidbleu.errors import (
    InputError,
    InputFileError,
    InvalidTextError,
    LengthMismatchError,
    RapidBleuError,
)

__all__ = ["CHUNK_LINES", "Corpus", "LineReader", "open_input", "read_all"]

#: Lines per chunk: large enough that per-chunk overhead vanishes (a core call costs tens of
#: microseconds), small enough that a chunk of a few files stays within tens of megabytes
#: whatever the corpus length.
CHUNK_LINES = 20_000

#: Errors raised by the decompressors for corrupt or truncated data.
_CORRUPT = (OSError, EOFError, lzma.LZMAError, zlib.error)

_OPENERS: dict[str, Any] = {
    ".gz": gzip.open,
    ".bz2": bz2.open,
    ".xz": lzma.open,
    ".lzma": lzma.open,
}


def open_input(path: str, stdin: IO[bytes] | None = None) -> IO[bytes]:
    """Opens ``path`` for reading bytes, decompressing by extension; ``-`` is ``stdin``.

    Args:
        path: A file name (``.gz``, ``.bz2``, ``.xz``, ``.lzma`` are decompressed) or ``-``.
        stdin: The stream that ``-`` stands for.

    Returns:
        A binary stream.

    Raises:
        rapidbleu.errors.InputFileError: The file is missing, a directory or not readable.

    Example:
        >>> open_input("no/such/file.txt")
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InputFileError: no/such/file.txt: no such file
    """
    if path == "-" and stdin is not None:
        return stdin
    opener = next((o for ext, o in _OPENERS.items() if path.endswith(ext)), open)
    try:
        f: IO[bytes] = opener(path, "rb")
        return f
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a directory, not a file") from None
    except PermissionError:
        raise InputFileError(f"{path}: permission denied") from None
    except OSError as e:
        raise InputFileError(f"{path}: cannot open ({e.strerror or e})") from None


class LineReader:
    r"""Lines of one input, decoded and split as sacreBLEU does, a chunk at a time.

    Args:
        name: The name used in messages (the file name, or ``stdin``).
        stream: The binary stream.
        encoding: Text encoding (sacreBLEU's ``-e``).
        errors: What to do with undecodable bytes (``strict`` stops with a message).
        universal_newlines: ``\r`` and ``\r\n`` end lines too (sacreBLEU's stdin).
        owns_stream: :meth:`close` closes the stream (not for standard input).

    Example:
        >>> import io
        >>> r = LineReader("x", io.BytesIO(b"a \nb\rc\n"), "utf-8", "strict", False)
        >>> r.read(10), r.lines_read
        (['a', 'b\rc'], 2)
    """

    def __init__(
        self,
        name: str,
        stream: IO[bytes],
        encoding: str = "utf-8",
        errors: str = "strict",
        universal_newlines: bool = False,
        owns_stream: bool = True,
    ) -> None:
        self.name = name
        self._owns_stream = owns_stream
        self.lines_read = 0
        self._stream = stream
        self._encoding = encoding
        self._errors = errors
        self._universal = universal_newlines
        self._pending: list[str] = []
        self._bytes_read = 0
        self._raw_lines = 0
        self._eof = False
        #: An empty input is one empty line (sacreBLEU's systems on stdin; set by Corpus).
        self.one_line_when_empty = False
        # Encodings in which "\n" is the byte 0x0A (UTF-8, Latin-1, ...) are split as bytes and
        # decoded a chunk at a time; others (UTF-16, UTF-32) go through a text wrapper.
        try:
            codec = codecs.lookup(encoding)
        except LookupError:
            raise InputError(f"unknown encoding {encoding!r} (-e/--encoding)") from None
        self._bytewise = "\n".encode(codec.name) == b"\n"
        self._text: IO[str] | None = None
        if not self._bytewise:
            self._text = io.TextIOWrapper(
                stream, encoding=encoding, errors=errors, newline=None if self._universal else "\n"
            )

    def _fill(self, n: int) -> None:
        while len(self._pending) < n and not self._eof:
            try:
                lines = self._read_text(n) if self._text is not None else self._read_bytes(n)
            except RapidBleuError:
                raise
            except _CORRUPT as e:
                raise InputFileError(f"{self.name}: corrupt or truncated data ({e})") from None
            if not lines:
                self._eof = True
                break
            self._raw_lines += len(lines)
            self._pending.extend(map(str.rstrip, lines))

    def _read_text(self, n: int) -> list[str]:
        assert self._text is not None
        try:
            lines = list(islice(self._text, n))
        except UnicodeError as e:  # a decoding error, or e.g. UTF-16 without a byte order mark
            reason = e.reason if isinstance(e, UnicodeDecodeError) else str(e)
            raise InvalidTextError(
                f"{self.name}: line {self._raw_lines + 1}: cannot decode as {self._encoding} "
                f"({reason}); use --encoding-errors replace to go on, or -e to give the encoding"
            ) from None
        return [line[:-1] if line.endswith("\n") else line for line in lines]

    def _read_bytes(self, n: int) -> list[str]:
        raw = list(islice(self._stream, n))
        if not raw:
            return []
        lines = self._decode(raw).split("\n")
        if lines[-1] == "":
            lines.pop()  # the text ended with "\n"
        if not self._universal:
            return lines
        # io.TextIOWrapper's universal newlines (sacreBLEU's stdin): "\r\n" is one break
        # (the "\n" is gone already), a lone "\r" is a break of its own, and a "\r" at the end
        # of the input ends the last line.
        out: list[str] = []
        for line in lines:
            if "\r" in line:
                if line.endswith("\r"):
                    line = line[:-1]
                out.extend(line.split("\r"))
            else:
                out.append(line)
        return out

    def _decode(self, raw: list[bytes]) -> str:
        data = b"".join(raw)
        try:
            text = data.decode(self._encoding, self._errors)
        except UnicodeDecodeError as e:
            self._raise_decode_error(raw, e)
        self._bytes_read += len(data)
        return text

    def _raise_decode_error(self, raw: list[bytes], error: UnicodeDecodeError) -> NoReturn:
        offset = self._bytes_read
        for i, line in enumerate(raw):
            try:
                line.decode(self._encoding)
            except UnicodeDecodeError as e:
                bad = line[e.start : e.end]
                raise InvalidTextError(
                    f"{self.name}: line {self._raw_lines + i + 1}: bytes not valid "
                    f"{_pretty(self._encoding)} at byte offset {offset + e.start} "
                    f"({bad.hex(' ')}); use --encoding-errors replace to go on, or -e to give "
                    "the encoding"
                ) from None
            offset += len(line)
        raise InvalidTextError(f"{self.name}: {error}") from None  # pragma: no cover

    def read(self, n: int) -> list[str]:
        """Up to ``n`` lines (fewer only at the end of the input)."""
        self._fill(n)
        out = self._pending[:n]
        del self._pending[:n]
        if not out and n > 0 and self.one_line_when_empty and self.lines_read == 0:
            # sacreBLEU's stdin: readline() of an empty input is "", one empty segment.
            out = [""]
        self.lines_read += len(out)
        return out

    def count_rest(self) -> int:
        """Reads to the end, returning the total number of lines (for error messages)."""
        self._errors = "replace"  # counting only: undecodable bytes must not hide the counts
        while True:
            chunk = self.read(CHUNK_LINES)
            if not chunk:
                return self.lines_read

    def close(self) -> None:
        """Closes the underlying stream if this reader owns it (not standard input)."""
        if self._owns_stream:
            self._stream.close()


def _pretty(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    return "UTF-8" if name == "utf-8" else name


@dataclass
class Corpus:
    """System outputs and references, read together a chunk at a time.

    Attributes:
        system_names: One name per system (the file name, or ``System N`` from stdin).
        ref_names: The reference files (one name per stream).
        refs: Readers of the reference files.
        systems: Readers of the system files (one reader of stdin holds every system).
        num_refs: Reference streams (``-nr`` splits one file on tabs into this many).
    """

    system_names: list[str]
    ref_names: list[str]
    refs: list[LineReader]
    systems: list[LineReader]
    num_refs: int = 1
    from_stdin: bool = False
    _first: bool = field(default=True, repr=False)
    _stdin_fields: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if self.from_stdin:
            # sacreBLEU's main: fields = inputfh.readline().rstrip().split("\t") reads an empty
            # stdin as one system with one empty segment.
            self.systems[0].one_line_when_empty = True

    def chunks(self, size: int = CHUNK_LINES) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
        """Yields ``(systems, refs)``: per system its lines, per stream its lines, aligned.

        Raises:
            rapidbleu.errors.LengthMismatchError: Files differ in line count (every file and
                its count are named).
            rapidbleu.errors.InputError: Tab-separated fields differ across lines.
        """
        readers = self.refs + self.systems
        while True:
            ref_chunks = [r.read(size) for r in self.refs]
            sys_chunks = [s.read(size) for s in self.systems]
            lengths = {len(c) for c in ref_chunks + sys_chunks}
            if len(lengths) > 1:
                self._mismatch(readers)
            if lengths == {0}:
                return
            refs = self._split_refs(ref_chunks)
            systems = self._split_systems(sys_chunks)
            self._first = False
            yield systems, refs

    def _split_refs(self, ref_chunks: list[list[str]]) -> list[list[str]]:
        if self.num_refs == 1:
            return ref_chunks
        # sacreBLEU -nr N: one file, N tab-separated references a line, exactly N each.
        reader, lines = self.refs[0], ref_chunks[0]
        streams: list[list[str]] = [[] for _ in range(self.num_refs)]
        first = reader.lines_read - len(lines) + 1
        for k, line in enumerate(lines):
            fields = line.split("\t", self.num_refs - 1)
            if len(fields) != self.num_refs:
                raise InputError(
                    f"{reader.name}: line {first + k}: expected {self.num_refs} tab-separated "
                    f"references (-nr {self.num_refs}), found {len(fields)}"
                )
            for stream, ref in zip(streams, fields):
                stream.append(ref)
        return streams

    def _split_systems(self, sys_chunks: list[list[str]]) -> list[list[str]]:
        if not self.from_stdin:
            return sys_chunks
        # sacreBLEU: the first line of stdin fixes the number of systems; its fields are not
        # rstripped one by one (only the line is), later fields are.
        reader, lines = self.systems[0], sys_chunks[0]
        first = reader.lines_read - len(lines) + 1
        systems: list[list[str]] = []
        for k, line in enumerate(lines):
            fields = line.split("\t")
            if self._first and k == 0:
                self._stdin_fields = len(fields)
                systems = [[f] for f in fields]
                continue
            if len(fields) != self._stdin_fields:
                raise InputError(
                    f"stdin: line {first + k} has {len(fields)} tab-separated systems but line 1 "
                    f"has {self._stdin_fields}; every line needs one field per system"
                )
            if not systems:
                systems = [[] for _ in fields]
            for out, f in zip(systems, fields):
                out.append(f.rstrip())
        return systems

    def _mismatch(self, readers: list[LineReader]) -> None:
        counts = [(r.name, r.count_rest()) for r in readers]
        listing = ", ".join(f"{n} has {c} line{'s' if c != 1 else ''}" for n, c in counts)
        raise LengthMismatchError(
            f"line counts differ: {listing}; references and system outputs need one segment "
            "per line each"
        )

    def close(self) -> None:
        """Closes every file."""
        for r in self.refs + self.systems:
            r.close()


def read_all(corpus: Corpus) -> tuple[list[list[str]], list[list[str]]]:
    r"""Every line at once: ``(systems, refs)`` (for paths that need the whole corpus).

    Example:
        >>> import io
        >>> ref = LineReader("ref", io.BytesIO(b"a\nb\n"))
        >>> hyp = LineReader("hyp", io.BytesIO(b"a\nc\n"))
        >>> read_all(Corpus(["hyp"], ["ref"], [ref], [hyp]))
        ([['a', 'c']], [['a', 'b']])
    """
    systems: list[list[str]] = []
    refs: list[list[str]] = []
    for sys_chunk, ref_chunk in corpus.chunks():
        if not systems:
            systems = [[] for _ in sys_chunk]
            refs = [[] for _ in ref_chunk]
        for acc, part in zip(systems + refs, sys_chunk + ref_chunk):
            acc.extend(part)
    return systems, refs
