//! The `rouge` and `rouge-chinese` dialects as a [`Metric`]: rows of [`super::pltrdy`], and
//! totals that are, as the package's `avg=True` computes them, the in-order sums of each
//! item's `(f, p, r)` per metric (and the item count).
//!
//! A segment has exactly one reference (the package pairs `hyps[i]` with `refs[i]`), and an
//! item the package raises on (a text with no sentence) is an error here too.

use super::pltrdy::{self, f_p_r, PltrdyOptions};
use crate::corpus::Corpus;
use crate::engine::parallel::Threads;
use crate::error::CoreError;
use crate::metric::{check_whole, Metric};

/// Items seen, and per metric the in-order sums of `(f, p, r)` (`3 x metrics` values).
pub type PltrdyTotals = (i64, Vec<f64>);

fn one_reference(refs: &[&str]) -> Result<(), CoreError> {
    if refs.len() != 1 {
        return Err(CoreError::InvalidInput(format!(
            "the rouge package scores one reference per hypothesis; got {}",
            refs.len()
        )));
    }
    Ok(())
}

impl Metric for PltrdyOptions {
    type Totals = PltrdyTotals;

    fn row_len(&self) -> usize {
        PltrdyOptions::row_len(self)
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        one_reference(refs)?;
        pltrdy::item_row(self, hyp, refs[0], row);
        match self.error(row[row.len() - 2]) {
            Some(m) => Err(CoreError::InvalidInput(m.into())),
            None => Ok(()),
        }
    }

    fn zero_totals(&self) -> PltrdyTotals {
        (0, vec![0.0; 3 * self.metrics().len()])
    }

    fn add_rows(&self, totals: &mut PltrdyTotals, rows: &[i64]) -> Result<(), CoreError> {
        let width = PltrdyOptions::row_len(self);
        check_whole(rows.len(), width)?;
        if let Some((_, m)) = self.first_error(rows) {
            return Err(CoreError::InvalidInput(m.into()));
        }
        let n = self.metrics().len();
        for row in rows.chunks_exact(width) {
            for (sums, t) in totals
                .1
                .chunks_exact_mut(3)
                .zip(row[..3 * n].chunks_exact(3))
            {
                let (f, p, r) = f_p_r(t);
                sums[0] += f;
                sums[1] += p;
                sums[2] += r;
            }
            totals.0 += 1;
        }
        Ok(())
    }

    /// 100 times the mean F of the first metric (`get_scores(avg=True)[m]["f"]`).
    fn score(&self, totals: &PltrdyTotals) -> f64 {
        match totals {
            (0, _) => 0.0,
            (count, sums) => 100.0 * (sums[0] / *count as f64),
        }
    }

    /// Not defined, as for rouge-score's ROUGE (`rouge::metric`): the mean of per-item
    /// scores is not a function of summed rows, and no oracle computes it in float32.
    fn score_f32(&self, _sums: &[f32]) -> (f64, bool) {
        (f64::NAN, false)
    }

    fn score_rows_f32(&self, _rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        Err(CoreError::InvalidInput(
            "the rouge package's ROUGE has no scores of float32 row sums: its corpus score is \
             the mean of the items' scores"
                .into(),
        ))
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        let items = (0..corpus.len())
            .map(|i| {
                one_reference(corpus.refs(i))?;
                Ok((corpus.hyp(i), corpus.refs(i)[0]))
            })
            .collect::<Result<Vec<_>, CoreError>>()?;
        let rows = pltrdy::rows(self, &items, threads)?;
        match self.first_error(&rows) {
            Some((_, m)) => Err(CoreError::InvalidInput(m.into())),
            None => Ok(rows),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Groups;
    use crate::rouge::dialects::sentences::Splitter;

    #[test]
    fn totals_are_the_package_average() {
        let m = PltrdyOptions::new(None, true, Splitter::Period).unwrap();
        let hyps = ["a b c. d", "x y", "a a a"];
        let refs = ["a c d", "y x. z", "a"];
        let c = Corpus::new(
            hyps.to_vec(),
            Groups::from_iter(refs.iter().map(|r| std::iter::once(*r))),
        )
        .unwrap();
        let rows = m.corpus_stats(&c, Threads::ONE).unwrap();
        let t = m.totals(&rows).unwrap();
        let avg = pltrdy::average(&m, &rows).unwrap();
        assert_eq!(t.1[0] / 3.0, avg.scores[0].0);
        assert_eq!(m.score(&t), 100.0 * avg.scores[0].0);
        assert_eq!(m.corpus_stats(&c, Threads::ALL).unwrap(), rows);
        let mut row = vec![0; m.row_len()];
        m.segment_stats(hyps[1], &[refs[1]], &mut row).unwrap();
        assert_eq!(row, &rows[m.row_len()..2 * m.row_len()]);
        assert!(m.segment_stats("...", &["a"], &mut row).is_err());
        assert!(m.segment_stats("a", &["a", "b"], &mut row).is_err());
    }
}
