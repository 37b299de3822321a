//! COCO's BLEU-1..n as pycocoevalcap 1.2's `Bleu(n).compute_score` computes it
//! (`bleu_scorer.py`): rows `[testlen, reflen, guess_1..n, correct_1..n]` per image, with the
//! closest reference length (ties to the shorter), and every score of a row or of summed rows
//! with `tiny = 1e-15`, `small = 1e-9` and the brevity penalty in the scorer's float order.
//!
//! Rows add: `BleuScorer.compute_score` sums `testlen`, `reflen`, `guess` and `correct` over
//! images as Python integers and scores the sums with the same formula it applies to each
//! image, so an image's scores are the corpus scores of its row alone.

use super::grams::ImageGrams;
use super::numeric::py_pow;
use crate::corpus::Corpus;
use crate::engine::parallel::{self, Threads, WorkerPool};
use crate::error::{zeroed, CoreError};
use crate::metric::{add_columns, check_whole, Metric};

/// `BleuScorer.compute_score`'s `tiny`, added to every match count.
pub const TINY: f64 = 1e-15;
/// `BleuScorer.compute_score`'s `small`, added to every n-gram count and reference length.
pub const SMALL: f64 = 1e-9;
/// pycocoevalcap counts n-grams up to this order whatever `n` (`cook_refs` and `cook_test` are
/// called with their default `n=4`), so `Bleu(n)` with `n > 4` raises `IndexError` there.
pub const MAX_ORDER: usize = 4;

/// A worker's scratch space, reused across images.
#[derive(Default)]
struct Worker {
    grams: ImageGrams,
    toks: Vec<u32>,
    /// The hypothesis's n-gram codes.
    codes: Vec<u32>,
    /// A reference's n-gram codes ([`super::grams::NO_PREFIX`] for those the hypothesis lacks).
    ref_codes: Vec<u32>,
    ref_lens: Vec<i64>,
    /// Per hypothesis n-gram code (and one for every other n-gram): the most times one
    /// reference holds it (zero between images).
    max_counts: Vec<u32>,
    /// Per n-gram code as in `max_counts`: occurrences in the caption being counted (zero
    /// between captions).
    counts: Vec<u32>,
}

/// COCO BLEU's options: BLEU-1..`n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CocoBleu {
    n: usize,
}

impl CocoBleu {
    /// BLEU-1..`n`, `n` in `1..=4` (`Bleu(n)`; `Bleu()` is `n = 4`).
    pub fn new(n: usize) -> Result<Self, CoreError> {
        if !(1..=MAX_ORDER).contains(&n) {
            return Err(CoreError::InvalidOption(format!(
                "COCO BLEU's n must be 1, 2, 3 or 4 (pycocoevalcap counts n-grams up to 4), \
                 got {n}"
            )));
        }
        Ok(CocoBleu { n })
    }

    /// The highest order.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The statistics row of one image: `[testlen, reflen, guess_1..n, correct_1..n]`
    /// (`cook_test` with `eff="closest"`), into `row` (any values; every one is written).
    pub fn image_row(&self, hyp: &str, refs: &[&str], row: &mut [i64]) {
        self.image_row_with(&mut Worker::default(), hyp, refs, row);
    }

    /// [`CocoBleu::image_row`] with a worker's scratch space.
    ///
    /// Performance decision: only the hypothesis's n-grams are coded. `cook_test` counts
    /// `min(refmaxcounts.get(ngram, 0), count)` over the hypothesis's n-grams, so a reference's
    /// other n-grams never count: the references are looked up in the hypothesis's tables (no
    /// insertion, tables a fifth of the size) and their unknown n-grams go to one spare count.
    fn image_row_with(&self, w: &mut Worker, hyp: &str, refs: &[&str], row: &mut [i64]) {
        let n = self.n;
        let Worker {
            grams,
            toks,
            codes,
            ref_codes,
            ref_lens,
            max_counts,
            counts,
        } = w;
        grams.clear();
        grams.tokens(hyp, toks);
        let testlen = toks.len();
        grams.ngrams(toks, n, codes);
        // Codes 0..m are the hypothesis's n-grams; m counts every other n-gram.
        let m = grams.len();
        if counts.len() <= m {
            counts.resize(m + 1, 0);
            max_counts.resize(m + 1, 0);
        }
        // cook_refs: every reference's length and the most times each n-gram occurs in one.
        ref_lens.clear();
        for r in refs {
            grams.known_tokens(r, toks);
            ref_lens.push(toks.len() as i64);
            grams.known_ngrams(toks, n, ref_codes);
            // The running count's maximum is the final count: one pass for both.
            for &c in ref_codes.iter() {
                let c = (c as usize).min(m);
                counts[c] += 1;
                max_counts[c] = max_counts[c].max(counts[c]);
            }
            for &c in ref_codes.iter() {
                counts[(c as usize).min(m)] = 0;
            }
        }
        row[2..].fill(0);
        // correct[k] += min(refmaxcounts.get(ngram, 0), count), once per distinct n-gram:
        // the same as clipping each occurrence against what is left of the reference's count.
        let mut start = 0;
        for k in 0..n.min(testlen) {
            let len = testlen - k;
            let mut correct = 0;
            for &c in &codes[start..start + len] {
                let seen = &mut counts[c as usize];
                *seen += 1;
                correct += i64::from(*seen <= max_counts[c as usize]);
            }
            row[2 + n + k] = correct;
            start += len;
        }
        // Leave the scratch zeroed for the next image.
        for &c in codes.iter() {
            counts[c as usize] = 0;
        }
        max_counts[..=m].fill(0);
        // min((abs(l - testlen), l) for l in reflen)[1]: the closest, ties to the shorter.
        let testlen = testlen as i64;
        let reflen = ref_lens
            .iter()
            .copied()
            .min_by_key(|&l| ((l - testlen).abs(), l))
            .unwrap_or(0);
        row[0] = testlen;
        row[1] = reflen;
        for k in 0..n {
            row[2 + k] = (testlen - k as i64).max(0);
        }
    }

