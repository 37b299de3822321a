"""The ``rapidbleu`` command against the ``sacrebleu`` command on the real WMT files.

``rapidbleu.cli.main(argv, stdin=...)`` runs in-process; ``sacrebleu`` runs as a subprocess
(the installed 2.6.0). Standard output must be byte-identical apart from the signature's version
field (``2.6.0+rapidbleu.X.Y.Z`` for ``2.6.0``): one system, several systems (``-i`` files and
tab-separated stdin; text table, JSON, LaTeX), several references (files and ``-nr``), sentence
level, and the options in several combinations.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from clitools import DE, DE2, EN2, ZH, ours, sacrebleu
from conftest import DATA, strip_version


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)


WMT17 = sorted(p.name for p in (DATA / "wmt17.en-de").glob("hyp.*")) if DATA.is_dir() else []
SYS17 = ["wmt17.en-de/ref.A.de", "-i", *(f"wmt17.en-de/{n}" for n in WMT17)]
DE_SYSTEMS = [
    "wmt22.en-de/ref.A.de",
    "wmt22.en-de/ref.B.de",
    "-i",
    "wmt22.en-de/hyp.PROMT.de",
    "wmt22.en-de/hyp.Online-B.de",
    "wmt22.en-de/hyp.OpenNMT.de",
]
KO_SYSTEMS = ["wmt24chat.en-ko/ref.A.ko", "-i"] + [
    f"wmt24chat.en-ko/hyp.{s}.ko" for s in ("DCUGenNLP", "DeepText_Lab", "baseline", "unbabel_it")
]

CASES = {
    "json-default": DE,
    "json-2refs": DE2,
    "text": [*DE, "-f", "text"],
    "latex-single-is-text": [*DE, "-f", "latex"],
    "text-2refs": [*DE2, "-f", "text"],
    "score-only": [*DE, "-b"],
    "score-only-text-w3": [*DE2, "-b", "-w", "3", "-f", "text"],
    "width-0": [*DE, "-w", "0", "-f", "text"],
    "width-2": [*DE, "-w", "2", "-f", "text"],
    "width-3-json": [*DE, "-w", "3"],
    "short-text": [*DE, "-sh", "-f", "text"],
    "short-json": [*DE, "-sh"],  # JSON always has the long signature
    "lowercase": [*DE, "-lc", "-f", "text"],
    "tok-intl": [*DE2, "-tok", "intl", "-f", "text"],
    "tok-char": [*ZH, "-tok", "char", "-f", "text"],
    "tok-none-json": [*DE, "-tok", "none"],
    "tok-zh": [*ZH, "-tok", "zh"],
    "smooth-floor": [*DE, "-s", "floor", "-f", "text"],
    "smooth-floor-value": [*DE, "-s", "floor", "-sv", "0.5", "-f", "text"],
    "smooth-add-k": [*EN2, "-s", "add-k", "-f", "text", "-w", "4"],
    "smooth-add-k-value": [*DE, "-s", "add-k", "-sv", "2"],
    "smooth-none": [*DE, "-s", "none", "-f", "text"],
    "langpair-de": [*DE, "-l", "en-de", "-f", "text"],
    "langpair-zh": [*ZH, "-l", "en-zh"],
    "langpair-zh-explicit-intl": [*ZH, "-l", "en-zh", "-tok", "intl", "-f", "text"],
    "combined": [*DE2, "-lc", "-tok", "intl", "-s", "floor", "-sh", "-w", "2", "-f", "text"],
    "metric-bleu": [*DE, "-m", "bleu", "-f", "text"],
    "quiet-no-color": [*DE, "-q", "-nc"],
    "encoding": [*DE, "-e", "utf-8", "-f", "text"],
    "sentence-level": [*DE, "-sl"],
    "sentence-level-2refs-short-w3": [*DE2, "-sl", "-sh", "-w", "3", "-tok", "intl"],
    "sentence-level-score-only": [*ZH, "-sl", "-b", "-l", "en-zh"],
    "sentence-level-score-only-w4": [*DE2, "-sl", "-b", "-w", "4", "-s", "floor"],
    "sentence-level-text-smooth": [*EN2, "-sl", "-f", "text", "-s", "add-k", "-lc"],
    "force": [*DE, "--force", "-f", "text"],
    "multi-text": [*DE_SYSTEMS, "-f", "text"],
    "multi-json": DE_SYSTEMS,
    "multi-latex": [*DE_SYSTEMS, "-f", "latex"],
    "multi-text-short-w3": [*DE_SYSTEMS, "-f", "text", "-sh", "-w", "3"],
    "multi-text-w0": [*DE_SYSTEMS, "-f", "text", "-w", "0"],
    "multi-score-only-ignored": [*DE_SYSTEMS, "-f", "text", "-b", "-lc", "-tok", "intl"],
    "multi-wmt17-16-systems-text": [*SYS17, "-f", "text"],
    "multi-wmt17-16-systems-latex": [*SYS17, "-f", "latex", "-w", "2"],
    "multi-ko-underscores-latex": [*KO_SYSTEMS, "-f", "latex", "-tok", "char"],
    "multi-ko-mecab-text": [*KO_SYSTEMS, "-f", "text", "-l", "en-ko"],
    "long-options": [
        "wmt22.en-de/ref.A.de",
        "--input",
        "wmt22.en-de/hyp.PROMT.de",
        "--tokenize",
        "intl",
        "--lowercase",
        "--smooth-method",
        "floor",
        "--smooth-value",
        "0.2",
        "--width",
        "3",
        "--short",
        "--format",
        "text",
        "--metrics",
        "bleu",
        "--sentence-level",
    ],
}


def _same(args: list[str], cwd: Path, capsys: pytest.CaptureFixture[str], **kw: bytes) -> str:
    stdin = kw.get("stdin")
    theirs = sacrebleu(args, cwd, stdin=stdin)
    assert theirs.returncode == 0, theirs.stderr.decode()
    rc, out, err = ours(args, cwd, capsys, stdin=stdin)
    assert rc == 0, err
    expected = theirs.stdout.decode("utf-8")
    assert strip_version(out) == expected, (
        f"rapidbleu {' '.join(args)}\n--- ours\n{out[:3000]}\n--- sacrebleu\n{expected[:3000]}"
    )
    # Every version field names rapidbleu.
    assert out.count("2.6.0+rapidbleu.") == expected.count("2.6.0")
    return out


@pytest.mark.parametrize("args", list(CASES.values()), ids=list(CASES))
def test_same_output_as_sacrebleu(
    args: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _same(args, data_dir, capsys)


@pytest.mark.parametrize(
    "extra", [[], ["-f", "text", "-w", "3"], ["-sl", "-b"]], ids=["json", "text", "sentence"]
)
def test_stdin(extra: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = (data_dir / "wmt22.en-de/hyp.OpenNMT.de").read_bytes()
    _same(["wmt22.en-de/ref.A.de", *extra], data_dir, capsys, stdin=hyp)


@pytest.mark.parametrize("fmt", ["text", "json", "latex"])
def test_tab_separated_systems_on_stdin(
    fmt: str, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """sacreBLEU reads several systems from stdin as tab-separated columns (System 1, ...)."""
    names = ("PROMT", "Online-B", "OpenNMT")
    columns = [
        (data_dir / f"wmt22.en-de/hyp.{n}.de").read_text("utf-8").splitlines() for n in names
    ]
    stdin = "".join("\t".join(row) + "\n" for row in zip(*columns)).encode("utf-8")
    _same(["wmt22.en-de/ref.A.de", "-f", fmt], data_dir, capsys, stdin=stdin)


def test_num_refs_tab_separated_reference_file(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = (data_dir / "wmt22.en-de/ref.A.de").read_text("utf-8").splitlines()
    b = (data_dir / "wmt22.en-de/ref.B.de").read_text("utf-8").splitlines()
    refs = tmp_path / "refs.tsv"
    refs.write_text("".join(f"{x}\t{y}\n" for x, y in zip(a, b)), encoding="utf-8")
    hyp = str(data_dir / "wmt22.en-de/hyp.PROMT.de")
    for extra in (["-f", "text"], ["-sl", "-sh"], ["-i", hyp, hyp.replace("PROMT", "OpenNMT")]):
        args = [str(refs), "-nr", "2", *(["-i", hyp] if "-i" not in extra else []), *extra]
        _same(args, tmp_path, capsys)


def test_gzip_input(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sacreBLEU's smart_open reads .gz; so does rapidbleu (and .xz, .bz2: test_cli_streaming)."""
    for name in ("ref.A.de", "hyp.PROMT.de"):
        data = (data_dir / "wmt22.en-de" / name).read_bytes()
        (tmp_path / f"{name}.gz").write_bytes(gzip.compress(data))
    _same(["ref.A.de.gz", "-i", "hyp.PROMT.de.gz", "-f", "text"], tmp_path, capsys)


