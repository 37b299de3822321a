//! METEOR on the [`Metric`] trait, and its token-level entry points.
//!
//! The totals are the sentence scores in segment order and the corpus score is their NumPy
//! mean (evaluate's `meteor`: `np.mean` of `meteor_score` per item), so the totals are not
//! column sums; the trait's float32 score has no oracle here and is NaN, as ROUGE's.

use super::align::Aligner;
use super::layout::{CHUNKS, HYP_LEN, MATCHES, REF_LEN, ROW_LEN};
use super::lower::py_lower_into;
use super::options::MeteorOptions;
use super::score::{np_mean, sentence_score};
use crate::corpus::Corpus;
use crate::engine::parallel::{self, zeroed_on, Threads, WorkerPool};
use crate::error::CoreError;
use crate::metric::Metric;
use crate::text::whitespace::py_split;

/// Workers kept between calls (see [`WorkerPool`]): their caches of words, stems and synonym
/// sets serve the next call.
static WORKERS: WorkerPool<Worker> = WorkerPool::new();

/// Per-worker state: the aligner (with its word, stem and synonym caches) and buffers.
#[derive(Debug, Default)]
pub struct Worker {
    aligner: Aligner,
    hyp: Vec<u32>,
    reference: Vec<u32>,
    lowered: String,
    split: Vec<Vec<String>>,
    /// Per token of the list being read: its hash, or `None` when it is lowercased first.
    hashes: Vec<Option<u64>>,
}

impl Worker {
    /// `preprocess` over `tokens`, as word ids into `out` (a field of `self`, taken).
    ///
    /// Two passes: the words that are their own `str.lower()` are hashed and their table
    /// slots prefetched, then all are looked up (see [`Aligner::prefetch_word`]).
    fn preprocess<S: AsRef<str>>(&mut self, tokens: &[S], lowercase: bool, out: &mut Vec<u32>) {
        out.clear();
        self.hashes.clear();
        for t in tokens {
            let t = t.as_ref();
            // An ASCII word without capitals is its own `str.lower()`: one pass over the
            // bytes for a capital or a non-ASCII byte.
            let lower = lowercase && t.bytes().any(|b| b >= 0x80 || b.is_ascii_uppercase());
            self.hashes.push(if lower {
                None
            } else {
                Some(self.aligner.prefetch_word(t))
            });
        }
        for (t, h) in tokens.iter().zip(&self.hashes) {
            let t = t.as_ref();
            let id = match *h {
                Some(h) => self.aligner.word_id_hashed(t, h),
                None => {
                    py_lower_into(t, &mut self.lowered);
                    self.aligner.word_id(&self.lowered)
                }
            };
            out.push(id);
        }
    }
}

