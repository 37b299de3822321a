//! rouge-score's ROUGE as a [`Metric`]: rows `[hits, prediction_count, target_count]` per
//! rouge type, the best reference's ([`stats`]), of text read by the default tokenizer with
//! rougeLsum's sentences split at `\n` (a user tokenizer and `split_summaries` run in Python
//! and reach the core through `stats::doc_rows` and `TextItem` sentences instead).
//!
//! ROUGE's corpus value is not a function of summed rows: it is the mean of the items'
//! scores. So its totals ([`RougeTotals`]), like TER's, are floats added in segment order:
//! the item count and, per type, precision, recall and F-measure summed item after item
//! (`np.cumsum`'s order), which a stream folded chunk by chunk continues exactly.

use super::score::score;
use super::stats::{self, Text, TextItem};
use super::RougeOptions;
use crate::corpus::Corpus;
use crate::engine::parallel::Threads;
use crate::error::CoreError;
use crate::metric::{check_whole, Metric};

/// The corpus statistics of ROUGE: items seen, and per rouge type the in-order sums of their
/// `(precision, recall, fmeasure)` (`3 x types` values).
pub type RougeTotals = (i64, Vec<f64>);

fn item<'a>(hyp: &'a str, refs: &[&'a str]) -> TextItem<'a> {
    let text = |t| Text {
        text: t,
        sentences: None,
    };
    TextItem {
        prediction: text(hyp),
        targets: refs.iter().map(|r| text(r)).collect(),
    }
}

impl Metric for RougeOptions {
    type Totals = RougeTotals;

    fn row_len(&self) -> usize {
        RougeOptions::row_len(self)
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "a prediction has no reference; ROUGE scores it against at least one".into(),
            ));
        }
        stats::item_row(self, &item(hyp, refs), row);
        Ok(())
    }

    fn zero_totals(&self) -> RougeTotals {
        // np.zeros, and 0.0 + x == x for the first item's score.
        (0, vec![0.0; RougeOptions::row_len(self)])
    }

    fn add_rows(&self, totals: &mut RougeTotals, rows: &[i64]) -> Result<(), CoreError> {
        let width = RougeOptions::row_len(self);
        check_whole(rows.len(), width)?;
        if let Some(v) = rows.iter().find(|v| **v < 0) {
            return Err(CoreError::InvalidInput(format!(
                "ROUGE statistics are counts; got {v}"
            )));
        }
        for row in rows.chunks_exact(width) {
            for (sums, t) in totals.1.chunks_exact_mut(3).zip(row.chunks_exact(3)) {
                let (p, r, f) = score(t[0], t[1], t[2]);
                sums[0] += p;
                sums[1] += r;
                sums[2] += f;
            }
            totals.0 += 1;
        }
        Ok(())
    }

    /// 100 times the mean F-measure of the first rouge type (`ROUGEScore.score`).
    fn score(&self, totals: &RougeTotals) -> f64 {
        let (count, sums) = totals;
        if *count == 0 {
            return 0.0;
        }
        // Python's `float(s) / count`, then `100 * mean`.
        100.0 * (sums[2] / *count as f64)
    }

    /// Not defined: float32 sums of ROUGE rows do not determine a ROUGE score (the mean of
    /// per-item scores is not a function of summed triples), and no oracle computes ROUGE in
    /// float32 (rouge-score's `BootstrapAggregator` resamples float64 scores). NaN, and
    /// [`Metric::score_rows_f32`] is an error; resampled scores are
    /// [`Metric::bootstrap_scores`] (the mean of each resample's items, in index order).
    fn score_f32(&self, _sums: &[f32]) -> (f64, bool) {
        (f64::NAN, false)
    }

    fn score_rows_f32(&self, _rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        Err(CoreError::InvalidInput(
            "ROUGE has no scores of float32 row sums: its corpus score is the mean of the \
             items' scores, not a function of summed rows"
                .into(),
        ))
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        // A corpus has at least one reference per segment (checked when it is made).
        let items: Vec<_> = (0..corpus.len())
            .map(|i| item(corpus.hyp(i), corpus.refs(i)))
            .collect();
        stats::text_rows(self, &items, threads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Groups;

    fn corpus<'a>(hyps: &[&'a str], refs: &[&[&'a str]]) -> Corpus<&'a str> {
        Corpus::new(
            hyps.to_vec(),
            Groups::from_iter(refs.iter().map(|r| r.iter().copied())),
        )
        .unwrap()
    }

    #[test]
    fn totals_are_in_order_means() {
        let m = RougeOptions::new(&["rouge1", "rougeL"], false).unwrap();
        let c = corpus(&["a b", "a c", "b"], &[&["a b"], &["a b", "c"], &["a b"]]);
        let rows = m.corpus_stats(&c, Threads::ONE).unwrap();
        assert_eq!(&rows[..6], &[2, 2, 2, 2, 2, 2]);
        let t = m.totals(&rows).unwrap();
        let f: Vec<f64> = rows.chunks(6).map(|r| score(r[0], r[1], r[2]).2).collect();
        assert_eq!(t.0, 3);
        assert_eq!(t.1[2], (0.0 + f[0] + f[1]) + f[2]);
        assert_eq!(m.score(&t), 100.0 * (t.1[2] / 3.0));
        // Folding rows one at a time continues the same sums.
        let mut parts = m.zero_totals();
        for row in rows.chunks(6) {
            m.add_rows(&mut parts, row).unwrap();
        }
        assert_eq!(parts, t);
        // Threads and the one-segment path give the same rows.
        assert_eq!(m.corpus_stats(&c, Threads::ALL).unwrap(), rows);
        let mut row = vec![0; 6];
        m.segment_stats("a c", &["a b", "c"], &mut row).unwrap();
        assert_eq!(row, &rows[6..12]);
        // A resample of every item in order is the corpus score.
        let scores = m.bootstrap_scores(&rows, &[0, 1, 2, 2, 2, 0], Threads::ONE);
        assert_eq!(scores.unwrap()[0], m.score(&t));
    }

    #[test]
    fn bad_input() {
        let m = RougeOptions::new(&["rouge1"], false).unwrap();
        assert!(matches!(
            m.segment_stats("a", &[], &mut [0; 3]),
            Err(CoreError::MissingReference(_))
        ));
        assert!(m.add_rows(&mut m.zero_totals(), &[1, -1, 0]).is_err());
        assert!(m.add_rows(&mut m.zero_totals(), &[1, 1]).is_err());
        assert!(m.score_rows_f32(&[1.0, 1.0, 1.0]).is_err());
        assert_eq!(m.score(&m.zero_totals()), 0.0);
    }
}
