"""The command's readers against sacreBLEU's own reading code, on generated full-Unicode text.

The oracles are sacreBLEU 2.6.0's: ``sacrebleu.utils.smart_open`` plus ``rstrip()`` for
reference and system files (``sacrebleu/sacrebleu.py``, "Read references" and "Read the
system"), and ``main``'s lines for ``-nr`` and for systems in the tab-separated columns of
standard input, copied below where they are inline code. sacreBLEU reads only plain and
``.gz`` files; ``.bz2``, ``.xz`` and ``.lzma`` must read as their decompressed text does.
``--encoding-errors`` is rapidbleu's (sacreBLEU always stops): its oracle is Python's
``open(..., errors=MODE, newline="\\n")``.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clitools import ours
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.utils import smart_open

import rapidbleu
from rapidbleu import _core, errors
from rapidbleu.cli import scoring
from rapidbleu.io.chunks import Inputs

# Every character Python's str.splitlines() or str.rstrip() treats specially, and CRLF.
_BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
_SPACES = [" ", "\t", "\u00a0", "\u1680", "\u2000", "\u200b", "\u3000", "\ufeff", "\x1f"]
_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=12)
_PIECE = st.one_of(_TEXT, st.sampled_from(_BREAKS + _SPACES))
_CONTENT = st.lists(_PIECE, max_size=30).map("".join)

_COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "": lambda b: b,
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
    ".lzma": lambda b: lzma.compress(b, format=lzma.FORMAT_ALONE),
}
_SETTINGS = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _sacrebleu_file(path: Path) -> list[str]:
    """sacreBLEU's ``main``: ``for line in smart_open(f): lines.append(line.rstrip())``."""
    with smart_open(str(path)) as f:
        return [line.rstrip() for line in f]


def _chunks(
    refs: list[Path], systems: list[Path] | None, stdin: bytes = b"", **kw: int
) -> list[Any]:
    reader = _core.ChunkReader(
        [str(p) for p in refs],
        None if systems is None else [str(p) for p in systems],
        io.BytesIO(stdin),
        **kw,
    )
    with reader:
        return list(reader)


@_SETTINGS
@given(
    text=_CONTENT, ext=st.sampled_from(sorted(_COMPRESS)), n=st.integers(1, 4), final=st.booleans()
)
def test_files_read_as_sacrebleu_reads_them(
    text: str, ext: str, n: int, final: bool, tmp_path: Path
) -> None:
    """References and systems, plain or compressed, with or without a final newline."""
    data = (text + "\n" if final else text).encode("utf-8")
    plain = tmp_path / "plain"
    plain.write_bytes(data)
    expected = _sacrebleu_file(plain)
    path = tmp_path / f"file{ext}"
    path.write_bytes(_COMPRESS[ext](data))
    if ext == ".gz":  # the one compressed format sacreBLEU reads itself
        assert _sacrebleu_file(path) == expected
    got = _chunks([path], [path, plain], chunk_lines=n)
    assert [line for c in got for line in c.references()[0]] == expected
    for system in (0, 1):
        assert [line for c in got for line in c.hypotheses(system)] == expected
    assert [c.first_line for c in got] == list(range(1, len(expected) + 1, n))


def _sacrebleu_stdin(data: bytes) -> list[list[str]]:
    """sacreBLEU's ``main`` reading every system from stdin (its lines, verbatim)."""
    inputfh = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    fields = inputfh.readline().rstrip().split("\t")
    num_sys = len(fields)
    full_systems = [[s] for s in fields]
    for line in inputfh:
        fields = line.rstrip().split("\t")
        if len(fields) != num_sys:
            raise ValueError("FATAL: the number of tab-delimited fields differ across lines.")
        for sys_idx, sent in enumerate(fields):
            full_systems[sys_idx].append(sent.rstrip())
    return full_systems