    /// BLEU-1..n of a row or of summed rows (`compute_score`'s per-image and corpus formula),
    /// into `out` (`n` values).
    pub fn scores_into(&self, totals: &[i64], out: &mut [f64]) {
        let n = self.n;
        let (testlen, reflen) = (totals[0], totals[1]);
        let mut bleu = 1.0f64;
        for k in 0..n {
            // float(correct) + tiny, over guess + small; then bleu ** (1./(k+1)).
            let correct = totals[2 + n + k] as f64 + TINY;
            let guess = totals[2 + k] as f64 + SMALL;
            bleu *= correct / guess;
            out[k] = py_pow(bleu, 1.0 / (k + 1) as f64);
        }
        let ratio = (testlen as f64 + TINY) / (reflen as f64 + SMALL);
        if ratio < 1.0 {
            for v in out.iter_mut().take(n) {
                *v *= (1.0 - 1.0 / ratio).exp();
            }
        }
    }

    /// BLEU-1..n of a row or of summed rows.
    pub fn scores(&self, totals: &[i64]) -> Vec<f64> {
        let mut out = vec![0.0; self.n];
        self.scores_into(totals, &mut out);
        out
    }

    /// BLEU-1..n of every row (`n` values per row, row-major): `compute_score`'s `bleu_list`
    /// transposed.
    pub fn image_scores(&self, rows: &[i64]) -> Result<Vec<f64>, CoreError> {
        let w = Metric::row_len(self);
        check_whole(rows.len(), w)?;
        let mut out = zeroed(rows.len() / w, self.n)?;
        for (row, o) in rows.chunks_exact(w).zip(out.chunks_exact_mut(self.n)) {
            self.scores_into(row, o);
        }
        Ok(out)
    }
}

/// Workers kept between calls (see [`WorkerPool`]).
static WORKERS: WorkerPool<Worker> = WorkerPool::new();

impl Metric for CocoBleu {
    type Totals = Vec<i64>;

    fn row_len(&self) -> usize {
        2 + 2 * self.n
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "an image has no reference caption; COCO BLEU needs at least one".into(),
            ));
        }
        self.image_row(hyp, refs, row);
        Ok(())
    }

    fn zero_totals(&self) -> Vec<i64> {
        vec![0; Metric::row_len(self)]
    }

    fn add_rows(&self, totals: &mut Vec<i64>, rows: &[i64]) -> Result<(), CoreError> {
        add_columns(totals, rows)
    }

    /// BLEU-n (the last of [`CocoBleu::scores`]).
    fn score(&self, totals: &Vec<i64>) -> f64 {
        self.scores(totals)[self.n - 1]
    }

    /// Not defined: no oracle scores COCO BLEU from float32 sums (pycocoevalcap has no
    /// significance test). NaN; resampled scores come from exact integer sums
    /// ([`Metric::bootstrap_scores`]).
    fn score_f32(&self, _sums: &[f32]) -> (f64, bool) {
        (f64::NAN, false)
    }

    fn score_rows_f32(&self, _rows: &[f32]) -> Result<(Vec<f64>, bool), CoreError> {
        Err(CoreError::InvalidInput(
            "COCO BLEU has no scores of float32 row sums (no oracle defines them); resample \
             the integer rows instead"
                .into(),
        ))
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        let w = Metric::row_len(self);
        let mut out = parallel::zeroed_on(corpus.len(), w, threads)?;
        parallel::for_each_row_in(
            &WORKERS,
            &mut out,
            w,
            threads,
            Worker::default,
            |wk, i, row| self.image_row_with(wk, corpus.hyp(i), corpus.refs(i), row),
        );
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_cook_test() {
        let b = CocoBleu::new(4).unwrap();
        let mut row = vec![9; 10];
        b.image_row("a a a b", &["a b c", "a a x y z"], &mut row);
        // testlen 4, closest of 3 and 5: both 1 away, the shorter. a: min(3, 2) + b: 1;
        // "a a": min(2, 1) + "a b": 1.
        assert_eq!(row, [4, 3, 4, 3, 2, 1, 3, 2, 0, 0]);
        b.image_row("", &["a"], &mut row);
        assert_eq!(row, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
        // An empty hypothesis scores 0 (the brevity penalty underflows), as in pycocoevalcap.
        assert_eq!(b.scores(&row), [0.0; 4]);
        assert!(CocoBleu::new(0).is_err() && CocoBleu::new(5).is_err());
    }

    #[test]
    fn rows_add_and_score_as_the_corpus() {
        let b = CocoBleu::new(2).unwrap();
        let mut r1 = vec![0; 6];
        let mut r2 = vec![0; 6];
        b.image_row("a b", &["a b"], &mut r1);
        b.image_row("c", &["c d e"], &mut r2);
        let t = b.totals(&[r1.clone(), r2].concat()).unwrap();
        assert_eq!(t, [3, 5, 3, 1, 3, 1]);
        let s = b.scores(&t);
        let bp = (1.0 - 1.0 / ((3.0 + TINY) / (5.0 + SMALL))).exp();
        assert_eq!(s[0], py_pow((3.0 + TINY) / (3.0 + SMALL), 1.0) * bp);
        assert_eq!(b.score(&t), s[1]);
        assert!(b.score_rows_f32(&[0.0; 6]).is_err());
    }
}
