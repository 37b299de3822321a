//! CIDEr-D as a [`Metric`] over given document frequencies (a [`Scorer`]): an image's row is
//! its score (the bits of the float64, one value), the totals are the image scores in order,
//! and the corpus score is their `np.mean`.
//!
//! Why the score itself is the row: an image's CIDEr-D depends on the document frequencies of
//! the whole reference set, so no per-image counts add up to it. With the frequencies fixed
//! (computed once from the full set, as pycocoevalcap does), the image scores are final, and a
//! resample (bootstrap, paired test) is the mean of the resampled images' scores under those
//! same frequencies, never frequencies recounted per resample.

use super::score::{Scorer, Worker};
use crate::caption::numeric::np_mean;
use crate::corpus::Corpus;
use crate::engine::parallel::{self, Threads, WorkerPool};
use crate::error::CoreError;
use crate::metric::{check_whole, Metric};

impl Metric for Scorer<'_> {
    /// The image scores, in order.
    type Totals = Vec<f64>;

    fn row_len(&self) -> usize {
        1
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        self.check_kind::<&str>()?;
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "an image has no reference caption; CIDEr-D needs at least one".into(),
            ));
        }
        row[0] = self.image(&mut Worker::default(), hyp, refs).to_bits() as i64;
        Ok(())
    }

    fn zero_totals(&self) -> Vec<f64> {
        Vec::new()
    }

    fn add_rows(&self, totals: &mut Vec<f64>, rows: &[i64]) -> Result<(), CoreError> {
        check_whole(rows.len(), 1)?;
        totals.extend(rows.iter().map(|&r| f64::from_bits(r as u64)));
        Ok(())
    }

    /// `np.mean` of the image scores (NaN for none).
    fn score(&self, totals: &Vec<f64>) -> f64 {
        np_mean(totals)
    }

    /// Not defined: the corpus score is a mean of image scores, not a function of sums.
    fn score_f32(&self, _sums: &[f32]) -> (f64, bool) {
        (f64::NAN, false)
    }

    fn score_rows_f32(&self, _rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        Err(CoreError::InvalidInput(
            "CIDEr-D has no scores of float32 row sums: its corpus score is the mean of the \
             images' scores"
                .into(),
        ))
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        self.check_kind::<&str>()?;
        let mut out = parallel::zeroed_on(corpus.len(), 1, threads)?;
        parallel::for_each_row_in(
            &WorkerPool::new(),
            &mut out,
            1,
            threads,
            Worker::default,
            |w, i, row| {
                row[0] = self.image(w, corpus.hyp(i), corpus.refs(i)).to_bits() as i64;
            },
        );
        Ok(out)
    }

    /// Rows are scores, not counts: their integer sums mean nothing. Resampled scores are
    /// [`Metric::bootstrap_scores`].
    fn bootstrap_sums(
        &self,
        _rows: &[i64],
        _idxs: &[i64],
        _t: Threads,
    ) -> Result<Vec<i64>, CoreError> {
        Err(CoreError::InvalidInput(
            "CIDEr-D rows are image scores, which do not add; resample them with \
             bootstrap_scores"
                .into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caption::cider::{CiderD, DocumentFrequency};
    use crate::caption::numeric::LogTable;
    use crate::corpus::Groups;

    #[test]
    fn rows_are_the_image_scores() {
        let refs = Groups::from_iter([vec!["a b c", "a b"], vec!["c d"], vec!["a d e"]]);
        let df = DocumentFrequency::from_texts(&refs).unwrap();
        let log = LogTable::libm(3);
        let s = Scorer::new(CiderD::default(), &df, &log, 3).unwrap();
        let corpus = Corpus::new(vec!["a b", "c", "a d"], refs).unwrap();
        let rows = s.corpus_stats(&corpus, Threads::ONE).unwrap();
        let direct = s.scores(&corpus, Threads::ONE).unwrap();
        let t = s.totals(&rows).unwrap();
        assert_eq!(t, direct);
        assert_eq!(s.score(&t), np_mean(&direct));
        let mut row = [0];
        s.segment_stats("a b", &["a b c", "a b"], &mut row).unwrap();
        assert_eq!(row[0], rows[0]);
        assert!(s.bootstrap_sums(&rows, &[0, 1, 2], Threads::ONE).is_err());
        let again = s.bootstrap_scores(&rows, &[0, 1, 2], Threads::ONE).unwrap();
        assert_eq!(again, [s.score(&t)]);
    }
}
