//! sacreBLEU's BLEU as a [`Metric`]: rows `[hyp_len, ref_len, correct_1..N, total_1..N]`
//! (closest reference length, ties to the shorter), scored by [`score`] and [`score_f32`].
//!
//! Its fast paths override the defaults: sentence scores fused into the statistics pass,
//! references tokenized once for several systems ([`RefCache`]), pairwise matrices over
//! n-gram bags ([`pairwise`]).

use super::options::BleuOptions;
use super::ref_cache::RefCache;
use super::ref_len::RefLenRule;
use super::stats::{check_segment, Worker};
use super::{pairwise, score, score_f32, stats};
use crate::corpus::{Corpus, Groups};
use crate::engine::parallel::Threads;
use crate::engine::rows::{column_sums_on, Width};
use crate::error::CoreError;
use crate::metric::{add_columns, Metric};

impl Metric for BleuOptions {
    type Totals = Vec<i64>;

    /// Orders 4 (the default), 2 and 6.
    const WIDTHS: &'static [Width] = &[Width::of::<10>(), Width::of::<6>(), Width::of::<14>()];

    fn row_len(&self) -> usize {
        self.layout().row_len()
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        check_segment(0, Some(hyp), refs, self.layout())?;
        let rule = RefLenRule::ClosestShorter;
        let row = self.layout().row_mut(row);
        Worker::default().segment(hyp, refs, self.text(), rule, row);
        Ok(())
    }

    fn zero_totals(&self) -> Vec<i64> {
        vec![0; self.row_len()]
    }

    fn add_rows(&self, totals: &mut Vec<i64>, rows: &[i64]) -> Result<(), CoreError> {
        score::check_counts(rows)?;
        add_columns(totals, rows)
    }

    /// Column sums, added on the pool (integers: the order does not matter).
    fn corpus_totals(&self, rows: &[i64], threads: Threads) -> Result<Vec<i64>, CoreError> {
        column_sums_on(rows, self.row_len(), threads)
    }

    fn score(&self, totals: &Vec<i64>) -> f64 {
        score::bleu_score(self.layout().row(totals), self)
    }

    /// BLEU of float32 sums is a Python float (NumPy's float32 precisions, then `math`).
    fn score_f32(&self, sums: &[f32]) -> (f64, bool) {
        (
            score_f32::compute_bleu_f32(self.layout().row(sums), self),
            false,
        )
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        stats::corpus_stats(corpus, self, threads)
    }

    fn score_rows(&self, rows: &[i64]) -> Result<Vec<f64>, CoreError> {
        score::score_rows(rows, self)
    }

    fn score_rows_f32(&self, rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        Ok((score_f32::score_rows_f32(rows, self)?, false))
    }

    fn sentence_scores(
        &self,
        corpus: &Corpus<&str>,
        threads: Threads,
    ) -> Result<Vec<f64>, CoreError> {
        stats::sentence_scores(corpus, self, threads)
    }

    /// One system: its corpus statistics; several: the references tokenized once.
    fn systems_stats(
        &self,
        systems: &[Vec<&str>],
        refs: &Groups<&str>,
        threads: Threads,
    ) -> Result<Vec<Vec<i64>>, CoreError> {
        if let [hyps] = systems {
            return Ok(vec![self.corpus_stats(
                &Corpus::new(hyps.clone(), refs.clone())?,
                threads,
            )?]);
        }
        let cache = RefCache::new(refs, *self, threads)?;
        systems
            .iter()
            .map(|hyps| cache.stats(hyps, threads))
            .collect()
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