@_SETTINGS
@given(
    rows=st.lists(st.lists(_CONTENT, min_size=1, max_size=3), min_size=1, max_size=6),
    n=st.integers(1, 4),
    final=st.booleans(),
)
def test_stdin_columns_as_sacrebleu_reads_them(
    rows: list[list[str]], n: int, final: bool, tmp_path: Path
) -> None:
    """Systems in tab-separated columns of stdin: universal newlines, the first line fixes
    the number of systems. Line breaks inside fields make uneven rows: both refuse them."""
    text = "\n".join("\t".join(row) for row in rows) + ("\n" if final else "")
    data = text.encode("utf-8")
    try:
        expected: list[list[str]] | str = _sacrebleu_stdin(data)
    except ValueError:
        expected = "uneven"
    ref = tmp_path / "ref"
    # As many reference lines as stdin has (so that uneven rows, not counts, are the error).
    lines = len(list(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))) or 1
    ref.write_bytes(b"r\n" * lines)
    # The Rust reader, and the Python reader (any --encoding-errors but strict).
    for mode in ("strict", "replace"):
        inputs = Inputs([str(ref)], None, io.BytesIO(data), errors=mode)
        try:
            got = [c for b in inputs.batches(n) for c in b.chunks]
            columns: list[list[str]] | str = [
                [line for c in got for line in c.hypotheses(i)] for i in range(got[0].num_systems)
            ]
        except errors.InputError as e:
            assert "tab-separated systems" in str(e)
            columns = "uneven"
        assert columns == expected, mode


def _sacrebleu_refs(path: Path, num_refs: int) -> list[list[str]]:
    """sacreBLEU's ``main`` reading one reference file with ``-nr`` (its lines, verbatim)."""
    full_refs: list[list[str]] = [[] for _ in range(num_refs)]
    for lineno, line in enumerate(smart_open(str(path)), 1):
        line = line.rstrip()
        refs = line.split(sep="\t", maxsplit=num_refs - 1)
        if len(refs) != num_refs:
            raise ValueError(f"line {lineno}: expected {num_refs} fields, but found {len(refs)}")
        for refno, ref in enumerate(refs):
            full_refs[refno].append(ref)
    return full_refs


@_SETTINGS
@given(
    rows=st.lists(st.lists(_CONTENT, min_size=1, max_size=4), min_size=1, max_size=6),
    num_refs=st.integers(2, 3),
    n=st.integers(1, 4),
)
def test_tab_separated_references_as_sacrebleu_splits_them(
    rows: list[list[str]], num_refs: int, n: int, tmp_path: Path
) -> None:
    """``-nr N``: ``split("\\t", N - 1)`` of the stripped line, exactly N fields a line."""
    ref = tmp_path / "refs"
    ref.write_bytes("".join("\t".join(row) + "\n" for row in rows).encode("utf-8"))
    try:
        expected: list[list[str]] | str = _sacrebleu_refs(ref, num_refs)
    except ValueError as e:
        expected = str(e).split(":")[0]  # "line K"
    hyp = tmp_path / "hyp"
    lines = len(expected[0]) if isinstance(expected, list) else len(_sacrebleu_file(ref))
    hyp.write_bytes(b"h\n" * lines)
    try:
        got = _chunks([ref], [hyp], num_refs=num_refs, chunk_lines=n)
        streams: list[list[str]] | str = [
            [line for c in got for line in c.references()[k]] for k in range(num_refs)
        ]
    except errors.InputError as e:
        assert f"expected {num_refs} tab-separated references (-nr {num_refs})" in str(e)
        streams = str(e).split(": ")[1]
    assert streams == expected


