//! The `rouge` package 1.0.1 (pltrdy, `rouge/rouge.py` + `rouge/rouge_score.py`) and its fork
//! `rouge-chinese` 1.0.3, exact: `Rouge(metrics, stats, return_lengths, raw_results,
//! exclusive).get_scores(hyps, refs, avg, ignore_empty)` on one reference per hypothesis.
//!
//! The two differ in two places only: the sentence splitter ([`Splitter`]) and ROUGE-L
//! (`rouge`: summary-level union LCS over sentences, [`super::recon`]; `rouge-chinese`: the
//! plain LCS of all words, `_len_lcs`, with every word counted and `exclusive` ignored).
//!
//! A row per item holds, per metric, the package's raw results `[hyp, ref, overlap]`
//! (`raw_results=True`), then `[hyp_words, ref_words, empty, depth]`: the `return_lengths`
//! counts, which of the two texts has no sentence (bit 1: the hypothesis, bit 2: the
//! reference; the package raises `ValueError`), and `_recon`'s deepest recursion (see
//! [`super::recon::Summary::depth`]). Scores and averages are computed from rows in the
//! package's float order ([`f_p_r`], [`average`]).

use super::ngrams::NgramCounts;
use super::recon::UnionLcs;
use super::sentences::{read, CutBuf, SentDoc, Splitter, WordIds};
use crate::engine::parallel::{for_each_row_in, Threads, WorkerPool};
use crate::error::{zeroed, CoreError};
use crate::rouge::lcs::LcsBuf;

/// One of the package's metrics (`Rouge.AVAILABLE_METRICS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PltrdyMetric {
    /// `rouge-1` .. `rouge-5`: `rouge_n`.
    N(usize),
    /// `rouge-l`: `rouge_l_summary_level`.
    L,
}

impl PltrdyMetric {
    /// Parses the package's spelling after its `m.lower()` (`rouge-1` .. `rouge-5`,
    /// `rouge-l`).
    pub fn parse(name: &str) -> Result<Self, CoreError> {
        match name {
            "rouge-l" => Ok(PltrdyMetric::L),
            _ => match name.strip_prefix("rouge-").map(str::as_bytes) {
                Some([d @ b'1'..=b'5']) => Ok(PltrdyMetric::N(usize::from(d - b'0'))),
                _ => Err(CoreError::InvalidOption(format!(
                    "Unknown metric '{}' (allowed: rouge-1 .. rouge-5, rouge-l)",
                    crate::error::py_str(name)
                ))),
            },
        }
    }
}

/// Columns after the metrics' triples: `hyp_words, ref_words, empty, depth`.
pub const EXTRA: usize = 4;

/// Bit of the `empty` column: the hypothesis has no sentence.
pub const EMPTY_HYP: i64 = 1;
/// Bit of the `empty` column: the reference has no sentence.
pub const EMPTY_REF: i64 = 2;

/// The number of distinct metrics (`rouge-1` .. `rouge-5`, `rouge-l`).
pub const MAX_METRICS: usize = 6;

/// The options of one `Rouge` object that change numbers.
///
/// `Copy` (the metrics in a fixed array), as the glue's metrics are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PltrdyOptions {
    metrics: [PltrdyMetric; MAX_METRICS],
    len: usize,
    /// `exclusive`: n-grams (and `rouge`'s ROUGE-L words) as sets.
    pub exclusive: bool,
    /// Which package: `rouge` ([`Splitter::Period`]) or `rouge-chinese`
    /// ([`Splitter::Chinese`]).
    pub splitter: Splitter,
}

impl PltrdyOptions {
    /// Options from metric names (`None`: `Rouge.DEFAULT_METRICS`, `rouge-1`, `rouge-2`,
    /// `rouge-l`). A repeated name counts once, in the place it first appears: the package
    /// computes it again with the same result, and its result dict keeps one key.
    pub fn new(
        metrics: Option<&[&str]>,
        exclusive: bool,
        splitter: Splitter,
    ) -> Result<Self, CoreError> {
        let parsed: Vec<PltrdyMetric> = match metrics {
            None => vec![PltrdyMetric::N(1), PltrdyMetric::N(2), PltrdyMetric::L],
            Some(names) => names
                .iter()
                .map(|m| PltrdyMetric::parse(m))
                .collect::<Result<_, _>>()?,
        };
        let mut opts = PltrdyOptions {
            metrics: [PltrdyMetric::L; MAX_METRICS],
            len: 0,
            exclusive,
            splitter,
        };
        for m in parsed {
            if !opts.metrics().contains(&m) {
                // At most MAX_METRICS distinct metrics parse, so there is room.
                opts.metrics[opts.len] = m;
                opts.len += 1;
            }
        }
        Ok(opts)
    }

    /// The metrics, in the caller's order.
    pub fn metrics(&self) -> &[PltrdyMetric] {
        &self.metrics[..self.len]
    }