@pytest.mark.parametrize("fmt", ["text", "latex"])
def test_sacrebleu_format_environment_variable(
    fmt: str, data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SACREBLEU_FORMAT overrides -f, as in sacreBLEU's parse_args."""
    args = [*DE_SYSTEMS[:3], *DE_SYSTEMS[4:]]
    theirs = sacrebleu(args, data_dir, extra_env={"SACREBLEU_FORMAT": fmt.upper()})
    monkeypatch.setenv("SACREBLEU_FORMAT", fmt.upper())
    rc, out, _ = ours(args, data_dir, capsys)
    assert rc == 0 and strip_version(out) == theirs.stdout.decode()


def test_scale(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--scale percent is sacreBLEU's output; --scale unit divides scores and precisions by 100."""
    _, expected, _ = ours([*DE, "-f", "text"], data_dir, capsys)
    _, out, _ = ours([*DE, "-f", "text", "--scale", "percent"], data_dir, capsys)
    assert out == expected
    import sacrebleu as sb

    hyps = (data_dir / "wmt22.en-de/hyp.PROMT.de").read_text("utf-8").split("\n")[:-1]
    refs = (data_dir / "wmt22.en-de/ref.A.de").read_text("utf-8").split("\n")[:-1]
    theirs = sb.corpus_bleu(hyps, [refs])
    rc, out, _ = ours([*DE, "--scale", "unit", "-w", "17"], data_dir, capsys)
    got = json.loads(out)
    assert rc == 0 and got["score"] == float(f"{theirs.score / 100:.17f}")
    assert got["verbose_score"].startswith("/".join(f"{p / 100:.1f}" for p in theirs.precisions))
    _, out, _ = ours([*DE, "-sl", "-b", "-w", "8", "--scale", "unit"], data_dir, capsys)
    first = sb.sentence_bleu(hyps[0], [refs[0]]).score / 100
    assert out.split("\n")[0] == f"{first:.8f}"
