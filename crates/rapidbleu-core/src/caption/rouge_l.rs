//! COCO's ROUGE-L as pycocoevalcap 1.2's `Rouge().compute_score` computes it (`rouge.py`):
//! tokens from `split(" ")` (only U+0020 separates, so `""` is one empty token and two spaces
//! make an empty token between them), the LCS with each reference, the best precision and the
//! best recall over the references taken separately, `beta = 1.2`, and the mean of the images'
//! scores by `np.mean`.
//!
//! An image's row is `[lcs_p, hyp_len, lcs_r, ref_len]`: the precision's LCS (the longest
//! over the references) and the hypothesis length, and the LCS and length of the reference
//! with the best recall. The scores are `lcs_p / hyp_len` and `lcs_r / ref_len`, the same
//! floats as the maxima of the per-reference floats (division by the same positive number is
//! monotone, and the best recall's pair is kept as found).
//!
//! The corpus score is `np.mean` of the image scores, a pairwise sum that no running total
//! reproduces, so the totals are the image scores themselves, in order.

use super::numeric::{np_mean, py_pow};
use crate::corpus::Corpus;
use crate::engine::parallel::{self, Threads, WorkerPool};
use crate::engine::token_map::TokenMap;
use crate::error::CoreError;
use crate::metric::{check_whole, Metric};
use crate::rouge::lcs::LcsBuf;

/// Values per row.
pub const ROW_LEN: usize = 4;

/// A worker's scratch space, reused across images.
#[derive(Default)]
struct Worker {
    lcs: LcsBuf,
    tokens: TokenMap,
    c: Vec<u32>,
    /// Every reference's tokens, one after the other, and each one's span.
    r: Vec<u32>,
    spans: Vec<(usize, usize)>,
    lengths: Vec<u64>,
}

/// Workers kept between calls (see [`WorkerPool`]).
static WORKERS: WorkerPool<Worker> = WorkerPool::new();

/// COCO ROUGE-L's options: its `beta` (`Rouge().beta`, 1.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CocoRougeL {
    beta: f64,
    /// `self.beta**2`, as Python computes it (C's `pow`).
    beta2: f64,
}

impl Default for CocoRougeL {
    fn default() -> Self {
        CocoRougeL::with_beta(1.2)
    }
}

impl CocoRougeL {
    /// ROUGE-L with another `beta` (pycocoevalcap's attribute `Rouge().beta`).
    pub fn with_beta(beta: f64) -> Self {
        CocoRougeL {
            beta,
            beta2: py_pow(beta, 2.0),
        }
    }

    /// The `beta`.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The row of one image into `row` (4 values).
    pub fn image_row(&self, hyp: &str, refs: &[&str], row: &mut [i64]) {
        self.image_row_with(&mut Worker::default(), hyp, refs, row);
    }

    /// [`CocoRougeL::image_row`] with a worker's scratch space.
    fn image_row_with(&self, w: &mut Worker, hyp: &str, refs: &[&str], row: &mut [i64]) {
        let Worker {
            lcs,
            tokens,
            c,
            r,
            spans,
            lengths,
        } = w;
        tokens.clear();
        c.clear();
        space_tokens(tokens, hyp, c);
        r.clear();
        spans.clear();
        for reference in refs {
            let start = r.len();
            space_tokens(tokens, reference, r);
            spans.push((start, r.len()));
        }
        // The hypothesis's masks are built once for all the references.
        lengths.clear();
        lcs.lengths_with(c, r, spans, lengths);
        let (mut best_p, mut best_r) = (0i64, (0i64, 1i64));
        let mut best_rec = f64::NEG_INFINITY;
        for (&l, &(start, end)) in lengths.iter().zip(spans.iter()) {
            let (l, len) = (l as i64, (end - start) as i64);
            best_p = best_p.max(l);
            // max(rec): the first of the largest floats.
            let rec = l as f64 / len as f64;
            if rec > best_rec {
                best_rec = rec;
                best_r = (l, len);
            }
        }
        row.copy_from_slice(&[best_p, c.len() as i64, best_r.0, best_r.1]);
    }

    /// The score of one row (`Rouge.calc_score`).
    pub fn row_score(&self, row: &[i64]) -> f64 {
        let prec = row[0] as f64 / row[1] as f64;
        let rec = row[2] as f64 / row[3] as f64;
        if prec != 0.0 && rec != 0.0 {
            ((1.0 + self.beta2) * prec * rec) / (rec + self.beta2 * prec)
        } else {
            0.0
        }
    }

    /// The score of every row, in order.
    pub fn image_scores(&self, rows: &[i64]) -> Result<Vec<f64>, CoreError> {
        check_rows(rows)?;
        Ok(rows
            .chunks_exact(ROW_LEN)
            .map(|r| self.row_score(r))
            .collect())
    }
}

