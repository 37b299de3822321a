"""Generated full-Unicode files: ``rapidbleu`` and the ``sacrebleu`` command, byte for byte.

Hypothesis draws corpora (CJK, control characters, ``\\r``, form feeds, line and paragraph
separators, entities, empty lines; see ``conftest.corpora``), writes them as UTF-8 files with one
segment per ``\\n``-terminated line, and draws the options: tokenizer, lowercase, smoothing,
format, width, one or two systems, sentence level. Each example runs the real ``sacrebleu``
command, so the number of examples is small (scale it with ``$RAPIDBLEU_TEST_SCALE``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from clitools import ours, sacrebleu
from conftest import corpora, examples, strip_version
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _write(path: Path, lines: list[str]) -> None:
    # One segment a line: a "\n" inside a segment would split it (for both tools alike).
    path.write_bytes("".join(s.replace("\n", " ") + "\n" for s in lines).encode("utf-8"))


# capsys is reset by clitools.ours before every run, so sharing it across examples is safe.
@settings(
    max_examples=examples(12),
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(
    corpus=corpora(nrefs=2, allow_none=False, max_segments=6),
    other=st.lists(st.text(max_size=20), min_size=6, max_size=6),
    tok=st.sampled_from(["13a", "intl", "zh", "char", "none"]),
    lc=st.booleans(),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
    fmt=st.sampled_from(["json", "text", "latex"]),
    width=st.integers(0, 4),
    mode=st.sampled_from(["one", "two-refs", "two-systems", "sentence"]),
)
def test_generated_files_equal_sacrebleu(
    capsys: pytest.CaptureFixture[str],
    corpus: tuple[list[str], list[list[str | None]]],
    other: list[str],
    tok: str,
    lc: bool,
    smooth: str,
    fmt: str,
    width: int,
    mode: str,
) -> None:
    hyps, refs = corpus
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        _write(d / "hyp", hyps)
        _write(d / "ref1", [r or "" for r in refs[0]])
        _write(d / "ref2", [r or "" for r in refs[1]])
        _write(d / "hyp2", [s.replace("\r", " ") for s in other[: len(hyps)]])
        args = ["ref1", "-i", "hyp"]
        if mode == "two-refs":
            args = ["ref1", "ref2", "-i", "hyp"]
        elif mode == "two-systems":
            args = ["ref1", "-i", "hyp", "hyp2"]
        elif mode == "sentence":
            args.append("-sl")
        args += ["-tok", tok, "-s", smooth, "-f", fmt, "-w", str(width), "--force"]
        if lc:
            args.append("-lc")
        theirs = sacrebleu(args, d)
        rc, out, err = ours(args, d, capsys)
        assert rc == theirs.returncode, (err, theirs.stderr.decode())
        assert strip_version(out) == theirs.stdout.decode("utf-8")
