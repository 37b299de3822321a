"""The Rust reader (``_core.ChunkReader``) reads what sacreBLEU's command reads, and says what
the Python reader says when it cannot.

The oracles: Python's ``io.TextIOWrapper`` (``newline="\\n"`` for files, universal newlines for
stdin) plus ``rstrip()`` for lines; Python's ``gzip``/``bz2``/``lzma`` modules for compressed
files (multi-stream files, padding, trailing garbage, truncation); the Python reader
(:class:`rapidbleu.io.reader.LineReader`) for the messages about invalid UTF-8.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu import _core, errors
from rapidbleu.io.chunks import Inputs
from rapidbleu.io.reader import LineReader, open_input

_PIECES = [b"a", b"b c", b" ", b"\t", b"\r", b"\n", b"\r\n", "é".encode(), "\u2028".encode()]
_LINE_BYTES = st.lists(
    st.sampled_from([*_PIECES, b"\x0c", b".", "\x85".encode(), "\u3000".encode()]), max_size=40
).map(b"".join)
_BAD_BYTES = st.lists(
    st.sampled_from([*_PIECES, b"\xff", b"\xe2\x82", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80"]),
    max_size=30,
).map(b"".join)


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def _sacrebleu_file_lines(data: bytes) -> list[str]:
    return [x.rstrip() for x in io.TextIOWrapper(io.BytesIO(data), "utf-8", newline="\n")]


def _read(refs: list[str], systems: list[str] | None, stdin: bytes | None = None, n: int = 3):
    reader = _core.ChunkReader(
        refs, systems, None if stdin is None else io.BytesIO(stdin), chunk_lines=n
    )
    return list(reader)


@settings(max_examples=examples(200), deadline=None)
@given(data=_LINE_BYTES, n=st.integers(1, 5))
def test_file_lines_as_sacrebleu_reads_them(
    data: bytes, n: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    f = _write(tmp_path_factory.mktemp("f") / "f", data)
    chunks = _read([f], [f], n=n)
    expected = _sacrebleu_file_lines(data)
    assert [x for c in chunks for x in c.references()[0]] == expected
    assert [x for c in chunks for x in c.hypotheses(0)] == expected
    assert all(0 < len(c) <= n for c in chunks)
    assert [c.first_line for c in chunks] == list(range(1, len(expected) + 1, n))


@settings(max_examples=examples(200), deadline=None)
@given(data=_LINE_BYTES, n=st.integers(1, 5))
def test_stdin_lines_as_sacrebleu_reads_them(
    data: bytes, n: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Stdin: universal newlines (io.TextIOWrapper(sys.stdin.buffer)); one column here.

    sacreBLEU reads the first line with readline(): an empty stdin is one empty segment.
    """
    data = data.replace(b"\t", b" ")
    expected = [x.rstrip() for x in io.TextIOWrapper(io.BytesIO(data), "utf-8")] or [""]
    ref = _write(tmp_path_factory.mktemp("r") / "ref", b"r\n" * len(expected))
    chunks = _read([ref], None, data, n)
    got = [x for c in chunks for x in c.hypotheses(0)] if chunks else []
    # A first line that strips to "" is one empty column, as in sacreBLEU.
    assert got == expected


