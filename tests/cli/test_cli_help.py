"""The help texts tell the truth, and printed numbers have useful widths.

- ``rapidbleu --help`` names ``rapidbleu report``; ``rapidbleu report --help`` lists only the
  options the report uses, with its real defaults, and refuses the others.
- Without ``-w``: 1 decimal on sacreBLEU's 0..100 scale, 4 on the 0..1 scale (``--scale unit``,
  the default with ``--jsonl``), for ``-f text``, ``-b`` and ``--per-item -f text``; JSON of
  ``--jsonl`` keeps full precision.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rapidbleu.cli import main
from rapidbleu.cli.args import DEFAULT_WIDTH, build_parser, parse_args
from rapidbleu.cli.report import build_report_parser, parse_report_args
from rapidbleu.errors import UsageError
from rapidbleu.metrics.registry import metric_classes, metric_names

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OUTPUTS = str(EXAMPLES / "outputs.jsonl")
FIELDS = ["--candidate-field", "output", "--references-field", "target"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv, stdin=io.BytesIO())
    out, err = capsys.readouterr()
    return code, out, err


def test_command_help_names_the_report() -> None:
    text = build_parser().format_help()
    assert "report" in text.splitlines()[0]  # the usage line
    assert "rapidbleu report ref.de" in text
    assert "default 1; 4 on the 0..1 scale" in text


def test_report_help_lists_what_the_report_uses() -> None:
    text = build_report_parser().format_help()
    for absent in ("--format", "--width", "--score-only", "--scale", "--sentence-level"):
        assert absent not in text, absent
    for absent in ("--confidence ", "--paired-jobs", "--no-color", "--per-item", "--short"):
        assert absent not in text, absent
    for present in ("--output", "--baseline", "--candidates", "-pbsn", "-cin", "-tok", "-t TEST"):
        assert present in text, present
    # The report's default metrics are the registered ones made for it (sacreBLEU's: ROUGE is
    # asked for by name), and every registered one may be asked for.
    reported = [n for n, cls in metric_classes().items() if cls.in_default_report]
    assert reported == ["bleu", "chrf", "ter"]
    assert f"(default: {' '.join(reported)})" in " ".join(text.split())
    assert f"metrics to compute: {', '.join(metric_names())}" in " ".join(text.split())
    assert "paired bootstrap (the default)" in text


@pytest.mark.parametrize("option", ["-f", "-w", "-b", "--scale", "-ci", "-j", "-nc"])
def test_report_refuses_options_it_does_not_use(option: str) -> None:
    value = {"-f": ["text"], "-w": ["2"], "--scale": ["unit"], "-j": ["2"]}.get(option, [])
    with pytest.raises(UsageError):
        parse_report_args(["ref", "-i", "a", "-o", "r.html", option, *value])


def test_report_defaults() -> None:
    args = parse_report_args(["ref", "-i", "a", "b", "-o", "r.html"])
    assert args.metrics == ["bleu", "chrf", "ter"]  # sacreBLEU's metrics; ROUGE by name
    assert args.paired_bs_n == 1000 and args.confidence_n == 1000 and args.segments == 200
    # The options it leaves out get the command's values, so shared code reads them alike.
    assert args.format == "json" and args.scale == "percent" and not args.sentence_level


def test_default_widths() -> None:
    assert DEFAULT_WIDTH == {"percent": 1, "unit": 4}
    assert parse_args(["ref"]).width == 1
    assert parse_args(["ref", "--scale", "unit"]).width == 4
    assert parse_args(["--jsonl", "x"]).width == 4
    assert parse_args(["--jsonl", "x", "--scale", "percent"]).width == 1
    assert parse_args(["--jsonl", "x", "-w", "2"]).width == 2


def test_jsonl_text_and_score_only_print_four_decimals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(["--jsonl", OUTPUTS, *FIELDS, "-b"], capsys)
    assert code == 0 and out == "0.5478\n"
    code, out, _ = run(["--jsonl", OUTPUTS, *FIELDS, "-f", "text"], capsys)
    assert code == 0 and " = 0.5478 " in out
    code, out, _ = run(["--jsonl", OUTPUTS, *FIELDS, "-b", "-w", "2"], capsys)
    assert code == 0 and out == "0.55\n"
    code, out, _ = run(["--jsonl", OUTPUTS, *FIELDS, "-b", "--scale", "percent"], capsys)
    assert code == 0 and out == "54.8\n"
    code, out, _ = run(["--jsonl", OUTPUTS, *FIELDS, "--per-item", "-b"], capsys)
    assert code == 0 and all(len(v.split(".")[1]) == 4 for v in out.split())


def test_jsonl_json_keeps_full_precision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--jsonl", OUTPUTS, *FIELDS], capsys)
    assert code == 0
    bleu = json.loads(out)["bleu"]
    assert bleu != round(bleu, 4) and round(bleu, 4) == 0.5478


def test_files_on_the_unit_scale(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(EXAMPLES / "ref.en"), "-i", str(EXAMPLES / "hyp.en")]
    code, out, _ = run([*files, "-b"], capsys)
    assert code == 0 and len(out.strip().split(".")[1]) == 1  # sacreBLEU's 1 decimal
    code, out, _ = run([*files, "-b", "--scale", "unit"], capsys)
    assert code == 0 and len(out.strip().split(".")[1]) == 4
