"""Every kind of bad input to the ``rapidbleu`` command: the message and the exit code.

Each case must print exactly one line on stderr (``rapidbleu: error: ...``) that names what
was wrong (file, line, counts, the allowed values), nothing on stdout, no traceback, and exit
with 2 for a wrong command line and 1 for bad input.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from clitools import ours, write_lines

import rapidbleu
from rapidbleu import errors
from rapidbleu.metrics.registry import metric_names


@pytest.fixture
def files(tmp_path: Path) -> Path:
    write_lines(tmp_path / "ref", ["a b c", "d e f", "g h i"])
    write_lines(tmp_path / "ref2", ["a b c", "d e f", "g h i"])
    write_lines(tmp_path / "hyp", ["a b c", "d e x", "g h i"])
    write_lines(tmp_path / "hyp2", ["a b c", "d x f", "g h i"])
    write_lines(tmp_path / "short", ["a b c", "d e f"])
    write_lines(tmp_path / "long", ["a", "b", "c", "d"])
    (tmp_path / "latin1").write_bytes("ok\ncaf\xe9 au lait ce matin\nfin\n".encode("latin-1"))
    (tmp_path / "broken.gz").write_bytes(gzip.compress(b"a b c\n" * 1000)[:50])
    (tmp_path / "adir").mkdir()
    (tmp_path / "items.jsonl").write_text(
        '{"candidate": "a b", "references": ["a b"]}\n', encoding="utf-8"
    )
    return tmp_path


def _bad(
    args: list[str],
    cwd: Path,
    capsys: pytest.CaptureFixture[str],
    code: int,
    fragments: list[str],
    stdin: bytes | None = None,
) -> str:
    rc, out, err = ours(args, cwd, capsys, stdin=stdin)
    assert rc == code, (rc, err)
    assert out == "", out
    assert "Traceback" not in err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert lines[0].startswith("rapidbleu: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    return lines[0]


INPUT_ERRORS = {
    # line counts: every file and its count
    "hyp-shorter": (["ref", "-i", "short"], ["ref has 3 lines", "short has 2 lines"]),
    "hyp-longer": (["ref", "-i", "long"], ["ref has 3 lines", "long has 4 lines"]),
    "second-ref": (["ref", "short", "-i", "hyp"], ["ref has 3", "short has 2", "hyp has 3"]),
    "second-system": (["ref", "-i", "hyp", "long"], ["hyp has 3", "long has 4"]),
    "sentence-level": (["ref", "-i", "short", "-sl"], ["ref has 3", "short has 2"]),
    # files
    "missing-hyp": (["ref", "-i", "nope.txt"], ["nope.txt: no such file"]),
    "missing-ref": (["absent.ref", "-i", "hyp"], ["absent.ref: no such file"]),
    "missing-gz": (["ref", "-i", "nope.gz"], ["nope.gz: no such file"]),
    "directory": (["ref", "-i", "adir"], ["adir: is a directory"]),
    "corrupt-gzip": (["ref", "-i", "broken.gz"], ["broken.gz", "corrupt or truncated"]),
    "duplicate-system": (["ref", "-i", "hyp", "hyp"], ["'hyp' is given twice"]),
    # bytes that are not UTF-8: file, line, byte offset (3 + 3 = 6), the way out
    "not-utf8": (
        ["ref", "-i", "latin1"],
        ["latin1: line 2", "not valid UTF-8", "byte offset 6", "--encoding-errors replace"],
    ),
    "not-utf8-ref": (["latin1", "-i", "hyp"], ["latin1: line 2", "byte offset 6"]),
    "num-refs-fields": (["ref", "-nr", "2", "-i", "hyp"], ["ref: line 1", "expected 2", "found 1"]),
    "empty-files": (["empty", "-i", "empty"], ["nothing to score"]),
}


@pytest.mark.parametrize("case", list(INPUT_ERRORS.values()), ids=list(INPUT_ERRORS))
def test_bad_input_exits_1(
    case: tuple[list[str], list[str]], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "empty").write_bytes(b"")
    args, fragments = case
    _bad(args, files, capsys, 1, fragments)


def test_stdin_errors(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _bad(["ref"], files, capsys, 1, ["stdin: line 1", "UTF-8", "byte offset 3"], b"caf\xe9\n")
    _bad(
        ["ref"],
        files,
        capsys,
        1,
        ["stdin: line 2 has 1 tab-separated systems but line 1 has 2"],
        b"a b c\ta b c\nd e f\ng h i\tg h i\n",
    )
    _bad(["ref"], files, capsys, 1, ["stdin has 2 lines", "ref has 3"], b"a b c\nd e f\n")


def test_encoding_errors_replace_goes_on(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_lines(files / "ref3", ["ok", "café au lait ce matin", "fin"])
    rc, out, _ = ours(["ref3", "-i", "latin1", "--encoding-errors", "replace", "-b"], files, capsys)
    expected = rapidbleu.corpus_bleu(
        ["ok", "caf\ufffd au lait ce matin", "fin"], [["ok", "café au lait ce matin", "fin"]]
    )
    assert rc == 0 and out == f"{expected.score:.1f}\n"
    # or say what the encoding is
    (files / "ref4").write_bytes((files / "ref3").read_text("utf-8").encode("latin-1"))
    rc, out, _ = ours(["ref4", "-i", "latin1", "-e", "latin-1", "-b"], files, capsys)
    assert rc == 0 and out == "100.0\n"


JSONL_ERRORS = {
    "not-json": ('{"candidate": "a", "references": ["a"]}\n{candidate: 1}\n', ["line 2", "JSON"]),
    "not-object": ('{"candidate": "a", "references": ["a"]}\n["a", ["a"]]\n', ["line 2", "list"]),
    "no-candidate": ('{"references": ["a"]}\n', ["line 1", "no candidate", "prediction"]),
    "no-references": ('{"candidate": "a"}\n', ["line 1", "no references", "expected_output"]),
    "candidate-type": ('{"candidate": 3, "references": ["a"]}\n', ["line 1", "int"]),
    "reference-type": ('{"candidate": "a", "references": ["a", 1]}\n', ["references[1]", "int"]),
    "empty-references": ('{"candidate": "a", "references": []}\n', ["line 1", "non-empty"]),
    "no-items": ("\n  \n", ["no items"]),
}


@pytest.mark.parametrize("case", list(JSONL_ERRORS.values()), ids=list(JSONL_ERRORS))
def test_bad_jsonl_exits_1(
    case: tuple[str, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, fragments = case
    (tmp_path / "x.jsonl").write_text(text, encoding="utf-8")
    _bad(["--jsonl", "x.jsonl"], tmp_path, capsys, 1, ["x.jsonl", *fragments])
    _bad(["--jsonl", "-"], tmp_path, capsys, 1, ["stdin", *fragments], text.encode("utf-8"))


USAGE_ERRORS = {
    "nothing": ([], ["no reference files"]),
    "no-refs": (["-i", "hyp"], ["no reference files"]),
    "unknown-option": (["ref", "--no-such-option"], ["--no-such-option"]),
    "bad-tokenizer": (["ref", "-tok", "bogus"], ["'bogus'", "13a", "intl", "char", "ja-mecab"]),
    "bad-smooth": (["ref", "-s", "Exp"], ["'Exp'", "exp", "floor", "add-k", "none"]),
    "bad-format": (["ref", "-f", "yaml"], ["'yaml'", "json", "text", "latex"]),
    "metric-bogus": (
        ["ref", "-m", "bogus"],
        ["'bogus'", "bleu, chrf, cider, coco_bleu, meteor, rouge, rouge_l, ter"],
    ),
    "bad-width-type": (["ref", "-w", "two"], ["'two'"]),
    "negative-width": (["ref", "-w", "-1"], [">= 0"]),
    "bad-order": (["ref", "--max-ngram-order", "0"], [">= 1"]),
    "negative-smooth-value": (["ref", "-sv", "-1"], [">= 0"]),
    "bad-langpair": (["ref", "-l", "ende"], ["SRC-TRG"]),
    "bad-scale": (["ref", "--scale", "ratio"], ["'ratio'", "unit", "percent"]),
    "bad-encoding-errors": (["ref", "--encoding-errors", "x"], ["strict", "replace"]),
    "bad-encoding": (["ref", "-e", "klingon"], ["'klingon'"]),
    # sacreBLEU's test sets come through the `datasets` extra; what is missing is named (here
    # the language pair; the missing extra and a failed download: tests/cli/test_cli_testsets.py).
    "test-set": (["-t", "wmt14", "-i", "hyp"], ["-t/--test-set", "language pair (-l)"]),
    "confidence-sentence-level": (["ref", "-ci", "-sl"], ["unavailable in sentence-level"]),
    "paired-one-system": (["ref", "-i", "hyp", "-pbs"], ["require multiple input systems"]),
    "confidence-systems": (["ref", "-i", "hyp", "hyp2", "-ci"], ["Use paired tests"]),
    "paired-both": (["ref", "-i", "hyp", "hyp2", "-pbs", "-par"], ["not allowed with"]),
    "confidence-jsonl": (["--jsonl", "items.jsonl", "-ci"], ["not --jsonl"]),
    "sentence-level-systems": (["ref", "-i", "hyp", "hyp2", "-sl"], ["one system"]),
    "num-refs-two-files": (["ref", "ref2", "-nr", "2"], ["ONE reference file"]),
    "per-item-without-jsonl": (["ref", "--per-item"], ["--jsonl"]),
    "jsonl-with-refs": (["ref", "--jsonl", "items.jsonl"], ["no REF"]),
    "jsonl-sentence-level": (["--jsonl", "items.jsonl", "-sl"], ["--per-item"]),
}


@pytest.mark.parametrize("case", list(USAGE_ERRORS.values()), ids=list(USAGE_ERRORS))
def test_usage_errors_exit_2(
    case: tuple[list[str], list[str]], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args, fragments = case
    if args and args[0] == "ref" and "-i" not in args:
        args = [*args, "-i", "hyp"]
    _bad(args, files, capsys, 2, fragments)


def test_errors_are_rapidbleu_errors() -> None:
    """CLI errors and API errors share rapidbleu.errors (and the built-in types)."""
    assert issubclass(errors.UsageError, errors.InvalidOptionError)
    assert issubclass(errors.UsageError, ValueError)
    assert issubclass(errors.InputFileError, OSError)
    assert issubclass(errors.InputFileError, errors.RapidBleuError)
    from rapidbleu.cli.args import parse_args
    from rapidbleu.io.reader import open_input

    with pytest.raises(errors.UsageError, match="'yaml'"):
        parse_args(["ref", "-f", "yaml"])
    with pytest.raises(FileNotFoundError.__mro__[1]):  # OSError
        open_input("/no/such/file")


def test_version_and_help(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, _ = ours(["-V"], tmp_path, capsys)
    assert rc == 0 and out == f"rapidbleu {rapidbleu.__version__} (sacreBLEU 2.6.0 compatible)\n"
    with pytest.raises(SystemExit) as info:
        ours(["--help"], tmp_path, capsys)
    assert info.value.code == 0
    help_text = capsys.readouterr().out
    for group in ("input:", "BLEU:", "output:", "--jsonl", "-tok"):
        assert group in help_text
    # Short: about a screen, plus each registered metric's option group.
    assert len(help_text.splitlines()) < 75 + 5 * len(metric_names())


def test_json_lines_in_output_are_valid(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = ours(["ref", "-i", "hyp"], files, capsys)
    assert rc == 0 and json.loads(out)["name"] == "BLEU"


def test_test_set_without_the_extra_or_the_data(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """-t needs sacreBLEU's registry (the `datasets` extra); without it, one clear line, exit 1.

    (A test set that is not cached and cannot be downloaded: tests/cli/test_cli_testsets.py.)
    """
    import sys

    for name in ("sacrebleu", "sacrebleu.dataset", "sacrebleu.utils"):
        monkeypatch.setitem(sys.modules, name, None)
    _bad(
        ["-t", "wmt14", "-l", "en-de", "-i", "hyp"],
        files,
        capsys,
        1,
        ["-t/--test-set", "sacreBLEU's registry", "pip install sacrebleu", '".[datasets]"'],
    )