_BAD_PIECES = [b"a", b"b c", b" ", b"\r", b"\n", "é".encode(), "😀".encode()]
_BAD_PIECES += [b"\xff", b"\xe2\x82", b"\xc3", b"\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]
_BAD_PIECES += [b"\xf0\x9f", b"\xc0\xaf"]
_BAD = st.lists(
    st.sampled_from(_BAD_PIECES),
    max_size=25,
).map(b"".join)


@_SETTINGS
@given(data=_BAD, mode=st.sampled_from(["strict", "replace", "ignore", "backslashreplace"]))
def test_invalid_utf8_with_each_encoding_errors_mode(
    data: bytes, mode: str, tmp_path: Path
) -> None:
    """Each ``--encoding-errors`` mode reads what Python's decoder makes of the bytes; strict
    stops with the line and the byte offset of the first invalid sequence."""
    path = tmp_path / "f"
    path.write_bytes(data)
    try:
        with open(path, encoding="utf-8", errors=mode, newline="\n") as f:
            expected: list[str] | str = [line.rstrip() for line in f]
    except UnicodeDecodeError:
        # The file's offset (TextIOWrapper's error counts from the block it was decoding).
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            expected = f"byte offset {e.start}"
    inputs = Inputs([str(path)], [str(path)], io.BytesIO(), errors=mode)
    assert inputs.in_rust == (mode == "strict")
    try:
        got: list[str] | str = [
            line for b in inputs.batches(3) for c in b.chunks for line in c.hypotheses(0)
        ]
    except errors.InvalidTextError as e:
        assert mode == "strict" and str(e).startswith(f"{path}: line ")
        got = f"byte offset {str(e).split('byte offset ')[1].split(' ')[0]}"
    finally:
        inputs.close()
    assert got == expected


@pytest.mark.parametrize("mode", ["replace", "ignore", "backslashreplace"])
def test_encoding_errors_modes_on_the_command(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command scores the lines as Python decodes them with the mode, for compressed files
    too (the Python reader decompresses them as well)."""
    ref = ["le café au lait", "une tasse de thé", "fin de la phrase"]
    hyp = b"le caf\xe9 au lait\nune tasse de th\xe9 \xff\nfin de la phrase\n"
    (tmp_path / "ref").write_text("".join(r + "\n" for r in ref), encoding="utf-8")
    (tmp_path / "hyp.gz").write_bytes(gzip.compress(hyp))
    lines = [x.rstrip() for x in hyp.decode("utf-8", mode).split("\n")][:3]
    expected = rapidbleu.corpus_bleu(lines, [ref]).score
    rc, out, err = ours(
        ["ref", "-i", "hyp.gz", "--encoding-errors", mode, "-b", "-w", "8"], tmp_path, capsys
    )
    assert rc == 0, err
    assert out == f"{expected:.8f}\n"
    rc, out, err = ours(["ref", "-i", "hyp.gz", "-b"], tmp_path, capsys)
    assert (rc, out) == (1, "") and "hyp.gz: line 1: bytes not valid UTF-8 at byte offset 6" in err


@pytest.mark.parametrize("ext", sorted(_COMPRESS))
@pytest.mark.parametrize("chunk", [1, 2, 1000])
def test_different_line_counts_at_any_chunk(
    ext: str,
    chunk: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The message names every input and its full count, wherever the shorter input ends;
    nothing is written to stdout although earlier chunks were scored."""
    (tmp_path / f"ref{ext}").write_bytes(_COMPRESS[ext](b"a b\n" * 5))
    (tmp_path / f"long{ext}").write_bytes(_COMPRESS[ext](b"a b\n" * 5 + b"c"))  # no final \n
    (tmp_path / f"short{ext}").write_bytes(_COMPRESS[ext](b"a b\n" * 3))
    monkeypatch.setattr(scoring, "CHUNK_LINES", chunk)
    rc, out, err = ours([f"ref{ext}", "-i", f"long{ext}", f"short{ext}"], tmp_path, capsys)
    assert (rc, out) == (1, "")
    assert (
        f"line counts differ: ref{ext} has 5 lines, long{ext} has 6 lines, short{ext} has 3 "
        "lines" in err
    )
    rc, out, err = ours([f"ref{ext}", "-i", f"short{ext}", "-sl"], tmp_path, capsys)
    assert (rc, out) == (1, "") and f"short{ext} has 3 lines" in err


@pytest.mark.parametrize("ext", sorted(_COMPRESS))
def test_empty_files(ext: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file has no lines (an empty .gz too); a zero-byte .bz2/.xz/.lzma is truncated
    data, as Python's modules say; empty inputs leave nothing to score."""
    empty = tmp_path / f"empty{ext}"
    empty.write_bytes(_COMPRESS[ext](b""))
    one = tmp_path / "one"
    one.write_bytes(b"a\n")
    assert _chunks([empty], [empty]) == []
    rc, out, err = ours([empty.name, "-i", empty.name], tmp_path, capsys)
    assert (rc, out) == (1, "") and "nothing to score" in err
    rc, out, err = ours([empty.name, "-i", "one"], tmp_path, capsys)
    assert (rc, out) == (1, "") and f"{empty.name} has 0 lines, one has 1 line" in err
    zero = tmp_path / f"zero{ext}"
    zero.write_bytes(b"")
    if ext in ("", ".gz"):
        assert _chunks([zero], [zero]) == [] and _sacrebleu_file(zero) == []
    else:
        with pytest.raises(EOFError):  # Python's own reading of it
            {".bz2": bz2.open, ".xz": lzma.open, ".lzma": lzma.open}[ext](zero).read()
        with pytest.raises(errors.InputFileError, match=f"zero{ext}: corrupt or truncated"):
            _chunks([zero], [one])


def test_last_line_without_a_newline(tmp_path: Path) -> None:
    """The last line counts without a final "\\n", in files and on stdin, whatever ends it."""
    for data, lines in [(b"a\nb", ["a", "b"]), (b"a\r", ["a"]), (b"a \x0b", ["a"]), (b"\n", [""])]:
        f = tmp_path / "f.gz"
        f.write_bytes(gzip.compress(data))
        (c,) = _chunks([f], [f])
        assert c.references()[0] == c.hypotheses(0) == lines == _sacrebleu_file(f)
    ref = tmp_path / "ref"
    ref.write_bytes(b"1\n2\n")
    (c,) = _chunks([ref], None, b"a\tb\rc\td")
    assert (c.hypotheses(0), c.hypotheses(1)) == (["a", "c"], ["b", "d"])


def test_stdin_as_a_system_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``-i - FILE``: stdin read as a file (only "\\n" ends a line), beside other systems."""
    (tmp_path / "ref").write_bytes(b"a b c\rd\ne f\n")
    (tmp_path / "hyp").write_bytes(b"a b c\rd\ne x\n")
    (c,) = _chunks([tmp_path / "ref"], [Path("-"), tmp_path / "hyp"], b"a b c\rd\ne f\n")
    assert c.hypotheses(0) == ["a b c\rd", "e f"] and c.hypotheses(1) == ["a b c\rd", "e x"]
    rc, out, err = ours(
        ["ref", "-i", "-", "hyp", "-f", "json", "-w", "6"], tmp_path, capsys, b"a b c\rd\ne f\n"
    )
    assert rc == 0, err
    refs = [["a b c\rd", "e f"]]
    expected = [rapidbleu.corpus_bleu(h, refs).score for h in (refs[0], ["a b c\rd", "e x"])]
    assert [float(s["BLEU"]) for s in json.loads(out)] == [round(x, 6) for x in expected]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_of_the_command(
    quiet: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal the command draws tqdm's bar through the input's bytes and erases it;
    -q draws nothing; stdout holds only the score either way."""
    from rapidbleu.cli import main, progress

    (tmp_path / "ref").write_bytes(b"a b c d\n" * 300)
    (tmp_path / "hyp").write_bytes(b"a b c x\n" * 300)
    monkeypatch.setattr(progress, "DELAY_S", 0.0)
    monkeypatch.setattr(scoring, "CHUNK_LINES", 10)
    monkeypatch.chdir(tmp_path)
    term, out = _Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.setattr(sys, "stdout", out)
    rc = main(["ref", "-i", "hyp", "-b", *(["-q"] if quiet else [])])
    expected = rapidbleu.corpus_bleu(["a b c x"] * 300, [["a b c d"] * 300]).score
    assert rc == 0 and out.getvalue() == f"{expected:.1f}\n"
    drawn = term.getvalue()
    if quiet:
        assert drawn == ""
    else:
        # Through the two files' 4,800 bytes (KiB); tqdm redraws at most every 0.1 s.
        assert drawn.startswith("\rrapidbleu: ") and "/4.69k [" in drawn, drawn
        assert drawn.endswith("\r") and drawn.rsplit("\r", 2)[-2].strip() == ""  # erased
