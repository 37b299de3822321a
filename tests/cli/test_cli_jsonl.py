"""``rapidbleu --jsonl``: items from JSON lines, scored like the per-item API and sacreBLEU.

The corpus object equals :meth:`rapidbleu.bleu(items).to_dict()` (itself parity-tested), and
on the real data ``sacrebleu.corpus_bleu(...).score / 100``; ``--per-item`` lines equal
:func:`rapidbleu.bleu_per_item` and ``sacrebleu.sentence_bleu``; field aliases, ids, scales,
stdin and chunking.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from clitools import ours

import rapidbleu
from rapidbleu.cli import jsonl


def _write(path: Path, items: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), "utf-8")
    return str(path)


ITEMS = [
    {"id": "a", "candidate": "The cat sat on the mat.", "references": ["The cat is on the mat."]},
    {"id": 2, "candidate": "Hello world", "references": ["Hello world", "Hi world"]},
    {"candidate": "Ein Hund bellt laut.", "references": "Ein Hund bellt."},
]


@pytest.mark.parametrize(
    "opts",
    [[], ["--scale", "percent"], ["-tok", "intl", "-lc", "-s", "floor", "-sv", "0.2"], ["-sh"]],
    ids=["default", "percent", "options", "short"],
)
def test_corpus_object_equals_api(
    opts: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "x.jsonl", ITEMS)
    rc, out, err = ours(["--jsonl", "x.jsonl", *opts], tmp_path, capsys)
    assert rc == 0, err
    kw: dict[str, Any] = {}
    if "percent" in opts:
        kw["scale"] = "percent"
    if "-tok" in opts:
        kw.update(tokenize="intl", lowercase=True, smooth_method="floor", smooth_value=0.2)
    expected = rapidbleu.bleu([(i["candidate"], i["references"]) for i in ITEMS], **kw).to_dict()
    got = json.loads(out)
    if "-sh" in opts:
        assert got.pop("signature").startswith("#:var|c:mixed|e:no|tok:13a|s:exp|v:2.6.0+")
        expected.pop("signature")
    assert got == expected
    assert out.count("\n") == 1


def test_per_item_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "x.jsonl", ITEMS)
    rc, out, _ = ours(["--jsonl", "x.jsonl", "--per-item"], tmp_path, capsys)
    assert rc == 0
    rows = [json.loads(line) for line in out.splitlines()]
    scores = rapidbleu.bleu_per_item([(i["candidate"], i["references"]) for i in ITEMS])
    assert [r["bleu"] for r in rows] == scores.tolist()
    assert [r.get("id") for r in rows] == ["a", 2, None]
    assert list(rows[0]) == ["id", "bleu"] and list(rows[2]) == ["bleu"]
    for row, item in zip(rows, ITEMS):
        refs = item["references"]
        theirs = sacrebleu.sentence_bleu(
            item["candidate"], [refs] if isinstance(refs, str) else refs
        )
        assert row["bleu"] == theirs.score / 100


ALIASES = [
    {"prediction": "The cat sat on the mat.", "reference": "The cat is on the mat."},
    {"hypothesis": "Hello world", "references": ["Hello world", "Hi world"]},
    {"actual_output": "Ein Hund bellt laut.", "expected_output": "Ein Hund bellt."},
]


def test_field_aliases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "canonical.jsonl", ITEMS)
    _write(tmp_path / "aliases.jsonl", ALIASES)
    for extra in ([], ["--per-item"]):
        _, expected, _ = ours(["--jsonl", "canonical.jsonl", *extra], tmp_path, capsys)
        rc, out, _ = ours(["--jsonl", "aliases.jsonl", *extra], tmp_path, capsys)
        assert rc == 0
        if extra:
            expected = (
                "\n".join(
                    json.dumps({"bleu": json.loads(x)["bleu"]}) for x in expected.splitlines()
                )
                + "\n"
            )
        assert out == expected


def test_stdin_and_blank_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "x.jsonl", ITEMS)
    _, expected, _ = ours(["--jsonl", "x.jsonl"], tmp_path, capsys)
    text = "\n".join(json.dumps(i) for i in ITEMS).replace("\n", "\n\n") + "\n  \n"
    rc, out, _ = ours(["--jsonl", "-"], tmp_path, capsys, stdin=text.encode("utf-8"))
    assert rc == 0 and out == expected


def test_chunks_with_different_reference_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk of 1-reference items then one of 2-reference items: nrefs:var, as one call."""
    items = [{"candidate": f"a b c {i}", "references": [f"a b c {i}"]} for i in range(3)]
    items += [{"candidate": f"a b {i}", "references": [f"a b {i}", "x"]} for i in range(3)]
    _write(tmp_path / "x.jsonl", items)
    monkeypatch.setattr(jsonl, "CHUNK_LINES", 3)
    rc, out, _ = ours(["--jsonl", "x.jsonl"], tmp_path, capsys)
    expected = rapidbleu.bleu([(i["candidate"], i["references"]) for i in items]).to_dict()
    assert rc == 0 and json.loads(out) == expected
    assert "nrefs:var" in expected["signature"]


def test_real_data_equals_sacrebleu(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = data_dir / "wmt22.en-de"
    hyps = (d / "hyp.PROMT.de").read_text("utf-8").split("\n")[:-1]
    ref_a = (d / "ref.A.de").read_text("utf-8").split("\n")[:-1]
    ref_b = (d / "ref.B.de").read_text("utf-8").split("\n")[:-1]
    items = [
        {"id": k, "candidate": h, "references": [a, b]}
        for k, (h, a, b) in enumerate(zip(hyps, ref_a, ref_b))
    ]
    _write(tmp_path / "wmt.jsonl", items)
    rc, out, _ = ours(["--jsonl", "wmt.jsonl", "--scale", "percent"], tmp_path, capsys)
    theirs = sacrebleu.corpus_bleu(hyps, [ref_a, ref_b])
    got = json.loads(out)
    assert rc == 0 and got["bleu"] == theirs.score
    assert got["counts"] == theirs.counts and got["totals"] == theirs.totals
    assert got["brevity_penalty"] == theirs.bp and got["precisions"] == theirs.precisions
    rc, out, _ = ours(["--jsonl", "wmt.jsonl", "--per-item"], tmp_path, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == list(range(len(items)))
    for r in rows[:200]:
        h, a, b = hyps[r["id"]], ref_a[r["id"]], ref_b[r["id"]]
        assert r["bleu"] == sacrebleu.sentence_bleu(h, [a, b]).score / 100
