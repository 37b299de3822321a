//! chrF and chrF++ (Popović 2015, 2017) exactly as sacreBLEU 2.6.0 computes them
//! (`sacrebleu/metrics/chrf.py`, `helpers.py`).
//!
//! The pipeline: `scan` (whitespace and word boundaries) -> `symbols` (a segment's characters,
//! and its words after `_remove_punctuation`, as small integer ids) -> `ngrams` (match counts
//! of every order against each reference, with `dense_table` or `table`) -> `stats` (rows
//! `[hyp, ref, match]` per order, the best reference, a corpus in parallel) -> `score`
//! (`_compute_f_score` in its float order, on int64 rows and on the float32 rows of
//! significance tests). Rows add: a corpus score is the score of the summed rows.

mod dense_table;
pub mod metric;
mod ngrams;
pub mod options;
pub mod pairwise;
mod scan;
pub mod score;
pub mod stats;
mod symbols;
mod table;
mod tally;

pub use options::{ChrfOptions, MAX_FACTOR, MAX_ORDER};
pub use score::{f_score, f_score_f32, score_rows, score_rows_f32, F32Score};
pub use stats::{corpus_stats, sentence_scores};

/// `v[..n]`, growing `v` first if it is shorter.
///
/// Performance decision: per-segment buffers are written before they are read, so they keep
/// their stale contents instead of being cleared and refilled: a `memset` per buffer per text
/// (its size-dependent branches mispredicting) cost more than the work on short sentences.
#[inline]
pub(crate) fn room<T: Copy + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}
