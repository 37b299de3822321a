"""``rapidbleu -m ter`` against the ``sacrebleu`` command, byte for byte (but the version).

One and several systems, 1 to 3 references, every ``--ter-*`` option, text/JSON/LaTeX, ``-sl``,
``-ci``, ``-pbs``, ``-par``, ``-m bleu ter``; streaming in chunks of any size; ``--jsonl`` with
a ``"ter"`` field. sacreBLEU's TER takes seconds per system, so the comparisons run on the first
300 lines of each real file (one case runs the whole files).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sacrebleu
from clitools import ours
from clitools import sacrebleu as sacrebleu_cmd
from conftest import strip_version

import rapidbleu
from rapidbleu.cli import scoring


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


DE = ["wmt22.en-de/ref.A.de", "-i", "wmt22.en-de/hyp.PROMT.de"]
DE3 = [
    "wmt22.en-de/ref.A.de",
    "wmt22.en-de/ref.B.de",
    "wmt22.en-de/hyp.JDExploreAcademy.de",
    "-i",
    "wmt22.en-de/hyp.PROMT.de",
]
ZH = ["wmt22.en-zh/ref.A.zh", "-i", "wmt22.en-zh/hyp.Online-W.zh"]
SYSTEMS = [
    "wmt22.en-de/ref.A.de",
    "wmt22.en-de/ref.B.de",
    "-i",
    "wmt22.en-de/hyp.PROMT.de",
    "wmt22.en-de/hyp.Online-B.de",
    "wmt22.en-de/hyp.OpenNMT.de",
]

#: Lines of each real file that the comparisons use.
LINES = 300


@pytest.fixture(scope="module")
def small_dir(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the cases name, cut to their first :data:`LINES` lines (bytes unchanged)."""
    out = tmp_path_factory.mktemp("ter-cli")
    names = {a for args in CASES.values() for a in args if "/" in a}
    for name in names:
        lines = (data_dir / name).read_bytes().split(b"\n")[:LINES]
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(b"\n".join(lines) + b"\n")
    return out


CASES = {
    "json": [*DE, "-m", "ter"],
    "text": [*DE, "-m", "ter", "-f", "text"],
    "three-refs-w16": [*DE3, "-m", "ter", "-f", "text", "-w", "16"],
    "score-only": [*DE3, "-m", "ter", "-b", "-w", "6"],
    "short": [*DE, "-m", "ter", "-sh", "-f", "text"],
    "case-no-punct": [*DE, "-m", "ter", "--ter-case-sensitive", "--ter-no-punct", "-f", "text"],
    "normalized": [*DE3, "-m", "ter", "--ter-normalized", "-w", "4"],
    "asian-all": [
        *ZH,
        *("-m", "ter", "--ter-asian-support", "--ter-normalized", "--ter-no-punct"),
        *("-f", "text", "-w", "10"),
    ],
    "asian-only": [*ZH, "-m", "ter", "--ter-asian-support", "-sh"],
    "bleu-ter": [*DE3, "-m", "bleu", "ter", "-f", "text"],
    "bleu-ter-json": [*DE, "-m", "ter", "bleu"],
    "systems-text": [*SYSTEMS, "-m", "ter", "-f", "text"],
    "systems-json": [*SYSTEMS, "-m", "bleu", "ter"],
    "systems-latex": [*SYSTEMS, "-m", "bleu", "ter", "-f", "latex"],
    "sentence": [*DE3, "-m", "ter", "-sl", "-w", "4"],
    "sentence-text-short": [*ZH, "-m", "ter", "-sl", "-f", "text", "-sh", "--ter-normalized"],
    "ci": [*DE3, "-m", "ter", "-ci", "-f", "text", "-w", "6"],
    "ci-bleu-ter-json": [*DE, "-m", "bleu", "ter", "-ci", "--confidence-n", "200"],
    "pbs": [*SYSTEMS, "-m", "ter", "-pbs", "--paired-bs-n", "300", "-f", "text"],
    "par-bleu-ter": [*SYSTEMS, "-m", "bleu", "ter", "-par", "--paired-ar-n", "500", "-f", "text"],
    "par-latex": [*SYSTEMS, "-m", "ter", "-par", "--paired-ar-n", "300", "-f", "latex"],
}


