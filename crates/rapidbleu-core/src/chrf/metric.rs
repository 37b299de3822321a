//! sacreBLEU's chrF and chrF++ as a [`Metric`]: rows `[hyp, ref, match]` per character and
//! word order, scored by [`score`] in `CHRF._compute_f_score`'s float order.
//!
//! Its fast paths override the defaults: sentence scores fused into the statistics pass, and
//! pairwise rows that intern the hypothesis once ([`pairwise`]).

use super::options::ChrfOptions;
use super::{pairwise, score, stats};
use crate::corpus::{Corpus, Groups};
use crate::engine::parallel::Threads;
use crate::engine::rows::{column_sums_on, Width};
use crate::error::CoreError;
use crate::metric::{add_columns, Metric};

impl Metric for ChrfOptions {
    type Totals = Vec<i64>;

    /// chrF (6 character orders) and chrF++ (6 + 2 word orders): 3 values per order.
    const WIDTHS: &'static [Width] = &[Width::of::<18>(), Width::of::<24>()];

    fn row_len(&self) -> usize {
        ChrfOptions::row_len(self)
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        let one = Corpus::new(vec![hyp], Groups::from_iter([refs.iter().copied()]))?;
        row.copy_from_slice(&stats::corpus_stats(&one, self, Threads::ONE)?);
        Ok(())
    }

    fn zero_totals(&self) -> Vec<i64> {
        vec![0; ChrfOptions::row_len(self)]
    }

    fn add_rows(&self, totals: &mut Vec<i64>, rows: &[i64]) -> Result<(), CoreError> {
        add_columns(totals, rows)
    }

    /// Column sums, added on the pool (integers: the order does not matter).
    fn corpus_totals(&self, rows: &[i64], threads: Threads) -> Result<Vec<i64>, CoreError> {
        column_sums_on(rows, self.row_len(), threads)
    }

    fn score(&self, totals: &Vec<i64>) -> f64 {
        score::f_score(totals, self)
    }

    fn score_f32(&self, sums: &[f32]) -> (f64, bool) {
        let s = score::f_score_f32(sums, self);
        (s.value, s.is_float32)
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        stats::corpus_stats(corpus, self, threads)
    }

    fn score_rows(&self, rows: &[i64]) -> Result<Vec<f64>, CoreError> {
        score::score_rows(rows, self)
    }

    fn score_rows_f32(&self, rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        score::score_rows_f32(rows, self)
    }

    fn sentence_scores(
        &self,
        corpus: &Corpus<&str>,
        threads: Threads,
    ) -> Result<Vec<f64>, CoreError> {
        stats::sentence_scores(corpus, self, threads)
    }

    fn pairwise(
        &self,
        hyps: &Groups<&str>,
        refs: &Groups<&str>,
        threads: Threads,
    ) -> Result<Vec<Vec<f64>>, CoreError> {
        pairwise::matrices(hyps, refs, self, threads)
    }
}