@settings(max_examples=examples(300), deadline=None)
@given(data=_BAD_BYTES)
def test_invalid_utf8_reported_as_the_python_reader_does(
    data: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Line, byte offset and bytes of the first invalid sequence: the same message."""
    f = _write(tmp_path_factory.mktemp("f") / "f", data)
    try:
        py = LineReader(f, open_input(f))
        expected: list[str] | str = [x for chunk in iter(lambda: py.read(4), []) for x in chunk]
    except errors.InvalidTextError as e:
        expected = str(e)
    finally:
        py.close()
    try:
        got: list[str] | str = [x for c in _read([f], [f], n=4) for x in c.hypotheses(0)]
    except errors.InvalidTextError as e:
        got = str(e)
    assert got == expected


_COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
    ".lzma": lambda b: lzma.compress(b, format=lzma.FORMAT_ALONE),
}


def _python_lines(path: str) -> list[str] | str:
    """What the Python reader makes of ``path``: its lines, or its error's class."""
    reader = LineReader(path, open_input(path))
    try:
        return [x for chunk in iter(lambda: reader.read(1000), []) for x in chunk]
    except errors.RapidBleuError as e:
        return type(e).__name__
    finally:
        reader.close()


def _rust_lines(path: str) -> list[str] | str:
    try:
        return [x for c in _read([path], [path], n=1000) for x in c.hypotheses(0)]
    except errors.RapidBleuError as e:
        return type(e).__name__


@settings(max_examples=examples(60), deadline=None)
@given(
    ext=st.sampled_from(sorted(_COMPRESS)),
    streams=st.lists(st.lists(st.sampled_from([b"a b\n", b"c\n", b"\xc3\xa9 \n"]), max_size=5)),
    tail=st.sampled_from([b"", b"\0\0\0\0", b"junk", b"\x1f\x8b"]),
    cut=st.sampled_from([0, 1, 7]),
)
def test_compressed_files_as_python_reads_them(
    ext: str,
    streams: list[list[bytes]],
    tail: bytes,
    cut: int,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Several streams back to back, then padding, garbage or a truncated end."""
    data = b"".join(_COMPRESS[ext](b"".join(s)) for s in streams) + tail
    data = data[: len(data) - cut] if cut else data
    path = _write(tmp_path_factory.mktemp("z") / f"f{ext}", data)
    expected = _python_lines(path)
    if isinstance(expected, str):
        assert _rust_lines(path) in (expected, "InputFileError")
    else:
        assert _rust_lines(path) == expected


def test_compressed_errors_and_open_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    good = _write(tmp_path / "good", b"a\n")
    _write(tmp_path / "broken.gz", gzip.compress(b"a b c\n" * 1000)[:50])
    with pytest.raises(errors.InputFileError, match=r"^broken.gz: corrupt or truncated data \("):
        _read([good], ["broken.gz"])
    (tmp_path / "adir").mkdir()
    for path, what in [("nope.xz", "no such file"), (str(tmp_path / "adir"), "is a directory")]:
        with pytest.raises(errors.InputFileError, match=f"{what}"):
            _read([good], [path])


def test_chunk_api(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref", b"a b\nc .\n")
    hyp = _write(tmp_path / "hyp", b"x .\ny .\n")
    (chunk,) = _read([ref], [hyp, ref], n=10)
    assert (len(chunk), chunk.num_systems, chunk.num_references) == (2, 2, 1)
    assert chunk.tokenized_periods(0) == 2 and chunk.tokenized_periods(1) == 1
    assert chunk.input_bytes == 8 * 3
    with pytest.raises(errors.InputError, match="out of range"):
        chunk.hypotheses(2)
    with pytest.raises(errors.InvalidOptionError, match="stdin"):
        _core.ChunkReader([ref], None)
    with pytest.raises(errors.LengthMismatchError, match="differ in length"):
        _core.TextChunk.from_lists([["a"]], [["a", "b"]])
    with pytest.raises(errors.InvalidTextError, match=r"systems\[0\]\[0\]"):
        _core.TextChunk.from_lists([["\ud800"]], [["a"]])
    reader = _core.ChunkReader([ref], [hyp], prefetch=False)
    with reader:
        assert [c.hypotheses(0) for c in reader] == [["x .", "y ."]]
    assert list(reader) == []  # closed


def test_a_python_stream_error_is_raised_unchanged(tmp_path: Path) -> None:
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: object) -> int:
            raise errors.InputFileError("standard input is closed")

    ref = _write(tmp_path / "ref", b"a\n")
    for prefetch in (True, False):
        reader = _core.ChunkReader([ref], None, io.BufferedReader(Failing()), prefetch=prefetch)
        with pytest.raises(errors.InputFileError, match=r"^standard input is closed$"):
            list(reader)


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_other_encodings_use_the_python_reader(encoding: str, tmp_path: Path) -> None:
    text = "café\nnaïve \n"
    ref = tmp_path / "ref"
    ref.write_bytes(text.encode(encoding))
    inputs = Inputs([str(ref)], [str(ref)], io.BytesIO(), encoding=encoding)
    assert not inputs.in_rust and inputs.total_bytes() is None
    (batch,) = inputs.batches(10)
    (chunk,) = list(batch.chunks)
    assert chunk.hypotheses(0) == chunk.references()[0] == ["café", "naïve"]
    assert Inputs([], [], io.BytesIO(), errors="replace").in_rust is False
    assert Inputs([], [], io.BytesIO(), encoding="UTF8").in_rust is True


def test_systems_in_batches_that_fit_the_file_budget(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref", b"a\nb\nc\n")
    systems = [_write(tmp_path / f"s{i}", f"{i}\nb\nc\n".encode()) for i in range(7)]
    inputs = Inputs([ref], systems, io.BytesIO(), file_budget=4)
    batches = [
        (b.first, [c.hypotheses(i) for c in b.chunks for i in range(c.num_systems)])
        for b in inputs.batches(2)
    ]
    assert [first for first, _ in batches] == [0, 3, 6]
    got = [line for _, parts in batches for line in parts]
    assert got[:2] == [["0", "b"], ["1", "b"]]
    assert inputs.total_bytes() == 6 * 3 + 6 * 7
    # A missing file is named before any batch is read.
    inputs = Inputs([ref], [*systems, "missing"], io.BytesIO(), file_budget=4)
    with pytest.raises(errors.InputFileError, match="missing: no such file"):
        next(inputs.batches(2))
