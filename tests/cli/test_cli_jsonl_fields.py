"""``--jsonl`` on real files: chosen fields, several systems, token IDs, and ``-b``/``-f``/``-w``.

Outputs are compared with the default-field run, the per-item API, and sacreBLEU's own command
on the same data written as plain files (system files named like the fields).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clitools import ours, sacrebleu, write_lines
from conftest import DATA, read_lines, strip_version

import rapidbleu

D = DATA / "wmt22.en-de"


@pytest.fixture(scope="module")
def real() -> dict[str, list[str]]:
    return {
        "ref": read_lines(D / "ref.A.de")[:300],
        "PROMT": read_lines(D / "hyp.PROMT.de")[:300],
        "OpenNMT": read_lines(D / "hyp.OpenNMT.de")[:300],
    }


def _write(path: Path, items: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), "utf-8")


@pytest.fixture
def files(tmp_path: Path, real: dict[str, list[str]]) -> Path:
    n = len(real["ref"])
    _write(
        tmp_path / "default.jsonl",
        [{"candidate": real["PROMT"][i], "references": [real["ref"][i]]} for i in range(n)],
    )
    _write(
        tmp_path / "own.jsonl",
        [
            {"id": i, "PROMT": real["PROMT"][i], "OpenNMT": real["OpenNMT"][i],
             "target": real["ref"][i]}
            for i in range(n)
        ],
    )  # fmt: skip
    for name, lines in real.items():
        write_lines(tmp_path / name, [x.rstrip() for x in lines])
    return tmp_path


def test_own_field_names(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, expected, _ = ours(["--jsonl", "default.jsonl"], files, capsys)
    rc, out, err = ours(
        ["--jsonl", "own.jsonl", "--candidate-field", "PROMT", "--references-field", "target"],
        files,
        capsys,
    )
    assert rc == 0, err
    assert out == expected
    rc, out, _ = ours(
        ["--jsonl", "own.jsonl", "--candidate-field", "PROMT", "--references-field", "target",
         "--per-item"], files, capsys,
    )  # fmt: skip
    _, default_items, _ = ours(["--jsonl", "default.jsonl", "--per-item"], files, capsys)
    assert [json.loads(x)["bleu"] for x in out.splitlines()] == [
        json.loads(x)["bleu"] for x in default_items.splitlines()
    ]
    assert [json.loads(x)["id"] for x in out.splitlines()][:3] == [0, 1, 2]


def test_several_systems(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--jsonl", "own.jsonl", "--references-field", "target"]
    rc, out, _ = ours([*base, "--candidate-field", "PROMT", "OpenNMT"], files, capsys)
    assert rc == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["system"] for r in rows] == ["PROMT", "OpenNMT"]
    for row in rows:
        _, single, _ = ours([*base, "--candidate-field", row["system"]], files, capsys)
        assert {k: v for k, v in row.items() if k != "system"} == json.loads(single)
    # -f text: sacreBLEU's multi-system table, as `sacrebleu ref -i PROMT OpenNMT -f text`
    for extra in (["-f", "text"], ["-f", "text", "-w", "3", "-sh"], ["-f", "json"]):
        if extra == ["-f", "json"]:
            continue
        rc, out, _ = ours(
            [*base, "--candidate-field", "PROMT", "OpenNMT", "--scale", "percent", *extra],
            files,
            capsys,
        )
        theirs = sacrebleu(["ref", "-i", "PROMT", "OpenNMT", *extra], files)
        assert rc == 0 and strip_version(out) == theirs.stdout.decode()
    # per item: one object per system under its field name
    rc, out, _ = ours([*base, "--candidate-field", "PROMT", "OpenNMT", "--per-item"], files, capsys)
    first = json.loads(out.splitlines()[0])
    assert list(first) == ["id", "PROMT", "OpenNMT"] and list(first["PROMT"]) == ["bleu"]


@pytest.mark.parametrize(
    "extra",
    [["-f", "text"], ["-f", "text", "-w", "4"], ["-b"], ["-b", "-w", "3"], ["-f", "text", "-sh"]],
    ids=" ".join,
)
def test_format_options_match_sacrebleu(
    extra: list[str], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = ours(["--jsonl", "default.jsonl", "--scale", "percent", *extra], files, capsys)
    theirs = sacrebleu(["ref", "-i", "PROMT", *extra], files)
    assert rc == 0 and strip_version(out) == theirs.stdout.decode()


def test_width_rounds_json_scores(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, full, _ = ours(["--jsonl", "default.jsonl"], files, capsys)
    _, rounded, _ = ours(["--jsonl", "default.jsonl", "-w", "3"], files, capsys)
    full_d, rounded_d = json.loads(full), json.loads(rounded)
    assert rounded_d["bleu"] == round(full_d["bleu"], 3) != full_d["bleu"]
    assert {k: v for k, v in rounded_d.items() if k != "bleu"} == {
        k: v for k, v in full_d.items() if k != "bleu"
    }
    _, items, _ = ours(["--jsonl", "default.jsonl", "--per-item", "-w", "2"], files, capsys)
    _, items_full, _ = ours(["--jsonl", "default.jsonl", "--per-item"], files, capsys)
    assert [json.loads(x)["bleu"] for x in items.splitlines()] == [
        round(json.loads(x)["bleu"], 2) for x in items_full.splitlines()
    ]
    _, scores, _ = ours(["--jsonl", "default.jsonl", "--per-item", "-b", "-w", "2"], files, capsys)
    assert scores.splitlines() == [f"{json.loads(x)['bleu']:.2f}" for x in items_full.splitlines()]
    # per-item text: sacreBLEU's sentence-level lines
    rc, text, _ = ours(
        ["--jsonl", "default.jsonl", "--per-item", "-f", "text", "--scale", "percent"],
        files,
        capsys,
    )
    theirs = sacrebleu(["ref", "-i", "PROMT", "-sl"], files)
    assert rc == 0 and strip_version(text) == theirs.stdout.decode()


def test_token_id_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = [
        {"id": "a", "output": [1, 2, 3, 4, 5], "target": [[1, 2, 3, 4, 6], [1, 2, 3]]},
        {"id": "b", "output": [7, 8, 9], "target": [7, 8, 9, 10]},
    ]
    _write(tmp_path / "ids.jsonl", items)
    base = ["--jsonl", "ids.jsonl", "--candidate-field", "output", "--references-field", "target"]
    rc, out, err = ours(base, tmp_path, capsys)
    assert rc == 0, err
    pairs = [([1, 2, 3, 4, 5], [[1, 2, 3, 4, 6], [1, 2, 3]]), ([7, 8, 9], [[7, 8, 9, 10]])]
    expected = rapidbleu.bleu(pairs).to_dict()
    got = json.loads(out)
    assert got.pop("signature") == expected.pop("signature").replace("#:", "nrefs:")
    assert got == expected
    rc, out, _ = ours([*base, "--per-item"], tmp_path, capsys)
    assert [json.loads(x)["bleu"] for x in out.splitlines()] == (
        rapidbleu.bleu_per_item(pairs).tolist()
    )


BAD = {
    "missing-field": ('{"output": "a", "target": "a"}\n', ["--candidate-field", "out"],
                      ["line 1", "no field 'out'", "'output'"]),
    "missing-refs-field": ('{"output": "a", "target": "a"}\n',
                           ["--candidate-field", "output", "--references-field", "refs"],
                           ["line 1", "no field 'refs'"]),
    "ids-with-text-refs": ('{"candidate": [1, 2], "references": ["a b"]}\n', [],
                           ["line 1", "references[0]", "integer IDs"]),
    "mixed-kinds": ('{"candidate": "a", "references": ["a"]}\n{"candidate": [1], '
                    '"references": [[1]]}\n', [], ["line 2", "token IDs", "earlier"]),
    "float-ids": ('{"candidate": [1.5], "references": [[1]]}\n', [], ["line 1", "list"]),
}  # fmt: skip


@pytest.mark.parametrize("case", list(BAD.values()), ids=list(BAD))
def test_bad_records(
    case: tuple[str, list[str], list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, opts, fragments = case
    (tmp_path / "x.jsonl").write_text(text, "utf-8")
    rc, out, err = ours(["--jsonl", "x.jsonl", *opts], tmp_path, capsys)
    assert rc == 1 and out == "" and len(err.strip().splitlines()) == 1, err
    for f in fragments:
        assert f in err, (f, err)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["ref", "--candidate-field", "x"], "--candidate-field needs --jsonl"),
        (["ref", "--references-field", "x"], "--references-field needs --jsonl"),
        (["--jsonl", "x.jsonl", "-f", "latex"], "-f latex is for system files"),
        (["--jsonl", "x.jsonl", "--candidate-field", "a", "a"], "each field at most once"),
    ],
)
def test_usage_errors(
    args: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = ours(args, tmp_path, capsys)
    assert rc == 2 and out == "" and fragment in err, err
