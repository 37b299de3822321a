"""The Metric seam: a toy metric written in this file alone works everywhere above the seam.

``UnigramF1`` follows docs/architecture.md's "Adding a metric" (a layout, ``_statistics`` and
``score_totals``; nothing else in rapidbleu changes). The same metric written on sacreBLEU's
own ``Metric`` template is the oracle: corpus and sentence scores, sacreBLEU's paired bootstrap
and approximate randomisation (same draws, same float32 arithmetic), and confidence intervals
must be equal with ``==``. Then per-item scoring, the command (streamed in chunks, one system
and a table of several, next to BLEU; ``--jsonl`` corpus and per-item; a paired test) and
pairwise matrices are checked on it. The toy reaches the command by one call,
``registered(UnigramF1)`` (:mod:`rapidbleu.metrics.registry`), and is nowhere (``--help``,
``-m``, the registry) without it: defining a subclass registers nothing.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.base import Metric as SacreMetric
from sacrebleu.metrics.base import Score as SacreScore
from sacrebleu.metrics.base import Signature as SacreSignature
from sacrebleu.significance import PairedTest as SacrePairedTest

import rapidbleu
from rapidbleu.analysis.pairwise import mbr_select, pairwise_scores
from rapidbleu.analysis.significance import PairedTest
from rapidbleu.cli import scoring
from rapidbleu.cli.main import main as cli_main
from rapidbleu.items import score_each_item, score_items
from rapidbleu.metrics import Metric, RowLayout, Score, Signature
from rapidbleu.metrics.options import CliOption
from rapidbleu.metrics.registry import metric_names, registered


def _segment_row(hyp: str, refs: Sequence[str | None], lowercase: bool) -> list[int]:
    """``[matches, hyp_len, ref_len]`` of the best reference (highest F1, first on ties)."""
    if lowercase:
        hyp = hyp.lower()
    h = Counter(hyp.split())
    best: list[int] | None = None
    best_f = -1.0
    for ref in refs:
        if ref is None:
            continue
        r = Counter((ref.lower() if lowercase else ref).split())
        m = sum(min(c, r[t]) for t, c in h.items())
        row = [m, sum(h.values()), sum(r.values())]
        f = _f1(row)
        if f > best_f:
            best, best_f = row, f
    assert best is not None
    return best


def _f1(totals: Any) -> Any:
    m, hl, rl = totals[0], totals[1], totals[2]
    return 100 * 2 * m / (hl + rl) if hl + rl > 0 else 0.0


class UnigramF1Signature(Signature):
    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c"})
        self.info.update({"case": "lc" if args["lowercase"] else "mixed"})


class UnigramF1(Metric):
    """Unigram F1 (rows ``[matches, hyp_len, ref_len]`` add): the toy of the walkthrough."""

    # On the command line (-m unif1) only while a test registers it (`_run`), so other tests'
    # --help and metric lists are not changed by this file.
    cli_name = "unif1"
    _SIGNATURE_TYPE = UnigramF1Signature
    CLI_OPTIONS = (CliOption(("--unif1-lowercase",), "lowercase", bool, False, "lowercase"),)

    def __init__(self, lowercase: bool = False, references: Any = None) -> None:
        super().__init__()
        self.lowercase = lowercase
        if references is not None:
            self.cache_references(references)

    @property
    def layout(self) -> RowLayout:
        return RowLayout(("matches", "hyp_len", "ref_len"))

    def _statistics(self, hypotheses: Sequence[Any], references: Any, per_segment: bool) -> Any:
        refs_of = references if per_segment else list(zip(*references))
        self.num_refs = len(refs_of[0]) if refs_of else 0
        rows = [_segment_row(h, r, self.lowercase) for h, r in zip(hypotheses, refs_of)]
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def score_totals(self, totals: Any) -> Score:
        return Score("UniF1", _f1(totals))


class SacreUnigramF1(SacreMetric):
    """The same metric on sacreBLEU's own template: the oracle."""

    _SIGNATURE_TYPE = SacreSignature

    def __init__(self, lowercase: bool = False, references: Any = None) -> None:
        super().__init__()
        self.lowercase = lowercase
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _preprocess_segment(self, sent: str) -> str:
        return sent

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        return {"refs": list(refs)}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> Any:
        return _segment_row(hypothesis, ref_kwargs["refs"], self.lowercase)

    def _compute_score_from_stats(self, stats: Any) -> SacreScore:
        return SacreScore("UniF1", _f1(stats))

    def _aggregate_and_compute(self, stats: Any) -> SacreScore:
        return self._compute_score_from_stats(sacrebleu.utils.sum_of_lists(stats))


