//! The metric trait: what every metric gives (its row width, the statistics of a segment, how
//! summed statistics become a score in float64 and float32), and what every metric then gets
//! from the engine (corpus statistics in parallel, the chunk path of several systems sharing
//! references, sentence scores, pairwise matrices, resampled sums and scores).
//!
//! A metric implements the few required methods and inherits the rest; a metric with a faster
//! way to do one of them (BLEU's reference cache, chrF's pairwise rows, scores fused into the
//! statistics pass) overrides it, and must give the same numbers. Statistics rows add: the
//! corpus score is the score of the summed rows, whatever the split over threads or chunks.
//!
//! Each metric's implementation lives in its own folder (its `metric.rs`); this module names
//! none of them.

use crate::corpus::{Corpus, Groups};
use crate::engine::parallel::{self, zeroed_on, Threads, WorkerPool};
use crate::engine::rows::{self, Width};
use crate::error::CoreError;

/// A metric of per-segment statistics rows (see the module documentation).
pub trait Metric: Sync {
    /// The summed statistics a score is computed from: the column sums of the rows for most
    /// metrics; TER's in-order float sum for TER.
    type Totals: Send;

    /// Row widths whose resampled sums get a vectorised kernel (the widths of the usual
    /// options; any other width gets the same sums from a general loop).
    const WIDTHS: &'static [Width] = &[];

    /// Values per statistics row.
    fn row_len(&self) -> usize;

    /// The statistics of one segment (`hyp` against `refs`) into `row` (`row_len` zeros).
    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError>;

    /// The totals of no segment.
    fn zero_totals(&self) -> Self::Totals;

    /// Adds `rows` (whole rows, in segment order) to `totals`.
    fn add_rows(&self, totals: &mut Self::Totals, rows: &[i64]) -> Result<(), CoreError>;

    /// The score of `totals`, float operations in the oracle's order.
    fn score(&self, totals: &Self::Totals) -> f64;

    /// The score of float32 sums of rows ([`Metric::f32_len`] values) as sacreBLEU's
    /// significance tests compute it under NumPy 2, and whether it is a `np.float32`.
    fn score_f32(&self, sums: &[f32]) -> (f64, bool);

    /// Values per float32 sum (as the rows, unless a metric turns rows into other terms).
    fn f32_len(&self) -> usize {
        self.row_len()
    }

