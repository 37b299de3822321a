//! The metric trait's promises on any input, for the property tests: rows add (totals folded
//! chunk by chunk equal the whole corpus's, and the corpus score is the score of the summed
//! rows), and neither the thread count nor the split into systems changes a row.

use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::metric::Metric;

/// The corpus of `hyps` against `refs` (one list of references per segment).
pub fn corpus<'a>(hyps: &'a [String], refs: &'a [Vec<String>]) -> Corpus<&'a str> {
    let h = hyps.iter().map(String::as_str).collect();
    let r: Groups<&str> = refs
        .iter()
        .map(|g| g.iter().map(String::as_str).collect::<Vec<_>>())
        .collect();
    Corpus::new(h, r).expect("a reference list per segment")
}

/// Checks the promises for `m` on `hyps` against `refs`, folding rows `chunk` segments at a
/// time. Input the metric refuses (a segment too long to count) is no case.
pub fn rows_add<M: Metric>(m: &M, hyps: &[String], refs: &[Vec<String>], chunk: usize)
where
    M::Totals: PartialEq + std::fmt::Debug,
{
    let c = corpus(hyps, refs);
    let w = m.row_len();
    let Ok(rows) = m.corpus_stats(&c, Threads::ONE) else {
        return;
    };
    assert_eq!(rows.len(), hyps.len() * w);
    // Threads change no row.
    let four = Threads::new(4).expect("4 threads");
    assert_eq!(m.corpus_stats(&c, four).expect("rows"), rows);
    // Each row is the segment's statistics on its own.
    for i in 0..hyps.len() {
        let mut row = vec![0; w];
        m.segment_stats(c.hyp(i), c.refs(i), &mut row)
            .expect("a row");
        assert_eq!(row, rows[i * w..(i + 1) * w], "segment {i}");
    }
    // Rows add: folded chunk by chunk, in order, they give the corpus totals.
    let whole = m.totals(&rows).expect("totals");
    let mut folded = m.zero_totals();
    for part in rows.chunks(chunk.max(1) * w) {
        m.add_rows(&mut folded, part).expect("add");
    }
    assert_eq!(folded, whole);
    assert_eq!(m.corpus_totals(&rows, four).expect("totals"), whole);
    let score = m.corpus_score(&rows).expect("score");
    assert!(score.to_bits() == m.score(&whole).to_bits() || score.is_nan());
    // Sentence scores are the scores of the rows, whatever the threads.
    let sentences = m.sentence_scores(&c, four).expect("sentence scores");
    let scored = m.score_rows(&rows).expect("row scores");
    assert_eq!(
        sentences.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        scored.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    // The chunk path (systems sharing references) gives each system's rows.
    let other: Vec<&str> = c.hyps().iter().rev().copied().collect();
    let systems = [c.hyps().to_vec(), other.clone()];
    let got = m
        .systems_stats(&systems, c.references(), four)
        .expect("systems");
    let second = Corpus::new(other, c.references().clone()).expect("corpus");
    assert_eq!(got[0], rows);
    assert_eq!(got[1], m.corpus_stats(&second, Threads::ONE).expect("rows"));
}
