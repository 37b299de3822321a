"""Streaming: the chunk size, compression and line splitting change nothing.

The reader is checked against what sacreBLEU does (``open(newline="\\n")`` for files,
``io.TextIOWrapper`` with universal newlines for stdin, ``rstrip`` of every line) on generated
bytes.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clitools import DE, ours, write_lines
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rapidbleu
from rapidbleu.cli import scoring
from rapidbleu.io import chunks, reader
from rapidbleu.io.reader import LineReader
from rapidbleu.metrics import Metric, RowLayout, Score
from rapidbleu.metrics.registry import registered

SYSTEMS = ["wmt22.en-de/ref.A.de", "-i", "wmt22.en-de/hyp.PROMT.de", "wmt22.en-de/hyp.Online-B.de"]


@pytest.mark.parametrize(
    "args",
    [[*DE, "-f", "text"], [*DE, "-sl"], [*DE, "-sl", "-b"], [*SYSTEMS, "-f", "text"]],
    ids=["corpus", "sentence", "sentence-b", "systems"],
)
@pytest.mark.parametrize("chunk", [1, 7, 1000])
def test_chunk_size_changes_nothing(
    args: list[str],
    chunk: int,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, expected, _ = ours(args, data_dir, capsys)
    monkeypatch.setattr(scoring, "CHUNK_LINES", chunk)
    rc, out, err = ours(args, data_dir, capsys)
    assert rc == 0, err
    assert out == expected


@pytest.mark.parametrize("ext", [".gz", ".bz2", ".xz", ".lzma"])
def test_compressed_inputs(
    ext: str, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compress = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}
    fn = compress.get(ext, lambda b: lzma.compress(b, format=lzma.FORMAT_ALONE))
    for name in ("ref.A.de", "hyp.PROMT.de"):
        (tmp_path / f"{name}{ext}").write_bytes(fn((data_dir / "wmt22.en-de" / name).read_bytes()))
    _, expected, _ = ours([*DE, "-f", "text"], data_dir, capsys)
    rc, out, err = ours(
        [f"ref.A.de{ext}", "-i", f"hyp.PROMT.de{ext}", "-f", "text"], tmp_path, capsys
    )
    assert rc == 0, err
    assert out == expected


_LINE_BYTES = st.lists(
    st.sampled_from(
        [
            b"a",
            b"b c",
            b" ",
            b"\t",
            b"\r",
            b"\n",
            b"\r\n",
            "é".encode(),
            "\u2028".encode(),
            b"\x0c",
            b".",
        ]
    ),
    max_size=30,
).map(b"".join)


@settings(max_examples=examples(300))
@given(data=_LINE_BYTES, n=st.integers(1, 5))
def test_file_lines_as_sacrebleu_reads_them(data: bytes, n: int) -> None:
    """Files: only "\\n" ends a line; every line rstripped (sacreBLEU's smart_open + rstrip)."""
    expected = [line.rstrip() for line in io.TextIOWrapper(io.BytesIO(data), "utf-8", newline="\n")]
    r = LineReader("f", io.BytesIO(data))
    got: list[str] = []
    while chunk := r.read(n):
        got += chunk
    assert got == expected and r.lines_read == len(expected)


@settings(max_examples=examples(300))
@given(data=_LINE_BYTES, n=st.integers(1, 5))
def test_stdin_lines_as_sacrebleu_reads_them(data: bytes, n: int) -> None:
    """Stdin: universal newlines, as sacreBLEU's io.TextIOWrapper(sys.stdin.buffer)."""
    expected = [line.rstrip() for line in io.TextIOWrapper(io.BytesIO(data), "utf-8")]
    r = LineReader("stdin", io.BytesIO(data), universal_newlines=True)
    got: list[str] = []
    while chunk := r.read(n):
        got += chunk
    assert got == expected


@settings(max_examples=examples(100))
@given(lines=st.lists(st.text(st.characters(blacklist_categories=["Cs"]), max_size=20), max_size=8))
def test_utf16_input(lines: list[str]) -> None:
    """Encodings where "\\n" is not one byte go through a text wrapper (-e utf-16)."""
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    data = "".join(line + "\n" for line in lines).encode("utf-16")
    r = LineReader("f", io.BytesIO(data), "utf-16")
    expected = [line for line in io.TextIOWrapper(io.BytesIO(data), "utf-16", newline="\n")]
    assert r.read(100) == [line.rstrip() for line in expected]


def test_streaming_reads_a_chunk_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader never holds more than one chunk (plus the universal-newline remainder)."""
    data = b"".join(f"line {i}\n".encode() for i in range(1000))
    r = LineReader("f", io.BytesIO(data))
    sizes = []
    while chunk := r.read(64):
        sizes.append(len(chunk))
        assert len(r._pending) == 0
    assert sum(sizes) == 1000 and max(sizes) == 64
    assert reader.CHUNK_LINES >= 10_000  # the default is large enough to amortise overhead


def test_file_score_equals_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Lines with "\\r", form feeds and trailing spaces: the command scores what the API does
    on the lines as sacreBLEU reads them."""
    ref = b"a b c d \r\ne f\x0cg h\ni\rj k l m\n"
    hyp = b"a b c d\ne f g h \ni j k l m\n"
    (tmp_path / "ref").write_bytes(ref)
    (tmp_path / "hyp").write_bytes(hyp)
    rc, out, _ = ours(["ref", "-i", "hyp", "-b", "-w", "6"], tmp_path, capsys)
    read = lambda b: [x.rstrip() for x in io.TextIOWrapper(io.BytesIO(b), "utf-8", newline="\n")]  # noqa: E731
    expected = rapidbleu.corpus_bleu(read(hyp), [read(ref)]).score
    assert rc == 0 and out == f"{expected:.6f}\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_after_a_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    """tqdm draws on a terminal once DELAY_S has passed, and erases itself when done."""
    from rapidbleu.cli import progress

    term = _Terminal()
    p = progress.Progress(term)
    p.update(5)
    p.close()
    assert term.getvalue() == ""  # not yet a few seconds of work
    monkeypatch.setattr(progress, "DELAY_S", 0.0)
    term = _Terminal()
    p = progress.Progress(term)
    p.update(5)
    time.sleep(0.15)  # tqdm redraws at most every 0.1 s
    p.update(5)
    drawn = term.getvalue()
    assert drawn.startswith("\rrapidbleu: ") and "10.0 lines [" in drawn, drawn
    p.close()
    assert term.getvalue().endswith("\r") and term.getvalue()[len(drawn) :].strip() == ""
    # Input of known size: a bar through its bytes, with the line count.
    term = _Terminal()
    p = progress.Progress(term)
    p.set_total(1000)
    p.update(5, 100)
    time.sleep(0.15)
    p.update(5, 500)
    assert " 50%|" in term.getvalue() and "10 lines]" in term.getvalue(), term.getvalue()
    p.close()
    for stream, enabled in ((io.StringIO(), True), (_Terminal(), False)):  # redirected / --quiet
        q = progress.Progress(stream, enabled=enabled)
        q.update(100)
        q.close()
        assert stream.getvalue() == ""


class OrderedFold(Metric):
    """A metric whose corpus statistics depend on segment order (as TER's float sums do):
    a polynomial hash of every segment's token counts, folded in order."""

    cli_name = "fold"  # on the command line (-m fold) only while a test registers it
    additive = False

    @property
    def layout(self) -> RowLayout:
        return RowLayout(("hyp_len", "ref_len"))

    def _statistics(self, hypotheses: Any, references: Any, per_segment: bool) -> Any:
        refs_of = references if per_segment else list(zip(*references))
        self.num_refs = len(refs_of[0])
        rows = [[len(h.split()), len(r[0].split())] for h, r in zip(hypotheses, refs_of)]
        return np.array(rows, dtype=np.int64).reshape(-1, 2)

    def accumulate(self, totals: Any, rows: Any) -> Any:
        acc = 0 if totals is None else totals
        for hyp_len, ref_len in np.asarray(rows).tolist():
            acc = (acc * 1_000_003 + hyp_len * 7 + ref_len) % (2**61 - 1)
        return acc

    def score_totals(self, totals: Any) -> Score:
        return Score("Fold", float(totals % 10**6))


@pytest.fixture
def fold_metric() -> Iterator[None]:
    """``-m fold`` for one test: the toy is registered, and unregistered after it."""
    with registered(OrderedFold):
        yield


@pytest.mark.usefixtures("fold_metric")
def test_chunks_fold_in_file_order_per_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every chunk size, systems in batches: each system's rows are folded in file order."""
    ref = [" ".join(["w"] * (i % 7 + 1)) for i in range(50)]
    systems = [[" ".join(["w"] * ((i * (s + 2)) % 5 + 1)) for i in range(50)] for s in range(5)]
    write_lines(tmp_path / "ref", ref)
    for s, lines in enumerate(systems):
        write_lines(tmp_path / f"sys{s}", lines)
    args = ["ref", "-i", *[f"sys{s}" for s in range(5)], "-m", "fold", "-f", "json", "-w", "0"]
    expected = []
    for lines in systems:
        metric = OrderedFold()
        score = metric.score_totals(metric.accumulate(None, metric.statistics(lines, [ref])))
        expected.append(score.score)
    for chunk, budget in [(1, None), (7, 3), (1000, 2), (13, 1)]:
        monkeypatch.setattr(scoring, "CHUNK_LINES", chunk)
        if budget is not None:
            monkeypatch.setattr(chunks, "open_file_budget", lambda b=budget: b)
        rc, out, err = ours(args, tmp_path, capsys)
        assert rc == 0, err
        assert [float(s["Fold"]) for s in json.loads(out)] == expected, (chunk, budget)


def test_lowercasing_in_rust_chunks_as_the_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-lc: non-ASCII lines are lowercased by Python's str.lower() (final sigma, dotted I)."""
    ref = ["ΟΔΟΣ ΟΔΟΣ İstanbul", "STRASSE ß ẞ", "Ǆemal ǅ", "plain ASCII Text"]
    hyp = ["οδος οδοσ i̇stanbul", "strasse ß ß", "ǆemal ǆ", "plain ascii text"]
    ref = [f"{r} so it Goes on" for r in ref]
    hyp = [f"{h} so it goes on" for h in hyp]
    write_lines(tmp_path / "ref", ref)
    write_lines(tmp_path / "hyp", hyp)
    for extra in (["-i", "hyp"], ["-i", "hyp", "ref"]):
        rc, out, _ = ours(["ref", *extra, "-lc", "-w", "8", "-f", "json"], tmp_path, capsys)
        assert rc == 0
        got = json.loads(out)
        first = float(got[0]["BLEU"]) if isinstance(got, list) else got["score"]
        expected = rapidbleu.corpus_bleu(hyp, [ref], lowercase=True).score
        assert first == float(f"{expected:.8f}") and 0 < expected < 100
