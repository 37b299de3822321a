//! rouge-score's ROUGE with rapidbleu's Unicode tokenizer ([`super::unicode`]) as a
//! [`Metric`]: the rows are rouge-score's (`[hits, prediction_count, target_count]` per rouge
//! type, the best reference's), so totals, scores and resampling are `RougeOptions`'s own;
//! only the tokens differ.

use super::unicode;
use crate::corpus::Corpus;
use crate::engine::parallel::Threads;
use crate::error::CoreError;
use crate::metric::Metric;
use crate::rouge::RougeOptions;

/// rouge-score's options, scored on the Unicode tokenizer's tokens (`stem`: rule 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnicodeRouge(pub RougeOptions);

impl Metric for UnicodeRouge {
    type Totals = <RougeOptions as Metric>::Totals;

    fn row_len(&self) -> usize {
        self.0.row_len()
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "a prediction has no reference; ROUGE scores it against at least one".into(),
            ));
        }
        unicode::item_row(&self.0, hyp, refs, row);
        Ok(())
    }

    fn zero_totals(&self) -> Self::Totals {
        self.0.zero_totals()
    }

    fn add_rows(&self, totals: &mut Self::Totals, rows: &[i64]) -> Result<(), CoreError> {
        self.0.add_rows(totals, rows)
    }

    fn score(&self, totals: &Self::Totals) -> f64 {
        Metric::score(&self.0, totals)
    }

    fn score_f32(&self, sums: &[f32]) -> (f64, bool) {
        self.0.score_f32(sums)
    }

    fn score_rows_f32(&self, rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        self.0.score_rows_f32(rows)
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        let items: Vec<(&str, Vec<&str>)> = (0..corpus.len())
            .map(|i| (corpus.hyp(i), corpus.refs(i).to_vec()))
            .collect();
        unicode::rows(&self.0, &items, threads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Groups;

    #[test]
    fn rows_and_scores() {
        let m = UnicodeRouge(RougeOptions::new(&["rouge1", "rougeL"], false).unwrap());
        let hyps = ["我爱北京", "Привет мир", "สวัสดี"];
        let refs: [&[&str]; 3] = [&["我爱上海"], &["привет", "мир"], &["สวัสดี"]];
        let c = Corpus::new(
            hyps.to_vec(),
            Groups::from_iter(refs.iter().map(|r| r.iter().copied())),
        )
        .unwrap();
        let rows = m.corpus_stats(&c, Threads::ONE).unwrap();
        assert_eq!(&rows[..6], &[2, 4, 4, 2, 4, 4]);
        assert_eq!(&rows[6..12], &[1, 2, 1, 1, 2, 1]);
        let mut row = vec![0; 6];
        m.segment_stats(hyps[2], refs[2], &mut row).unwrap();
        assert_eq!(row, &rows[12..]);
        let t = m.totals(&rows).unwrap();
        assert_eq!(
            m.score(&t),
            Metric::score(&m.0, &m.0.totals(&rows).unwrap())
        );
        assert!(m.segment_stats("a", &[], &mut row).is_err());
    }
}