def _corpus(n: int = 60, seed: int = 0) -> tuple[list[list[str]], list[list[str]]]:
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(30)] + ["The", "the", "A"]
    refs = [" ".join(rng.choice(vocab, rng.integers(3, 12))) for _ in range(n)]
    systems = []
    for _ in range(3):
        systems.append(
            [
                " ".join(t if rng.random() > 0.3 else rng.choice(vocab) for t in r.split())
                for r in refs
            ]
        )
    return systems, [refs, [r.upper() for r in refs]]


def test_scores_equal_the_sacrebleu_template() -> None:
    systems, refs = _corpus()
    for lowercase in (False, True):
        ours, theirs = UnigramF1(lowercase), SacreUnigramF1(lowercase)
        assert (
            ours.corpus_score(systems[0], refs).score == theirs.corpus_score(systems[0], refs).score
        )
        for h, *rs in zip(systems[1], *refs):
            assert ours.sentence_score(h, rs).score == theirs.sentence_score(h, rs).score
        np.testing.assert_array_equal(
            ours.sentence_scores(systems[1], refs),
            [theirs.sentence_score(h, list(rs)).score for h, *rs in zip(systems[1], *refs)],
        )


def test_confidence_interval_equals_sacrebleu() -> None:
    systems, refs = _corpus()
    ours = UnigramF1().corpus_score(systems[0], refs, n_bootstrap=300)
    theirs = SacreUnigramF1().corpus_score(systems[0], refs, n_bootstrap=300)
    assert (ours.score, ours._mean, ours._ci) == (theirs.score, theirs._mean, theirs._ci)
    assert ours.format(width=4) == theirs.format(width=4)


@pytest.mark.parametrize("test_type,n", [("bs", 200), ("ar", 300)])
def test_paired_tests_equal_sacrebleu(test_type: str, n: int) -> None:
    systems, refs = _corpus()
    named = [(f"s{i}", s) for i, s in enumerate(systems)]
    _, ours = PairedTest(named, {"UniF1": UnigramF1(references=refs)}, None, test_type, n)()
    _, theirs = SacrePairedTest(
        named, {"UniF1": SacreUnigramF1(references=refs)}, None, test_type, n
    )()
    assert [r.__dict__ for r in ours["UniF1"]] == [r.__dict__ for r in theirs["UniF1"]]


def test_per_item_scoring() -> None:
    systems, refs = _corpus(20)
    items = [(h, [r1, r2]) for h, r1, r2 in zip(systems[0], *refs)]
    metric = UnigramF1()
    assert score_items(items, metric).score == metric.corpus_score(systems[0], refs).score
    np.testing.assert_array_equal(
        score_each_item(items, metric), metric.sentence_scores(systems[0], refs)
    )


def test_pairwise_and_mbr() -> None:
    systems, _ = _corpus(5)
    hyps = [s[0] for s in systems] + [systems[0][0]]
    (matrix,) = pairwise_scores([hyps], metric=UnigramF1())
    oracle = SacreUnigramF1()
    expected = [[oracle.sentence_score(h, [r]).score for r in hyps] for h in hyps]
    np.testing.assert_array_equal(matrix, expected)
    assert mbr_select([hyps], metric=UnigramF1())[0] == int(np.argmax(matrix.mean(axis=1)))


