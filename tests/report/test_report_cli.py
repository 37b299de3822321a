"""``rapidbleu report`` and ``-f card`` on the command line (in-process, and the installed script).

The report's numbers must be the command's: the p-values, means and intervals in the page
equal ``rapidbleu ... -pbs/-par -f json`` for the same files.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from clitools import BIN
from reporttools import NASTY, WMT22_EN_ZH, real_subset, synthetic, table_cells, write

from rapidbleu.cli import main
from rapidbleu.metrics.registry import registered


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv, stdin=io.BytesIO())
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("test", ["-pbs", "-par"])
def test_report_numbers_equal_the_paired_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], test: str
) -> None:
    systems, refs, _ = synthetic(3, 80)
    files = write(tmp_path, systems, refs)
    n = ["-pbsn", "200"] if test == "-pbs" else ["-parn", "300"]
    # BLEU, chrF and TER in the report and in the command.
    mt = ["-m", "bleu", "chrf", "ter"]
    code, out, _ = run([*files, test, *n, *mt, "-f", "json"], capsys)
    assert code == 0
    expected = json.loads(out)
    page_path = tmp_path / "r.html"
    assert run(["report", *files, test, *n, *mt, "-o", str(page_path)], capsys)[0] == 0
    cells = table_cells(page_path.read_text(encoding="utf-8"))
    assert [c["data-metric"] for c in cells] == ["BLEU", "chrF2", "TER"] * 3
    for i, cell in enumerate(cells):
        want = expected[i // 3][cell["data-metric"]]
        assert float(cell["data-value"]) == want["score"]
        assert (float(cell["data-p"]) if "data-p" in cell else None) == want["p_value"]
        if test == "-pbs":
            # chrF's and TER's means and intervals are float32 (as sacreBLEU's): the page
            # writes the float32's shortest repr, the JSON its exact float64 value.
            cast = float if cell["data-metric"] == "BLEU" else np.float32
            assert cast(cell["data-mean"]) == cast(want["mean"])
            assert cast(cell["data-ci"]) == cast(want["ci"])
        else:  # -par prints no interval; the report adds one (same p-values)
            assert "data-ci" in cell


def test_one_system_equals_confidence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    systems, refs, _ = synthetic(1, 60)
    files = write(tmp_path, systems, refs)
    ci = ["-ci", "-cin", "200", "-m", "bleu", "chrf", "ter", "-f", "json"]
    code, out, _ = run([*files, *ci], capsys)
    assert code == 0
    expected = {e["name"]: e for e in json.loads(out)}
    page_path = tmp_path / "r.html"
    mt = ["-m", "bleu", "chrf", "ter"]
    assert run(["report", *files, "-cin", "200", *mt, "-o", str(page_path)], capsys)[0] == 0
    cells = table_cells(page_path.read_text(encoding="utf-8"))
    assert [c["data-metric"] for c in cells] == list(expected) == ["BLEU", "chrF2", "TER"]
    for cell in cells:
        want = expected[cell["data-metric"]]
        assert round(float(cell["data-value"]), 1) == want["score"]
        assert round(float(cell["data-mean"]), 1) == want["confidence_mean"]
        assert round(float(cell["data-ci"]), 1) == want["confidence_var"]


def test_several_references_with_source_and_metric_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # WMT22 en-zh: two references and the English source (shipped in tests/data too).
    real = real_subset(WMT22_EN_ZH, 120, systems=3)
    systems, refs, sources = real if real is not None else synthetic(3, 120, n_refs=2)
    assert sources is not None and len(refs) == 2 and len(systems) >= 2
    files = write(tmp_path, systems, refs, sources)
    out_path = tmp_path / "r.html"
    argv = [
        "report",
        *files,
        "-l",
        "en-zh",
        "-lc",
        "-pbsn",
        "50",
        "--segments",
        "5",
        "-o",
        str(out_path),
    ]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    page = out_path.read_text(encoding="utf-8")
    assert "wrote" in err and f"{len(systems)} systems" in err
    assert "case:lc" in page and "nrefs:2" in page
    assert page.count('class="seg"') == 5
    assert page.count('<tr class="src">') == 5 and page.count("Reference 2</th>") == 5
    assert "rapidbleu report " in page  # the command line in the footer


def test_baseline_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    systems, refs, _ = synthetic(3, 30)
    files = write(tmp_path, systems, refs)
    out_path = tmp_path / "r.html"
    assert (
        run(
            ["report", *files, "--baseline", "sys3.txt", "-pbsn", "20", "-o", str(out_path)], capsys
        )[0]
        == 0
    )
    page = out_path.read_text(encoding="utf-8")
    assert "baseline: <strong>sys3.txt</strong>" in page
    code, _, err = run(["report", *files, "--baseline", "nope", "-o", str(out_path)], capsys)
    assert code == 2 and "--baseline 'nope' names no system" in err


def test_jsonl_items_with_several_candidates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    systems, refs, sources = synthetic(2, 25, n_refs=2)
    items = tmp_path / "items.jsonl"
    with open(items, "w", encoding="utf-8") as f:
        for i in range(25):
            item_refs = [refs[0][i]] if i % 3 else [refs[0][i], refs[1][i]]
            obj = {
                "id": i,
                "src": sources[i],
                "references": item_refs,
                "model_a": systems[0][1][i],
                "model_b": NASTY[i % len(NASTY)],
            }
            f.write(json.dumps(obj) + "\n")
    out_path = tmp_path / "r.html"
    argv = ["report", "--jsonl", str(items), "--candidates", "model_a", "model_b", "-pbsn", "30"]
    code, _, err = run([*argv, "-o", str(out_path)], capsys)
    assert code == 0, err
    page = out_path.read_text(encoding="utf-8")
    assert "model_a" in page and "model_b" in page and "nrefs:var" in page
    assert '<tr class="src">' in page
    assert "<script>window.__xss" not in page
    code, _, err = run(["report", "--jsonl", str(items), "-o", str(out_path)], capsys)
    assert code == 1 and "--candidates" in err


def test_jsonl_references_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--references-field`` names the references of ``--jsonl`` items, as for scoring."""
    items = tmp_path / "items.jsonl"
    rows = [{"a": f"w{i} x y z", "b": f"w{i} x q z", "target": f"w{i} x y z"} for i in range(9)]
    items.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out_path = tmp_path / "r.html"
    argv = ["report", "--jsonl", str(items), "--candidates", "a", "b", "-o", str(out_path)]
    code, _, err = run([*argv, "--references-field", "target", "-pbsn", "20"], capsys)
    assert code == 0, err
    assert "100.0" in out_path.read_text(encoding="utf-8")
    code, _, err = run([*argv, "--references-field", "nope"], capsys)
    assert code == 1 and "'nope'" in err and "--references-field" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "ref", "-i", "a"], "needs -o FILE"),
        (["report", "ref", "-i", "a", "-o", "x.html", "-sl"], "drop -sl"),
        (["report", "ref", "-i", "a", "-o", "x.html", "--candidates", "x"], "give --jsonl"),
        (["report", "ref", "-i", "a", "-o", "x.html", "--segments", "0"], "--segments must be"),
        (["ref", "-i", "a", "-f", "card", "-sl"], "drop -sl"),
    ],
)
def test_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2 and message in err


