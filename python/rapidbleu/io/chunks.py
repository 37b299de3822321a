r"""The command's reference and system inputs as chunks of aligned lines (``TextChunk``).

UTF-8 text with ``--encoding-errors strict`` (the defaults) is read in Rust
(``rapidbleu._core.ChunkReader``): files are opened, decompressed (``.gz``, ``.bz2``, ``.xz``,
``.lzma``), split into lines, ``rstrip()``-ed and checked there, one chunk ahead of the scorer
on a background thread, and the chunks stay in Rust until a metric asks for their lines.
Other encodings (``-e latin-1``, ``-e utf-16``, ...) and the ``replace`` / ``ignore`` /
``backslashreplace`` handlers go through the Python reader (:mod:`rapidbleu.io.reader`), which
decodes with Python's own codecs; its chunks become ``TextChunk`` objects too, so the scorer
sees one kind of chunk. Both readers split lines as sacreBLEU's command does (files:
``newline="\n"``; stdin: universal newlines and tab-separated systems) and word their errors
alike.

Systems are read in batches that fit the process's open-file limit (``ulimit -n``): with more
system files than that allows, the references are read once per batch, so a hundred systems
score under ``ulimit -n 40`` as they do in sacreBLEU, which reads one file at a time.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import rapidbleu._core as _core
from rapidbleu import _config
from rapidbleu.errors import InputError
from rapidbleu.io.reader import CHUNK_LINES, Corpus, LineReader, open_input

__all__ = ["Batch", "Inputs", "check_unique", "open_file_budget"]

#: Descriptors kept free for what the process opens while scoring (the spooled output file,
#: modules imported late, the progress bar's terminal).
SPARE_FILES = 8
#: A budget that means "no limit worth batching for".
_PLENTY = 1 << 20


def open_file_budget() -> int:
    """How many more files this process may open at once (``ulimit -n`` minus those open).

    Example:
        >>> open_file_budget() > 0
        True
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return _PLENTY
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= _PLENTY:
        return _PLENTY
    return max(1, soft - _open_files() - SPARE_FILES)


def _open_files() -> int:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 3 + SPARE_FILES  # pragma: no cover - a system that lists neither


@dataclass
class Batch:
    """Some of the systems, read together with the references.

    Attributes:
        first: Index of the batch's first system among all systems.
        chunks: The batch's chunks, in order.
        offset: Input bytes read by earlier batches (progress).
    """

    first: int
    chunks: Iterator[Any]
    offset: int = 0