    /// Values per row: a triple per metric and [`EXTRA`].
    pub fn row_len(&self) -> usize {
        3 * self.len + EXTRA
    }

    /// The `ValueError` message the package raises on an item whose `empty` column is
    /// `empty`, or `None` when it scores: the first metric checks first (`rouge_n`: the
    /// hypothesis, then the reference; `rouge_l_summary_level`: both at once).
    pub fn error(&self, empty: i64) -> Option<&'static str> {
        if empty == 0 {
            return None;
        }
        match self.metrics().first() {
            None => None,
            Some(PltrdyMetric::N(_)) if empty & EMPTY_HYP != 0 => Some("Hypothesis is empty."),
            Some(PltrdyMetric::N(_)) => Some("Reference is empty."),
            Some(PltrdyMetric::L) => Some("Collections must contain at least 1 sentence."),
        }
    }

    /// The first item (index, message) on which the package raises, if any.
    pub fn first_error(&self, rows: &[i64]) -> Option<(usize, &'static str)> {
        let width = self.row_len();
        rows.chunks_exact(width)
            .enumerate()
            .find_map(|(i, r)| self.error(r[width - 2]).map(|m| (i, m)))
    }
}

/// `f_r_p_rouge_n` (and `rouge_l_summary_level`'s same formula): `(f, p, r)` from
/// `[hyp, ref, overlap]`, a zero count giving 0.0 and `f = 2.0 * ((p * r) / (p + r + 1e-8))`.
///
/// Example: `f_p_r([4, 2, 2]).1 == 0.5`.
pub fn f_p_r(t: &[i64]) -> (f64, f64, f64) {
    let (hyp, refs, overlap) = (t[0], t[1], t[2]);
    // Python's int / int is correctly rounded, as is f64 division of exactly held integers.
    let p = if hyp == 0 {
        0.0
    } else {
        overlap as f64 / hyp as f64
    };
    let r = if refs == 0 {
        0.0
    } else {
        overlap as f64 / refs as f64
    };
    (2.0 * ((p * r) / (p + r + 1e-8)), p, r)
}

/// A worker's state: the vocabulary and scratch space.
#[derive(Default)]
pub struct Worker {
    ids: WordIds,
    cut: CutBuf,
    hyp: SentDoc,
    refs: SentDoc,
    ngrams: NgramCounts,
    union: UnionLcs,
    lcs: LcsBuf,
}

impl Worker {
    /// Fills `row` with the item `(hyp, reference)`.
    pub fn item(&mut self, opts: &PltrdyOptions, hyp: &str, reference: &str, row: &mut [i64]) {
        self.ids.trim();
        read(
            hyp,
            opts.splitter,
            &mut self.ids,
            &mut self.cut,
            &mut self.hyp,
        );
        read(
            reference,
            opts.splitter,
            &mut self.ids,
            &mut self.cut,
            &mut self.refs,
        );
        let (h, r) = (&self.hyp, &self.refs);
        let empty = i64::from(h.is_empty()) * EMPTY_HYP + i64::from(r.is_empty()) * EMPTY_REF;
        let n = opts.len;
        row[3 * n..].copy_from_slice(&[h.nonempty as i64, r.nonempty as i64, empty, 0]);
        if empty != 0 {
            row[..3 * n].fill(0);
            return;
        }
        let (triples, extra) = row.split_at_mut(3 * n);
        for (m, out) in opts.metrics().iter().zip(triples.chunks_exact_mut(3)) {
            let t = match (m, opts.splitter) {
                (PltrdyMetric::N(k), _) => {
                    self.ngrams.counts(&h.words, &r.words, *k, opts.exclusive)
                }
                (PltrdyMetric::L, Splitter::Chinese) => {
                    let llcs = self.lcs.length(&r.words, &h.words);
                    [h.words.len() as i64, r.words.len() as i64, llcs as i64]
                }
                (PltrdyMetric::L, Splitter::Period) => {
                    let s = self.union.summary(
                        h.sentences(),
                        &h.words,
                        r.sentences(),
                        &r.words,
                        self.ids.len(),
                        opts.exclusive,
                    );
                    extra[3] = extra[3].max(s.depth);
                    [s.hyp, s.refs, s.overlap]
                }
            };
            out.copy_from_slice(&t);
        }
    }
}

/// Spare workers kept between calls (the vocabulary survives for the next batch).
static WORKERS: WorkerPool<Worker> = WorkerPool::new();

/// Rows (`items x row_len`, row-major) of `(hypothesis, reference)` items, in parallel.
pub fn rows(
    opts: &PltrdyOptions,
    items: &[(&str, &str)],
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    let width = opts.row_len();
    let mut out = zeroed(items.len(), width)?;
    for_each_row_in(
        &WORKERS,
        &mut out,
        width,
        threads,
        Worker::default,
        |w, i, row| w.item(opts, items[i].0, items[i].1, row),
    );
    Ok(out)
}