/// The codes of `text.split(" ")`'s tokens, appended to `out` (one copy of the text into the
/// map's arena: see TokenMap::append_arena).
fn space_tokens(tokens: &mut TokenMap, text: &str, out: &mut Vec<u32>) {
    // split(" ") gives one token more than there are spaces.
    let base = tokens.append_arena(text.as_bytes(), text.len() + 1);
    // A byte loop: `str::split(' ')` searched each token's end with a `memchr` call (a fifth
    // of the time, for tokens of a few bytes).
    let mut start = 0;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if b == b' ' {
            out.push(tokens.get_or_insert_arena(base + start, i - start).0);
            start = i + 1;
        }
    }
    out.push(
        tokens
            .get_or_insert_arena(base + start, text.len() - start)
            .0,
    );
}

/// An error unless `rows` are whole rows of LCS lengths at most their sequences' lengths,
/// which are at least 1 (`split(" ")` gives at least one token).
fn check_rows(rows: &[i64]) -> Result<(), CoreError> {
    check_whole(rows.len(), ROW_LEN)?;
    for r in rows.chunks_exact(ROW_LEN) {
        if r[1] < 1 || r[3] < 1 || !(0..=r[1]).contains(&r[0]) || !(0..=r[3]).contains(&r[2]) {
            return Err(CoreError::InvalidInput(format!(
                "COCO ROUGE-L rows are [lcs_p, hyp_len, lcs_r, ref_len] with lengths of at \
                 least 1 and LCS lengths within them; got {r:?}"
            )));
        }
    }
    Ok(())
}

impl Metric for CocoRougeL {
    /// The image scores, in order (their mean is the corpus score).
    type Totals = Vec<f64>;

    fn row_len(&self) -> usize {
        ROW_LEN
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "an image has no reference caption; COCO ROUGE-L needs at least one".into(),
            ));
        }
        self.image_row(hyp, refs, row);
        Ok(())
    }

    fn zero_totals(&self) -> Vec<f64> {
        Vec::new()
    }

    fn add_rows(&self, totals: &mut Vec<f64>, rows: &[i64]) -> Result<(), CoreError> {
        totals.extend(self.image_scores(rows)?);
        Ok(())
    }

    /// `np.mean` of the image scores (NaN for none, as NumPy's mean of nothing).
    fn score(&self, totals: &Vec<f64>) -> f64 {
        np_mean(totals)
    }

    /// Not defined: the corpus score is a mean of image scores, not a function of summed rows.
    fn score_f32(&self, _sums: &[f32]) -> (f64, bool) {
        (f64::NAN, false)
    }

    fn score_rows_f32(&self, _rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        Err(CoreError::InvalidInput(
            "COCO ROUGE-L has no scores of float32 row sums: its corpus score is the mean of \
             the images' scores"
                .into(),
        ))
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        let mut out = parallel::zeroed_on(corpus.len(), ROW_LEN, threads)?;
        parallel::for_each_row_in(
            &WORKERS,
            &mut out,
            ROW_LEN,
            threads,
            Worker::default,
            |w, i, row| self.image_row_with(w, corpus.hyp(i), corpus.refs(i), row),
        );
        Ok(out)
    }

    /// Rows summed column by column mean nothing for ROUGE-L; resampled scores are
    /// [`Metric::bootstrap_scores`] (the mean of each resample's image scores).
    fn bootstrap_sums(
        &self,
        _rows: &[i64],
        _idxs: &[i64],
        _t: Threads,
    ) -> Result<Vec<i64>, CoreError> {
        Err(CoreError::InvalidInput(
            "COCO ROUGE-L rows do not add; resample image scores (bootstrap_scores)".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_on_spaces_only() {
        let m = CocoRougeL::default();
        let mut row = [0; 4];
        // "" is one empty token, which an empty reference matches: a perfect score.
        m.image_row("", &["", "a b"], &mut row);
        assert_eq!(row, [1, 1, 1, 1]);
        assert_eq!(m.row_score(&row), 1.0);
        m.image_row("a  b\tc", &["a b", "x a  b\tc y"], &mut row);
        // hyp tokens: a, "", b\tc; best recall 3/5 beats 1/2.
        assert_eq!(row, [3, 3, 3, 5]);
        let (p, r) = (1.0, 3.0 / 5.0);
        assert_eq!(
            m.row_score(&row),
            ((1.0 + m.beta2) * p * r) / (r + m.beta2 * p)
        );
        assert_eq!(m.beta2, 1.44);
        m.image_row("z", &["a"], &mut row);
        assert_eq!(m.row_score(&row), 0.0);
    }

    #[test]
    fn totals_are_the_scores_in_order() {
        let m = CocoRougeL::default();
        let rows = [1, 2, 1, 3, 2, 2, 2, 2];
        let t = m.totals(&rows).unwrap();
        assert_eq!(t, m.image_scores(&rows).unwrap());
        assert_eq!(m.score(&t), (t[0] + t[1]) / 2.0);
        assert!(m.totals(&[1, 0, 1, 1]).is_err());
        assert!(m.totals(&[2, 1, 1, 1]).is_err());
        assert!(m.bootstrap_sums(&rows, &[0, 1], Threads::ONE).is_err());
    }
}