impl MeteorOptions {
    /// The row of `meteor_score(references, hypothesis)` on tokens into `row` (`ROW_LEN`
    /// values): the statistics of the first reference with the highest sentence score.
    ///
    /// Errors: [`CoreError::MissingReference`] without references (NLTK's `max()` of nothing
    /// raises `ValueError`).
    pub fn tokens_row<S: AsRef<str>, R: AsRef<[S]>>(
        &self,
        w: &mut Worker,
        hyp: &[S],
        refs: &[R],
        row: &mut [i64],
    ) -> Result<(), CoreError> {
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "meteor_score needs at least one reference per hypothesis".into(),
            ));
        }
        let wordnet = self.wordnet;
        w.aligner.prepare(self.stem, wordnet);
        let mut ids = std::mem::take(&mut w.hyp);
        w.preprocess(hyp, self.lowercase, &mut ids);
        w.hyp = ids;
        let mut best: Option<f64> = None;
        for r in refs {
            let r = r.as_ref();
            let mut ids = std::mem::take(&mut w.reference);
            w.preprocess(r, self.lowercase, &mut ids);
            w.reference = ids;
            let (matches, chunks) = w.aligner.align(&w.hyp, &w.reference, self.stem, wordnet);
            let cand = [matches, chunks, hyp.len() as i64, r.len() as i64];
            let score = sentence_score(&cand, self.alpha, self.beta, self.gamma);
            // Python's `max`: a later value replaces the kept one only when greater.
            if best.is_none_or(|b| score > b) {
                best = Some(score);
                row[..ROW_LEN].copy_from_slice(&cand);
            }
        }
        Ok(())
    }

    /// `meteor_score(references, hypothesis)` on tokens.
    pub fn tokens_score<S: AsRef<str>, R: AsRef<[S]>>(
        &self,
        w: &mut Worker,
        hyp: &[S],
        refs: &[R],
    ) -> Result<f64, CoreError> {
        let mut row = [0i64; ROW_LEN];
        self.tokens_row(w, hyp, refs, &mut row)?;
        Ok(self.row_score(&row))
    }

    /// The sentence score of a row.
    pub fn row_score(&self, row: &[i64]) -> f64 {
        sentence_score(row, self.alpha, self.beta, self.gamma)
    }

    /// Rows of every segment of tokenized input (`hyps[i]` against `refs[i]`), on `threads`
    /// threads.
    pub fn tokens_rows<S, H, R, G>(
        &self,
        hyps: &[H],
        refs: &[G],
        threads: Threads,
    ) -> Result<Vec<i64>, CoreError>
    where
        S: AsRef<str> + Sync,
        H: AsRef<[S]> + Sync,
        R: AsRef<[S]> + Sync,
        G: AsRef<[R]> + Sync,
    {
        if hyps.len() != refs.len() {
            return Err(CoreError::InvalidInput(format!(
                "{} hypotheses but {} reference groups",
                hyps.len(),
                refs.len()
            )));
        }
        let mut out = zeroed_on(hyps.len(), ROW_LEN, threads)?;
        parallel::try_for_each_row_in(
            &WORKERS,
            &mut out,
            ROW_LEN,
            threads,
            Worker::default,
            |w, i, row| self.tokens_row(w, hyps[i].as_ref(), refs[i].as_ref(), row),
        )?;
        Ok(out)
    }

    /// The row of text segments split on whitespace (Python's `str.split()`).
    fn text_row(
        &self,
        w: &mut Worker,
        hyp: &str,
        refs: &[&str],
        row: &mut [i64],
    ) -> Result<(), CoreError> {
        let hyp: Vec<&str> = py_split(hyp).collect();
        let mut split = std::mem::take(&mut w.split);
        split.resize_with(refs.len(), Vec::new);
        for (s, r) in split.iter_mut().zip(refs) {
            s.clear();
            s.extend(py_split(r).map(String::from));
        }
        let hyp: Vec<String> = hyp.into_iter().map(String::from).collect();
        let result = self.tokens_row(w, &hyp, &split[..refs.len()], row);
        w.split = split;
        result
    }
}

impl Metric for MeteorOptions {
    /// The sentence scores, in segment order.
    type Totals = Vec<f64>;

    fn row_len(&self) -> usize {
        ROW_LEN
    }

    /// Text is split on whitespace (Python's `str.split()`); other tokenizers are the caller's
    /// ([`MeteorOptions::tokens_rows`]).
    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        self.text_row(&mut Worker::default(), hyp, refs, row)
    }

    fn zero_totals(&self) -> Vec<f64> {
        Vec::new()
    }

    fn add_rows(&self, totals: &mut Vec<f64>, rows: &[i64]) -> Result<(), CoreError> {
        crate::metric::check_whole(rows.len(), ROW_LEN)?;
        crate::error::reserve(totals, rows.len() / ROW_LEN)?;
        for row in rows.chunks_exact(ROW_LEN) {
            if row[MATCHES] < 0 || row[CHUNKS] < 0 || row[HYP_LEN] < 0 || row[REF_LEN] < 0 {
                return Err(CoreError::InvalidInput(format!(
                    "a METEOR row holds a negative count: {row:?}"
                )));
            }
            totals.push(self.row_score(row));
        }
        Ok(())
    }

    /// evaluate's `np.mean` of the sentence scores.
    fn score(&self, totals: &Vec<f64>) -> f64 {
        np_mean(totals)
    }

    fn score_f32(&self, _sums: &[f32]) -> (f64, bool) {
        (f64::NAN, false)
    }

    fn corpus_stats(&self, corpus: &Corpus<&str>, threads: Threads) -> Result<Vec<i64>, CoreError> {
        let mut out = zeroed_on(corpus.len(), ROW_LEN, threads)?;
        parallel::try_for_each_row_in(
            &WORKERS,
            &mut out,
            ROW_LEN,
            threads,
            Worker::default,
            |w, i, row| self.text_row(w, corpus.hyp(i), corpus.refs(i), row),
        )?;
        Ok(out)
    }
}