/// The row of one item, on the calling thread.
pub fn item_row(opts: &PltrdyOptions, hyp: &str, reference: &str, row: &mut [i64]) {
    let width = row.len();
    for_each_row_in(
        &WORKERS,
        row,
        width,
        Threads::ONE,
        Worker::default,
        |w, _, r| w.item(opts, hyp, reference, r),
    );
}

/// `Rouge._get_avg_scores`: per metric the `(f, p, r)` sums in item order (from Python's
/// `0`), divided by the count, and the mean `return_lengths` counts (integer sums divided).
#[derive(Clone, Debug, PartialEq)]
pub struct Average {
    /// Per metric `(f, p, r)`.
    pub scores: Vec<(f64, f64, f64)>,
    /// Mean `(hyp, ref)` word counts.
    pub lengths: (f64, f64),
}

/// [`Average`] of rows; an error on no rows (the package divides by zero) or on an item the
/// package raises on.
pub fn average(opts: &PltrdyOptions, rows: &[i64]) -> Result<Average, CoreError> {
    average_repeated(opts, rows, &[])
}

/// [`average`] when the caller's metric list repeats names: `repeats[k]` is how often the
/// `k`-th distinct metric appears (missing: once). `_get_avg_scores` adds a repeated metric's
/// scores once per appearance, item after item (so its "mean" is about that many times the
/// mean), and the float sums must be made in that order.
pub fn average_repeated(
    opts: &PltrdyOptions,
    rows: &[i64],
    repeats: &[usize],
) -> Result<Average, CoreError> {
    let width = opts.row_len();
    crate::metric::check_whole(rows.len(), width)?;
    if rows.is_empty() {
        return Err(CoreError::InvalidInput(
            "no items to average (the package divides by zero)".into(),
        ));
    }
    if let Some((i, m)) = opts.first_error(rows) {
        return Err(CoreError::InvalidInput(format!("item {i}: {m}")));
    }
    let n = opts.len;
    let mut sums = vec![(0.0, 0.0, 0.0); n];
    let (mut hyp_len, mut ref_len) = (0i64, 0i64);
    let mut count = 0i64;
    for row in rows.chunks_exact(width) {
        for (k, (s, t)) in sums.iter_mut().zip(row.chunks_exact(3)).enumerate() {
            let (f, p, r) = f_p_r(t);
            for _ in 0..repeats.get(k).copied().unwrap_or(1) {
                *s = (s.0 + f, s.1 + p, s.2 + r);
            }
        }
        hyp_len += row[3 * n];
        ref_len += row[3 * n + 1];
        count += 1;
    }
    let c = count as f64;
    Ok(Average {
        scores: sums.iter().map(|s| (s.0 / c, s.1 / c, s.2 / c)).collect(),
        lengths: (hyp_len as f64 / c, ref_len as f64 / c),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_readme_example() {
        // rouge 1.0.1's README example, and the numbers the package gives on it.
        let opts = PltrdyOptions::new(None, true, Splitter::Period).unwrap();
        let hyp = "the #### transcript is a written version of each day 's cnn student news \
                   program use this transcript to he lp students with reading comprehension \
                   and vocabulary use the weekly newsquiz to test your knowledge of storie s \
                   you saw on cnn student news";
        let reference = "this page includes the show transcript use the transcript to help \
                         students with reading comprehension and vocabulary at the bottom of the \
                         page , comment for a chance to be mentioned on cnn student news . you \
                         must be a teacher or a student age # # or older to request a mention on \
                         the cnn student news";
        let r = rows(&opts, &[(hyp, reference)], Threads::ONE).unwrap();
        let (f, p, r1) = f_p_r(&r[..3]);
        assert_eq!((f, p, r1), (0.48648648149013884, 0.5, 0.47368421052631576));
        let (f, _, _) = f_p_r(&r[6..9]);
        assert_eq!(f, 0.4054054004090578);
    }

    #[test]
    fn errors_follow_the_first_metric() {
        let o = PltrdyOptions::new(Some(&["rouge-l", "rouge-1"]), true, Splitter::Period).unwrap();
        let r = rows(&o, &[("a", "b"), ("...", "b")], Threads::ONE).unwrap();
        assert_eq!(
            o.first_error(&r),
            Some((1, "Collections must contain at least 1 sentence."))
        );
        let o = PltrdyOptions::new(Some(&["rouge-2"]), true, Splitter::Period).unwrap();
        assert_eq!(o.error(EMPTY_REF), Some("Reference is empty."));
        assert_eq!(o.error(EMPTY_REF | EMPTY_HYP), Some("Hypothesis is empty."));
        assert!(PltrdyMetric::parse("rouge-6").is_err());
        assert!(average(&o, &[]).is_err());
    }
}