@pytest.mark.parametrize("args", CASES.values(), ids=CASES.keys())
def test_equals_sacrebleu_command(
    args: list[str], small_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = sacrebleu_cmd(args, small_dir)
    assert expected.returncode == 0, expected.stderr.decode()
    rc, out, err = ours(args, small_dir, capsys)
    assert rc == 0, err
    assert strip_version(out) == expected.stdout.decode("utf-8")


def test_whole_files(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [*DE3, "-m", "bleu", "ter", "--ter-normalized", "-f", "text", "-w", "4"]
    expected = sacrebleu_cmd(args, data_dir)
    assert expected.returncode == 0, expected.stderr.decode()
    rc, out, err = ours(args, data_dir, capsys)
    assert rc == 0, err
    assert strip_version(out) == expected.stdout.decode("utf-8")


def test_paired_json_where_sacrebleu_fails(
    small_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """sacreBLEU cannot write TER's float32 means as JSON (a TypeError); rapidbleu writes the
    numbers of its text table."""
    args = [*SYSTEMS[:5], "-m", "ter", "-pbs", "--paired-bs-n", "100"]
    assert sacrebleu_cmd(args, small_dir).returncode != 0
    rc, out, err = ours(args, small_dir, capsys)
    assert rc == 0, err
    rows = json.loads(out)
    rc, text, _ = ours([*args, "-f", "text", "-w", "4"], small_dir, capsys)
    assert f"{rows[1]['TER']['score']:.4f}" in text and f"{rows[1]['TER']['mean']:.4f}" in text


@pytest.mark.parametrize("chunk", [1, 7, 500])
@pytest.mark.parametrize(
    "args",
    [[*DE3, "-m", "ter", "-w", "16"], [*DE3, "-m", "ter", "-sl", "-w", "4"], CASES["pbs"]],
    ids=["corpus", "sentence", "pbs"],
)
def test_streaming_chunks(
    args: list[str],
    chunk: int,
    small_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, expected, _ = ours(args, small_dir, capsys)
    monkeypatch.setattr(scoring, "CHUNK_LINES", chunk)
    rc, out, err = ours(args, small_dir, capsys)
    assert rc == 0, err
    assert out == expected


def test_jsonl_ter_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = [
        {"id": "a", "candidate": "The cat sat on the mat.", "references": ["The cat is on mat."]},
        {"id": 2, "candidate": "world Hello", "references": ["Hello world", "Hi world"]},
        {"candidate": "Ein Hund bellt laut.", "references": "Ein Hund bellt."},
    ]
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in items), "utf-8")
    hyps = [i["candidate"] for i in items]
    per = [
        i["references"] if isinstance(i["references"], list) else [i["references"]] for i in items
    ]
    rc, out, err = ours(["--jsonl", str(path), "-m", "ter", "--per-item"], tmp_path, capsys)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    expected = [sacrebleu.sentence_ter(h, r).score / 100 for h, r in zip(hyps, per)]
    assert [x["ter"] for x in lines] == expected
    assert [x.get("id") for x in lines] == ["a", 2, None]
    rc, out, err = ours(["--jsonl", str(path), "-m", "bleu", "ter"], tmp_path, capsys)
    assert rc == 0, err
    corpus = json.loads(out)
    streams = [[p[0] for p in per], [p[1] if len(p) > 1 else None for p in per]]
    theirs = sacrebleu.metrics.TER().corpus_score(hyps, streams)
    assert corpus["ter"] == theirs.score / 100
    assert (corpus["num_edits"], corpus["ref_length"]) == (theirs.num_edits, theirs.ref_length)
    assert "bleu" in corpus and corpus["signatures"]["ter"].startswith("nrefs:var|case:lc")
    assert rapidbleu.TER().corpus_score(hyps, streams).score == theirs.score


@pytest.mark.parametrize(
    "args,message",
    [
        (["--ter-no-punct"], "ter"),
        (["-m", "ter", "-sl", "-ci"], "sentence-level"),
        (["-m", "ter", "ter"], "at most once"),
    ],
)
def test_usage_errors(
    args: list[str], message: str, small_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if message == "ter":  # a TER option without -m ter is accepted and ignored, as in sacreBLEU
        rc, out, err = ours([*DE, *args, "-f", "text"], small_dir, capsys)
        assert rc == 0 and out.startswith("BLEU"), err
        return
    rc, out, err = ours([*DE, *args], small_dir, capsys)
    assert rc == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
