"""``TER.sentence_score`` of a str in one core totals call: sacreBLEU's values, types and nrefs."""

from __future__ import annotations

import sacrebleu

from rapidbleu.metrics import TER


def test_ter_sentence_score_sets_nrefs() -> None:
    ours, theirs = TER(), sacrebleu.TER()
    for refs in (["a b c"], ["a b c", "a b d"]):
        a, b = ours.sentence_score("a b", refs), theirs.sentence_score("a b", refs)
        assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
        assert [type(x) for x in (a.score, a.num_edits, a.ref_length)] == [
            type(x) for x in (b.score, b.num_edits, b.ref_length)
        ]
        assert (
            ours.get_signature().format().split("|version")[0]
            == (theirs.get_signature().format().split("|version")[0])
        )