def test_missing_extra_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    systems, refs, _ = synthetic(1, 5)
    files = write(tmp_path, systems, refs)
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # import vl_convert -> ImportError
    code, _, err = run(["report", *files, "-o", str(tmp_path / "r.html")], capsys)
    assert code == 1
    assert 'pip install ".[report]"' in err and "vl-convert-python" in err
    assert not (tmp_path / "r.html").exists()


def test_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    systems, refs, _ = synthetic(1, 5)
    files = write(tmp_path, systems, refs)
    code, _, err = run(["report", *files, "-o", str(tmp_path / "no" / "r.html")], capsys)
    assert code == 1 and "cannot write the report" in err


def test_card_of_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    systems, refs, _ = synthetic(2, 30, n_refs=2)
    files = write(tmp_path, systems, refs)
    one = files[:4]  # two references, -i, the first system
    code, out, _ = run(
        [*one, "-f", "card", "-l", "en-de", "-tok", "intl", "--notes", "NFKC"], capsys
    )
    assert code == 0
    assert out.startswith("## Evaluation card: BLEU\n")
    for expected in (
        "sys1.txt | ",
        "- **Test set:** 30 segments, language pair en-de.",
        "- **References:** 2 streams: ",
        "- Tokenizer: intl (mteval-v14 international)",
        "- Case: mixed (case-sensitive)",
        "- Smoothing: exp (sacreBLEU's default)",
        "- References per segment: 2",
        "- Notes: NFKC",
        "rapidbleu " + " ".join(one),
    ):
        assert expected in out, expected
    # The paired test's card: p-values, the test, and the seed in the signature.
    code, out, _ = run([*files, "-pbs", "-pbsn", "50", "-f", "card"], capsys)
    assert code == 0
    assert "Baseline: " in out and "paired bootstrap resampling (50 resamples)" in out
    assert "- Random seed: 12345" in out and "p = " in out
    # -ci: the interval.
    code, out, _ = run([*one, "-ci", "-cin", "50", "-f", "card"], capsys)
    assert code == 0 and "μ " in out and "bootstrap resampling" in out


def test_card_covers_every_metric(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_metric_seam import UnigramF1

    systems, refs, _ = synthetic(1, 20)
    files = write(tmp_path, systems, refs)
    # The toy metric is registered for the command (-m unif1) while this test runs.
    with registered(UnigramF1):
        argv = [*files, "-m", "bleu", "unif1", "--unif1-lowercase", "-f", "card"]
        code, out, _ = run(argv, capsys)
    assert code == 0
    assert "## Evaluation card: BLEU, UniF1" in out
    assert "### UniF1" in out and "- Case: lowercased (case-insensitive)" in out


def test_installed_script_writes_a_report(tmp_path: Path) -> None:
    systems, refs, _ = synthetic(2, 20)
    files = write(tmp_path, systems, refs)
    exe = BIN / "rapidbleu"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "rapidbleu"]
    res = subprocess.run(
        [*cmd, "report", *files, "-pbsn", "20", "-o", str(tmp_path / "r.html")],
        capture_output=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