@dataclass
class Inputs:
    r"""The reference and system inputs of one command, read a chunk at a time.

    Nothing is opened until :meth:`batches` is iterated; :meth:`close` closes what is open.

    Attributes:
        refs: Reference files.
        systems: System files (``-`` is ``stdin``), or ``None``: the systems are the
            tab-separated columns of ``stdin``.
        stdin: Standard input, as bytes.
        num_refs: References per line of the one reference file (sacreBLEU's ``-nr``).
        encoding: Text encoding (sacreBLEU's ``-e``).
        errors: Undecodable bytes (``--encoding-errors``).
        system_names: One name per system: the file names, or (stdin) ``System N`` once read.
        file_budget: Files that may be open at once (default: :func:`open_file_budget`).
        opened: A corpus the Python reader already holds open (the test sets of ``-t``, whose
            references are in memory): it is read as it is, in one batch.
        segments: Segments read so far (counted once, not once per batch).

    Example:
        >>> import io, os, tempfile
        >>> ref = os.path.join(tempfile.mkdtemp(), "ref")
        >>> with open(ref, "w") as f:
        ...     _ = f.write("a b\nc\n")
        >>> inputs = Inputs([ref], None, io.BytesIO(b"a b\tx\nc\ty\n"))
        >>> [(b.first, [c.hypotheses(1) for c in b.chunks]) for b in inputs.batches(10)]
        [(0, [['x', 'y']])]
    """

    refs: list[str]
    systems: list[str] | None
    stdin: IO[bytes]
    num_refs: int = 1
    encoding: str = "utf-8"
    errors: str = "strict"
    system_names: list[str] = field(default_factory=list)
    file_budget: int | None = None
    opened: Corpus | None = None
    segments: int = 0
    _open: list[Any] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if self.opened is not None and not self.system_names:
            self.system_names = list(self.opened.system_names)
        if self.systems is not None and not self.system_names:
            self.system_names = list(self.systems)

    @property
    def in_rust(self) -> bool:
        """Whether the Rust reader reads these inputs (UTF-8, strict errors)."""
        try:
            utf8 = codecs.lookup(self.encoding).name == "utf-8"
        except LookupError:
            raise InputError(f"unknown encoding {self.encoding!r} (-e/--encoding)") from None
        return utf8 and self.errors == "strict" and self.opened is None

    def _groups(self) -> list[list[str]] | None:
        """System files in batches that fit the open-file limit (``None``: stdin columns)."""
        if self.systems is None:
            return None
        budget = self.file_budget if self.file_budget is not None else open_file_budget()
        size = max(1, budget - len(self.refs))
        return [self.systems[i : i + size] for i in range(0, len(self.systems), size)] or [[]]

    def total_bytes(self) -> int | None:
        """Bytes the Rust reader will read (the progress bar's end), when known.

        Unknown (``None``) with the Python reader or with standard input.
        """
        groups = self._groups()
        if groups is None or not self.in_rust or any(p == "-" for p in self.systems or []):
            return None
        try:
            ref_bytes = sum(os.stat(p).st_size for p in self.refs)
            sys_bytes = sum(os.stat(p).st_size for p in self.systems or [])
        except OSError:
            return None
        return ref_bytes * len(groups) + sys_bytes

    def batches(self, chunk_lines: int = CHUNK_LINES) -> Iterator[Batch]:
        """The systems in batches, each with its chunks of ``chunk_lines`` segments.

        Raises:
            rapidbleu.errors.InputFileError: A file is missing or cannot be read.
            rapidbleu.errors.InvalidTextError: Bytes not valid in the encoding.
            rapidbleu.errors.LengthMismatchError: The inputs differ in line count.
            rapidbleu.errors.InputError: A line lacks its tab-separated fields.
        """
        if self.opened is not None:
            yield Batch(0, self._python_chunks(self.opened, True))
            return
        groups = self._groups()
        if groups is None:
            yield Batch(0, self._chunks(None, chunk_lines, True))
            return
        if len(groups) > 1:
            # Report a missing file before any batch is scored, not after the others.
            for p in [*self.refs, *(self.systems or [])]:
                if p != "-":
                    open_input(p).close()
        first, offset = 0, 0
        for group in groups:
            yield Batch(first, self._chunks(group, chunk_lines, first == 0), offset)
            first += len(group)
            if len(groups) > 1:
                offset += sum(os.stat(p).st_size for p in [*self.refs, *group] if p != "-")

    def _chunks(self, systems: list[str] | None, chunk_lines: int, count: bool) -> Iterator[Any]:
        """The chunks of one batch of systems (``count``: add their segments to the count)."""
        if not self.in_rust:
            yield from self._python_chunks(self.python_corpus(systems), count, chunk_lines)
            return
        reader = _core.ChunkReader(
            self.refs,
            systems,
            self.stdin,
            num_refs=self.num_refs,
            chunk_lines=chunk_lines,
            num_threads=_config.num_threads(),
        )
        self._open.append(reader)
        try:
            for chunk in reader:
                if count:
                    self.segments += len(chunk)
                yield chunk
        finally:
            reader.close()
            self._forget(reader)

    def _python_chunks(
        self, corpus: Corpus, count: bool, chunk_lines: int = CHUNK_LINES
    ) -> Iterator[Any]:
        self._open.append(corpus)
        try:
            for sys_lines, ref_lines in corpus.chunks(chunk_lines):
                if count:
                    self.segments += len(ref_lines[0])
                first = corpus.refs[0].lines_read - len(ref_lines[0]) + 1
                yield _core.TextChunk.from_lists(sys_lines, ref_lines, first)
        finally:
            corpus.close()
            self._forget(corpus)

    def _forget(self, reader: Any) -> None:
        # A chunk generator left unfinished (an error while its batch was scored) runs this
        # when it is collected, after close() has emptied the list: there is nothing to remove.
        self._open = [r for r in self._open if r is not reader]

    def python_corpus(self, systems: list[str] | None) -> Corpus:
        """These inputs opened by the Python reader (other encodings and error handlers).

        Args:
            systems: The system files to open (``None``: the columns of ``stdin``).

        Returns:
            The opened corpus; close it when done.
        """
        enc, errors = self.encoding, self.errors
        readers: list[LineReader] = []
        try:
            for p in self.refs:
                readers.append(LineReader(p, open_input(p), enc, errors))
            if systems is None:
                stdin = LineReader(
                    "stdin", self.stdin, enc, errors, universal_newlines=True, owns_stream=False
                )
                readers.append(stdin)
            else:
                for p in systems:
                    name = "stdin" if p == "-" else p
                    stream = open_input(p, self.stdin)
                    readers.append(LineReader(name, stream, enc, errors, owns_stream=p != "-"))
        except BaseException:
            for r in readers:
                r.close()
            raise
        refs, sys_readers = readers[: len(self.refs)], readers[len(self.refs) :]
        names = list(systems) if systems is not None else []
        return Corpus(
            names,
            list(self.refs),
            refs,
            sys_readers,
            num_refs=self.num_refs,
            from_stdin=systems is None,
        )

    def close(self) -> None:
        """Closes every open file (reading in progress stops)."""
        if self.opened is not None:
            self.opened.close()
        for reader in self._open:
            reader.close()
        self._open.clear()


def check_unique(paths: list[str]) -> None:
    """Refuses a system file given twice (the scores could not be told apart).

    Example:
        >>> check_unique(["a", "a"])
        Traceback (most recent call last):
        ...
        rapidbleu.errors.InputError: 'a' is given twice with -i; give each system a ...
    """
    seen: set[str] = set()
    for p in paths:
        if p in seen:
            raise InputError(
                f"{p!r} is given twice with -i; give each system a different file name"
            )
        seen.add(p)
