//! sacreBLEU's TER as a [`Metric`]: rows `[num_edits, ref_len_sum, num_refs]`, whose totals
//! are the exception to integer sums: `(edits, ref_length)` with the float terms
//! `ref_len_sum / num_refs` added in segment order ([`score::accumulate`]), as sacreBLEU's
//! `sum_of_lists` adds them.
//!
//! Text is lowercased by the caller unless `case_sensitive` (see [`crate::ter`]).

use super::stats::{self, TerWorker, ROW_LEN};
use super::{score, TerOptions, TercomTokenizer};
use crate::corpus::Corpus;
use crate::engine::parallel::Threads;
use crate::error::CoreError;
use crate::metric::Metric;

impl Metric for TerOptions {
    type Totals = (i64, f64);

    fn row_len(&self) -> usize {
        ROW_LEN
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        let tokenizer = TercomTokenizer::new(*self);
        row.copy_from_slice(&TerWorker::default().segment(&tokenizer, hyp, refs)?);
        Ok(())
    }

    fn zero_totals(&self) -> (i64, f64) {
        // sum_of_lists starts from int 0, and 0 + x == x for the first float.
        (0, 0.0)
    }

    fn add_rows(&self, totals: &mut (i64, f64), rows: &[i64]) -> Result<(), CoreError> {
        *totals = score::accumulate(rows, totals.0, totals.1)?;
        Ok(())
    }

    fn score(&self, totals: &(i64, f64)) -> f64 {
        score::ter_score(totals.0, totals.1)
    }

    /// Sums are `[edits, ref_length]` (sacreBLEU's float32 rows); the score is a `np.float32`.
    fn score_f32(&self, sums: &[f32]) -> (f64, bool) {
        (f64::from(score::ter_score_f32(sums[0], sums[1])), true)
    }

    fn f32_len(&self) -> usize {
        2
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        stats::corpus_stats(corpus, &TercomTokenizer::new(*self), threads)
    }
}