    /// Statistics rows of every segment of `corpus`, on `threads` threads.
    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        let row_len = self.row_len();
        let mut out = zeroed_on(corpus.len(), row_len, threads)?;
        parallel::try_for_each_row_in(
            &WorkerPool::new(),
            &mut out,
            row_len,
            threads,
            || (),
            |_, i, row| self.segment_stats(corpus.hyp(i), corpus.refs(i), row),
        )?;
        Ok(out)
    }

    /// The totals of `rows`.
    fn totals(&self, rows: &[i64]) -> Result<Self::Totals, CoreError> {
        let mut t = self.zero_totals();
        self.add_rows(&mut t, rows)?;
        Ok(t)
    }

    /// The totals of `rows` on `threads` threads (a metric whose totals are column sums adds
    /// them on the pool; the default adds them in order on the calling thread).
    fn corpus_totals(&self, rows: &[i64], _threads: Threads) -> Result<Self::Totals, CoreError> {
        self.totals(rows)
    }

    /// The corpus score of `rows`: the score of their totals.
    fn corpus_score(&self, rows: &[i64]) -> Result<f64, CoreError> {
        Ok(self.score(&self.totals(rows)?))
    }

    /// The score of each row on its own (sentence scores).
    fn score_rows(&self, rows: &[i64]) -> Result<Vec<f64>, CoreError> {
        check_whole(rows.len(), self.row_len())?;
        rows.chunks_exact(self.row_len())
            .map(|row| self.corpus_score(row))
            .collect()
    }

    /// [`Metric::score_f32`] of each float32 row, and whether every score is a `np.float32`.
    fn score_rows_f32(&self, rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        check_whole(rows.len(), self.f32_len())?;
        let mut all_f32 = true;
        let scores = rows
            .chunks_exact(self.f32_len())
            .map(|row| {
                let (v, is_f32) = self.score_f32(row);
                all_f32 &= is_f32;
                v
            })
            .collect();
        Ok((scores, all_f32))
    }

    /// The sentence score of every segment of `corpus`.
    fn sentence_scores(
        &self,
        corpus: &Corpus<&str>,
        threads: Threads,
    ) -> Result<Vec<f64>, CoreError> {
        self.score_rows(&self.corpus_stats(corpus, threads)?)
    }

    /// The chunk path: statistics rows of several systems (`systems[s]`, one hypothesis per
    /// segment) against the same references `refs`.
    fn systems_stats(
        &self,
        systems: &[Vec<&str>],
        refs: &Groups<&str>,
        threads: Threads,
    ) -> Result<Vec<Vec<i64>>, CoreError> {
        systems
            .iter()
            .map(|hyps| self.corpus_stats(&Corpus::new(hyps.clone(), refs.clone())?, threads))
            .collect()
    }

    /// Pairwise matrices: for each group `g`, the `N_g x M_g` sentence scores (row-major) of
    /// every hypothesis of `hyps.get(g)` against each reference of `refs.get(g)` on its own.
    fn pairwise(
        &self,
        hyps: &Groups<&str>,
        refs: &Groups<&str>,
        threads: Threads,
    ) -> Result<Vec<Vec<f64>>, CoreError> {
        check_groups(hyps, refs)?;
        let row_len = self.row_len();
        hyps.iter()
            .zip(refs.iter())
            .map(|(hs, rs)| {
                let cells = parallel::map_collect(
                    hs.len() * rs.len(),
                    threads,
                    || vec![0i64; row_len],
                    |row, k| {
                        row.fill(0);
                        let r = &rs[k % rs.len()..][..1];
                        self.segment_stats(hs[k / rs.len()], r, row)?;
                        self.corpus_score(row)
                    },
                );
                cells.into_iter().collect()
            })
            .collect()
    }

    /// Bootstrap sums: row `k` of the result sums the rows `idxs[k, :]` (`n_samples x
    /// n_segments` indices, row-major), exact integers.
    fn bootstrap_sums(
        &self,
        rows: &[i64],
        idxs: &[i64],
        threads: Threads,
    ) -> Result<Vec<i64>, CoreError> {
        rows::bootstrap_sums(rows, self.row_len(), idxs, threads, &[Self::WIDTHS])
    }

    /// Bootstrap scores: the score of each resample's rows added in index order (the order
    /// matters to a metric with float totals, such as TER).
    fn bootstrap_scores(
        &self,
        rows: &[i64],
        idxs: &[i64],
        threads: Threads,
    ) -> Result<Vec<f64>, CoreError> {
        let row_len = self.row_len();
        let n_seg = rows.len() / row_len.max(1);
        check_whole(rows.len(), row_len)?;
        let n_samples = rows::check_indices(idxs, n_seg)?;
        parallel::map_collect(
            n_samples,
            threads,
            || (),
            |_, k| {
                let mut t = self.zero_totals();
                for &i in &idxs[k * n_seg..(k + 1) * n_seg] {
                    self.add_rows(&mut t, &rows[i as usize * row_len..][..row_len])?;
                }
                Ok(self.score(&t))
            },
        )
        .into_iter()
        .collect()
    }
}

/// An error unless `values` is a whole number of rows of `row_len`.
pub fn check_whole(values: usize, row_len: usize) -> Result<(), CoreError> {
    if row_len == 0 || !values.is_multiple_of(row_len) {
        return Err(CoreError::InvalidInput(format!(
            "statistics hold {values} values, not a whole number of rows of {row_len}"
        )));
    }
    Ok(())
}

/// An error unless there are as many hypothesis groups as reference groups.
pub fn check_groups(hyps: &Groups<&str>, refs: &Groups<&str>) -> Result<(), CoreError> {
    if hyps.len() != refs.len() {
        return Err(CoreError::InvalidInput(format!(
            "{} hypothesis groups but {} reference groups; they must be equal",
            hyps.len(),
            refs.len()
        )));
    }
    Ok(())
}

/// [`Metric::add_rows`] of a metric whose totals are the column sums of its rows.
pub fn add_columns(totals: &mut [i64], rows: &[i64]) -> Result<(), CoreError> {
    check_whole(rows.len(), totals.len())?;
    for row in rows.chunks_exact(totals.len()) {
        for (t, &v) in totals.iter_mut().zip(row) {
            *t = t.checked_add(v).ok_or_else(|| {
                CoreError::InvalidInput(format!(
                    "statistics add up to more than {}; score fewer segments at a time",
                    i64::MAX
                ))
            })?;
        }
    }
    Ok(())
}
