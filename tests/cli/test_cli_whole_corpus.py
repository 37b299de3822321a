"""``whole_corpus`` and the metrics' options: what the significance tests are handed.

``rapidbleu.cli.paired.run_paired(args, systems, references, metrics, out)`` resamples
whole corpora, so the command gives it every line in memory. These tests check that the lines
are exactly those sacreBLEU's ``main`` reads (``smart_open`` + ``rstrip`` for files, tab columns
of stdin) and that the metric options build the same metric in sacreBLEU and rapidbleu.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.utils import smart_open

import rapidbleu
from rapidbleu.cli.args import metric_kwargs, parse_args
from rapidbleu.cli.scoring import make_metrics, whole_corpus
from rapidbleu.errors import EmptyInputError, LengthMismatchError

REFS = ["wmt22.en-de/ref.A.de", "wmt22.en-de/ref.B.de"]
HYPS = ["wmt22.en-de/hyp.PROMT.de", "wmt22.en-de/hyp.Online-B.de", "wmt22.en-de/hyp.PROMT.de"]


def _sacrebleu_lines(path: Path) -> list[str]:
    # sacreBLEU's main: `for line in smart_open(fname, encoding=...): lines.append(line.rstrip())`
    return [line.rstrip() for line in smart_open(str(path))]


@pytest.mark.parametrize(
    "options",
    [[], ["-lc", "-tok", "intl"], ["-s", "floor", "-sv", "0.2", "--force"], ["-l", "en-zh"]],
    ids=["default", "lc-intl", "floor", "zh"],
)
def test_files_and_options_as_sacrebleu(
    options: list[str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(data_dir)
    args = parse_args([*REFS, "-i", *HYPS, *options])
    systems, refs = whole_corpus(args, io.BytesIO())
    # A file given twice is kept twice (the paired test skips a repeat of its baseline).
    assert [name for name, _ in systems] == HYPS
    assert refs == [_sacrebleu_lines(data_dir / r) for r in REFS]
    # sacreBLEU's main: args_to_dict(args, "bleu") plus the target language of -l.
    # (--spm-model is rapidbleu's own option: sacreBLEU's BLEU has no spm_model.)
    kwargs = {k: v for k, v in metric_kwargs(args, "bleu").items() if k != "spm_model"}
    oracle = sacrebleu.BLEU(**kwargs, trg_lang=args.trg_lang)
    ours = make_metrics(args)["bleu"]
    assert isinstance(ours, rapidbleu.BLEU)
    for (name, lines), path in zip(systems, HYPS):
        assert lines == _sacrebleu_lines(data_dir / path)
        expected = oracle.corpus_score(lines, refs)
        got = ours.corpus_score(lines, refs)
        assert (got.score, got.counts, got.totals) == (
            expected.score,
            expected.counts,
            expected.totals,
        ), name
    sig_ours, sig_oracle = ours.get_signature().info, oracle.get_signature().info
    assert {**sig_ours, "version": ""} == {**sig_oracle, "version": ""}


def _sacrebleu_stdin(data: bytes) -> list[list[str]]:
    # sacreBLEU's main reading tab-separated systems from stdin (universal newlines).
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    first = stream.readline().rstrip().split("\t")
    systems = [[s] for s in first]
    for line in stream:
        for out, sent in zip(systems, line.rstrip().split("\t")):
            out.append(sent.rstrip())
    return systems


_FIELD = st.text(st.characters(exclude_characters="\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"))


@settings(max_examples=50, deadline=None)
@given(
    rows=st.integers(1, 6).flatmap(
        lambda n: st.lists(st.lists(_FIELD, min_size=n, max_size=n), min_size=1, max_size=6)
    ),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_stdin_columns_as_sacrebleu(
    rows: list[list[str]], newline: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    ref = tmp_path_factory.mktemp("ref") / "ref.txt"
    ref.write_bytes(b"r\n" * len(rows))
    # The last field ends in a letter: sacreBLEU rstrips a line before splitting it, so a
    # blank last field would vanish (a column-count error in both tools, tested elsewhere).
    data = "".join("\t".join([*r[:-1], r[-1] + "x"]) + newline for r in rows).encode("utf-8")
    systems, refs = whole_corpus(parse_args([str(ref)]), io.BytesIO(data))
    expected = _sacrebleu_stdin(data)
    assert [lines for _, lines in systems] == expected
    assert [name for name, _ in systems] == [f"System {i + 1}" for i in range(len(expected))]
    assert refs == [["r"] * len(rows)]


def test_errors(tmp_path: Path) -> None:
    ref = tmp_path / "ref"
    ref.write_text("a\nb\n", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(EmptyInputError, match="no lines"):
        whole_corpus(parse_args([str(empty), "-i", str(empty)]), io.BytesIO())
    with pytest.raises(LengthMismatchError, match=r"has 2 lines.*has 1 line"):
        whole_corpus(parse_args([str(ref)]), io.BytesIO(b"x\n"))