def _files(tmp_path: Path) -> tuple[list[list[str]], list[list[str]]]:
    systems, refs = _corpus(45)
    (tmp_path / "ref").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    for i, s in enumerate(systems):
        (tmp_path / f"sys{i}").write_text("\n".join(s) + "\n", encoding="utf-8")
    return systems, refs


def _run(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The command's output, with the toy registered (one call) for this run only."""
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    with registered(UnigramF1):
        assert cli_main(argv, stdin=io.BytesIO()) == 0
    return out.getvalue()


def _help(monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    with pytest.raises(SystemExit):
        cli_main(["--help"])
    return out.getvalue()


def test_unregistered_toy_is_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defining a Metric subclass registers nothing; one call does, and the with-block undoes it."""
    builtin = metric_names()  # the registry's built-in metrics
    assert "unif1" not in builtin
    assert "unif1" not in _help(monkeypatch)
    _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert cli_main(["ref", "-i", "sys0", "-m", "unif1"], stdin=io.BytesIO()) == 2
    assert f"invalid choice 'unif1'; allowed: {', '.join(builtin)}" in capsys.readouterr().err
    with registered(UnigramF1):
        assert metric_names() == [*builtin, "unif1"]
        text = " ".join(_help(monkeypatch).split())  # argparse wraps the list of names
        assert ", ".join([*builtin, "unif1"]) in text and "--unif1-lowercase" in text
    assert "unif1" not in metric_names() and "--unif1-lowercase" not in _help(monkeypatch)


def test_command_streams_the_toy_metric(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    systems, refs = _files(tmp_path)
    whole = _run(
        ["ref", "-i", "sys0", "-m", "unif1", "-f", "text", "-w", "6"], tmp_path, monkeypatch
    )
    expected = UnigramF1().corpus_score(systems[0], refs[:1])
    assert whole.startswith(f"UniF1|nrefs:1|case:mixed|version:{rapidbleu.SIGNATURE_VERSION} = ")
    assert whole.endswith(f" = {expected.score:.6f}\n")
    monkeypatch.setattr(scoring, "CHUNK_LINES", 7)
    assert (
        _run(["ref", "-i", "sys0", "-m", "unif1", "-f", "text", "-w", "6"], tmp_path, monkeypatch)
        == whole
    )
    lowered = _run(
        ["ref", "-i", "sys0", "-m", "unif1", "--unif1-lowercase", "-f", "text"],
        tmp_path,
        monkeypatch,
    )
    assert "case:lc" in lowered


class LowerBLEU(rapidbleu.BLEU):
    """A metric reusing its parent's command-line options (as spBLEU would: ``SPBLEU(BLEU)``)."""

    cli_name = "lowerbleu"


def test_a_subclass_shares_its_parents_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rapidbleu.cli.args import metric_kwargs, parse_args

    systems, refs = _files(tmp_path)
    with registered(LowerBLEU):
        # One flag, one value, read by both metrics (no "conflicting option string").
        args = parse_args(["ref", "-m", "bleu", "lowerbleu", "-lc", "-tok", "intl"])
        assert metric_kwargs(args, "lowerbleu") == metric_kwargs(args, "bleu")
        assert metric_kwargs(args, "bleu")["lowercase"] is True
        text = _run(
            ["ref", "-i", "sys0", "-m", "lowerbleu", "-lc", "-f", "json"], tmp_path, monkeypatch
        )
    score = json.loads(text)
    want = rapidbleu.BLEU(lowercase=True).corpus_score(systems[0], refs[:1]).score
    assert (score["score"], score["case"]) == (round(want, 1), "lc")


def test_command_table_with_bleu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    systems, refs = _files(tmp_path)
    text = _run(
        ["ref", "-i", "sys0", "sys1", "sys2", "-m", "unif1", "bleu", "-f", "text"],
        tmp_path,
        monkeypatch,
    )
    header = text.splitlines()[1]
    assert "BLEU" in header and "UniF1" in header
    for s in systems:
        assert f"{UnigramF1().corpus_score(s, refs[:1]).score:.1f}" in text
        assert f"{rapidbleu.BLEU().corpus_score(s, refs[:1]).score:.1f}" in text
    assert " - UniF1      nrefs:1|case:mixed|version:" in text


def test_command_paired_test_on_the_toy_metric(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    systems, refs = _files(tmp_path)
    text = _run(
        ["ref", "-i", "sys0", "sys1", "-m", "unif1", "-pbs", "-pbsn", "100", "-f", "json"],
        tmp_path,
        monkeypatch,
    )
    named = [("Baseline: sys0", systems[0]), ("sys1", systems[1])]
    _, theirs = SacrePairedTest(
        named, {"UniF1": SacreUnigramF1(references=refs[:1])}, None, "bs", 100
    )()
    assert f'"p_value": {theirs["UniF1"][1].p_value}' in text


def _jsonl(tmp_path: Path, n: int = 30) -> tuple[list[str], list[list[str]]]:
    systems, refs = _corpus(n)
    items = [
        {"id": i, "prediction": h, "references": [r1, r2]}
        for i, (h, r1, r2) in enumerate(zip(systems[0], *refs))
    ]
    text = "".join(json.dumps(item) + "\n" for item in items)
    (tmp_path / "items.jsonl").write_text(text, encoding="utf-8")
    return systems[0], refs


def test_command_jsonl_corpus_and_per_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hyps, refs = _jsonl(tmp_path)
    metric = UnigramF1()
    corpus = json.loads(_run(["--jsonl", "items.jsonl", "-m", "unif1"], tmp_path, monkeypatch))
    assert corpus["unif1"] == metric.corpus_score(hyps, refs).score / 100
    assert corpus["signature"].startswith("nrefs:2|case:mixed|version:")
    assert corpus["scale"] == "unit"
    lines = _run(
        ["--jsonl", "items.jsonl", "-m", "unif1", "--per-item"], tmp_path, monkeypatch
    ).splitlines()
    expected = (metric.sentence_scores(hyps, refs) / 100).tolist()
    assert [json.loads(line) for line in lines] == [
        {"id": i, "unif1": s} for i, s in enumerate(expected)
    ]


def test_report_shows_the_registered_toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rapidbleu report`` without -m shows every registered metric, the toy included."""
    systems, refs = _files(tmp_path)
    argv = ["report", "ref", "-i", "sys0", "sys1", "-pbsn", "20", "-cin", "20", "-o", "r.html"]
    _run(argv, tmp_path, monkeypatch)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    for name in ("BLEU", "chrF2", "TER", "UniF1"):
        assert name in page
    score = float(UnigramF1().corpus_score(systems[0], refs[:1]).score)
    assert f'UniF1" data-sort="{score!r}" data-value="{score!r}"' in page


def test_register_refuses_what_it_cannot_list() -> None:
    from rapidbleu.errors import InvalidOptionError
    from rapidbleu.metrics.registry import metric_class, register, unregister

    class Nameless(UnigramF1):
        cli_name = ""

    class Other(UnigramF1):  # another class under a taken name
        cli_name = "bleu"

    for cls, fragment in [
        (Nameless, "must be a lowercase name"),
        (Other, "'bleu' is taken by rapidbleu.metrics.bleu.metric.BLEU"),
        (int, "register takes a Metric subclass"),
    ]:
        with pytest.raises(InvalidOptionError, match=fragment):
            register(cls)  # type: ignore[type-var]
    with pytest.raises(InvalidOptionError, match="unknown metric 'unif1'; registered: bleu, chrf"):
        metric_class("unif1")
    assert register(UnigramF1) is UnigramF1 and metric_class("unif1") is UnigramF1
    with registered(UnigramF1):  # already there: stays after the block
        pass
    assert "unif1" in metric_names()
    unregister("unif1")
    assert "unif1" not in metric_names() and metric_names()[:2] == ["bleu", "chrf"]
