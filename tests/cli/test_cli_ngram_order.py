"""``--max-ngram-order N``: rapidbleu's own option, checked against sacreBLEU's API.

The ``sacrebleu`` command has no option for the n-gram order, but its ``BLEU`` class takes
``max_ngram_order``; the command's output with ``--max-ngram-order N`` must be what sacreBLEU's
``main`` would print with that metric (``sacrebleu/sacrebleu.py``: ``Score.format`` of the
corpus score, or one line per segment with effective order for ``--sentence-level``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from clitools import DE2, ours
from conftest import strip_version


def _lines(path: Path) -> list[str]:
    # sacreBLEU's main: smart_open, then rstrip every line.
    return [line.rstrip() for line in sacrebleu.utils.smart_open(str(path))]


@pytest.mark.parametrize("order", [1, 2, 6])
@pytest.mark.parametrize("extra", [[], ["-f", "text", "-w", "4"], ["-sh", "-f", "text", "-lc"]])
def test_corpus(
    order: int, extra: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = ours([*DE2, "--max-ngram-order", str(order), *extra], data_dir, capsys)
    assert rc == 0, err
    refs = [_lines(data_dir / p) for p in DE2[:2]]
    hyps = _lines(data_dir / DE2[3])
    metric = sacrebleu.BLEU(max_ngram_order=order, lowercase="-lc" in extra)
    score = metric.corpus_score(hyps, refs)
    is_json = "-f" not in extra
    width = int(extra[extra.index("-w") + 1]) if "-w" in extra else 1
    sig = metric.get_signature().format(False if is_json else "-sh" in extra)
    assert strip_version(out) == score.format(width, False, sig, is_json) + "\n"


@pytest.mark.parametrize("order", [6])
def test_sentence_level(order: int, data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = ours([*DE2, "--max-ngram-order", str(order), "-sl", "-w", "3"], data_dir, capsys)
    assert rc == 0, err
    refs = [_lines(data_dir / p) for p in DE2[:2]]
    hyps = _lines(data_dir / DE2[3])
    metric = sacrebleu.BLEU(max_ngram_order=order, effective_order=True)
    expected = []
    for hyp, *seg_refs in zip(hyps, *refs):
        score = metric.sentence_score(hyp, seg_refs)
        expected.append(score.format(3, False, metric.get_signature().format(False)))
    assert strip_version(out).splitlines() == expected
