//! Per-segment sufficient statistics over a corpus, in parallel.
//!
//! Output layout is sacreBLEU's (`BLEU._compute_segment_statistics`): one row
//! `[hyp_len, ref_len, correct_1..N, total_1..N]` per segment, rows stored contiguously.
//! Rows are independent, so any split of the corpus over threads gives identical rows.

use crate::error::CoreError;
use crate::ngram::{RefTable, Scratch};
use crate::parallel::{for_each_row, map_collect};
use crate::score::{bleu_score, BleuParams};
use crate::tokenize::{TokBuf, Tokenizer};
use crate::whitespace::py_rstrip;

/// How segments are turned into tokens and counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsOptions {
    /// The Rust tokenizer (MeCab/SentencePiece output arrives pre-tokenized, with `None`).
    pub tokenizer: Tokenizer,
    /// Lowercase ASCII letters. Non-ASCII text must already have been lowercased with
    /// Python's `str.lower()` by the caller (its Unicode version is the interpreter's).
    pub lowercase_ascii: bool,
    /// Highest n-gram order, at least 1.
    pub max_order: usize,
}

impl StatsOptions {
    /// Checks the options.
    pub fn new(
        tokenizer: Tokenizer,
        lowercase_ascii: bool,
        max_order: usize,
    ) -> Result<Self, CoreError> {
        if max_order < 1 {
            return Err(CoreError::InvalidOption(format!(
                "max_ngram_order must be a positive integer, got {max_order}"
            )));
        }
        Ok(StatsOptions {
            tokenizer,
            lowercase_ascii,
            max_order,
        })
    }

    /// Number of statistics per segment: `2 + 2 * max_order`.
    pub fn row_len(&self) -> usize {
        2 + 2 * self.max_order
    }
}

/// Tokenizer state of one worker: `BLEU._preprocess_segment` then `str.split()`.
#[derive(Default, Debug)]
pub(crate) struct TokState {
    lower: String,
    buf: TokBuf,
    ranges: Vec<(u32, u32)>,
}

impl TokState {
    /// The tokenizer output for `text` and the byte ranges of its tokens in it.
    pub(crate) fn tokenize<'s>(
        &'s mut self,
        text: &str,
        opts: &StatsOptions,
    ) -> (&'s [u8], &'s [(u32, u32)]) {
        let text = if opts.lowercase_ascii && text.bytes().any(|b| b.is_ascii_uppercase()) {
            self.lower.clear();
            self.lower.push_str(text);
            self.lower.make_ascii_lowercase();
            self.lower.as_str()
        } else {
            text
        };
        let bytes = opts
            .tokenizer
            .tokens(py_rstrip(text), &mut self.buf, &mut self.ranges);
        (bytes, &self.ranges)
    }
}

/// One worker's reusable buffers.
#[derive(Default, Debug)]
pub struct Worker {
    tok: TokState,
    table: RefTable,
    scratch: Scratch,
}

/// Tokenizes `refs` into `table` (emptied first).
fn intern_references(
    tok: &mut TokState,
    scratch: &mut Scratch,
    refs: &[&str],
    opts: &StatsOptions,
    table: &mut RefTable,
) {
    table.clear();
    for r in refs {
        let (bytes, ranges) = tok.tokenize(r, opts);
        table.intern_reference_ranges(bytes, ranges, scratch);
    }
}

impl Worker {
    /// Statistics of one segment into `row`.
    pub fn segment(&mut self, hyp: &str, refs: &[&str], opts: &StatsOptions, row: &mut [i64]) {
        // Borrowing the fields apart (rather than taking the table out of `self`, which would
        // leave a freshly allocated default table behind) keeps the steady state allocation-free.
        let Worker {
            tok,
            table,
            scratch,
        } = self;
        intern_references(tok, scratch, refs, opts, table);
        self.match_interned(hyp, opts, row);
    }

    /// Statistics of one hypothesis against cached tokenized references.
    fn segment_cached(
        &mut self,
        hyp: &str,
        seg: &CachedSegment,
        opts: &StatsOptions,
        row: &mut [i64],
    ) {
        self.table.clear();
        for (bytes, ranges) in seg.references() {
            self.table
                .intern_reference_ranges(bytes, ranges, &mut self.scratch);
        }
        self.match_interned(hyp, opts, row);
    }

    /// Counts the interned references (only n-grams the hypothesis can match) and matches.
    fn match_interned(&mut self, hyp: &str, opts: &StatsOptions, row: &mut [i64]) {
        let (bytes, ranges) = self.tok.tokenize(hyp, opts);
        self.table
            .lookup_hypothesis_ranges(bytes, ranges, &mut self.scratch);
        self.table
            .count_references(opts.max_order, &mut self.scratch);
        self.table.match_hypothesis(row, &mut self.scratch);
    }
}

/// The references of every segment, flat: segment `i` has `texts[offsets[i]..offsets[i + 1]]`
/// (its non-`None` references, in stream order). One allocation for a whole corpus.
#[derive(Clone, Debug, Default)]
pub struct RefSets<'a> {
    texts: Vec<&'a str>,
    offsets: Vec<usize>,
}

impl<'a> RefSets<'a> {
    /// An empty set of segments.
    pub fn new() -> Self {
        RefSets {
            texts: Vec::new(),
            offsets: vec![0],
        }
    }

    /// Appends a reference to the segment being built.
    pub fn push_ref(&mut self, text: &'a str) {
        self.texts.push(text);
    }

    /// Closes the segment being built.
    pub fn end_segment(&mut self) {
        self.offsets.push(self.texts.len());
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no segment.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The references of segment `i`.
    pub fn get(&self, i: usize) -> &[&'a str] {
        &self.texts[self.offsets[i]..self.offsets[i + 1]]
    }

    pub(crate) fn check_nonempty(&self) -> Result<(), CoreError> {
        match (0..self.len()).find(|&i| self.get(i).is_empty()) {
            Some(i) => Err(no_reference(i)),
            None => Ok(()),
        }
    }
}

impl<'a> FromIterator<Vec<&'a str>> for RefSets<'a> {
    fn from_iter<T: IntoIterator<Item = Vec<&'a str>>>(iter: T) -> Self {
        let mut r = RefSets::new();
        for seg in iter {
            seg.into_iter().for_each(|t| r.push_ref(t));
            r.end_segment();
        }
        r
    }
}

/// Statistics of a corpus: `hyps[i]` against `refs.get(i)` (at least one reference per
/// segment), rows written into `out` (`hyps.len() * opts.row_len()` values).
pub fn corpus_stats(
    hyps: &[&str],
    refs: &RefSets<'_>,
    opts: &StatsOptions,
    threads: usize,
    out: &mut [i64],
) -> Result<(), CoreError> {
    check_corpus(hyps, refs, opts)?;
    check_output(out.len(), hyps.len() * opts.row_len())?;
    for_each_row(
        out,
        opts.row_len(),
        threads,
        Worker::default,
        |w, i, row| w.segment(hyps[i], refs.get(i), opts, row),
    );
    Ok(())
}

/// Token offsets and n-gram ids are `u32` (half the memory traffic of `usize`), so a segment
/// may hold at most this many bytes times the n-gram order (a 1 GiB segment at order 4): far
/// beyond any real sentence, and checked so that a giant input is an error, not a wrong count.
const MAX_SEGMENT_WORK: usize = (u32::MAX - 2) as usize;

fn check_segment_sizes(
    mut segments: impl Iterator<Item = (usize, usize)>,
    opts: &StatsOptions,
) -> Result<(), CoreError> {
    // 13a can triple the text, so allow for that in the budget.
    match segments.find(|&(_, bytes)| bytes.saturating_mul(3 * opts.max_order) > MAX_SEGMENT_WORK) {
        Some((i, bytes)) => Err(CoreError::InvalidInput(format!(
            "segment {i} holds {bytes} bytes of text, more than rapidbleu can count at \
             max_ngram_order {}; split it into sentences",
            opts.max_order
        ))),
        None => Ok(()),
    }
}

fn segment_bytes(hyp: Option<&str>, refs: &[&str]) -> usize {
    hyp.map_or(0, str::len) + refs.iter().map(|r| r.len()).sum::<usize>()
}

/// Sentence BLEU of every segment, scored inside the parallel statistics pass: no statistics
/// array and no second pass (the batched form of `BLEU.sentence_score`, e.g. for RL rewards).
pub fn sentence_scores(
    hyps: &[&str],
    refs: &RefSets<'_>,
    opts: &StatsOptions,
    params: &BleuParams,
    threads: usize,
    out: &mut [f64],
) -> Result<(), CoreError> {
    if params.max_order != opts.max_order {
        return Err(CoreError::InvalidOption(format!(
            "scoring order {} differs from counting order {}",
            params.max_order, opts.max_order
        )));
    }
    check_corpus(hyps, refs, opts)?;
    check_output(out.len(), hyps.len())?;
    let init = || (Worker::default(), vec![0i64; opts.row_len()]);
    for_each_row(out, 1, threads, init, |(w, row), i, score| {
        w.segment(hyps[i], refs.get(i), opts, row);
        let (c, t) = row[2..].split_at(opts.max_order);
        score[0] = bleu_score(c, t, row[0], row[1], params);
    });
    Ok(())
}

fn no_reference(i: usize) -> CoreError {
    CoreError::MissingReference(format!(
        "segment {i} has no reference: every reference stream is None there; \
         give at least one reference string per segment (an empty string is allowed)"
    ))
}

/// The checks shared by every corpus entry point: one reference set per hypothesis, at least
/// one reference in each, no segment too large to count.
fn check_corpus(hyps: &[&str], refs: &RefSets<'_>, opts: &StatsOptions) -> Result<(), CoreError> {
    check_lengths(hyps.len(), refs.len())?;
    refs.check_nonempty()?;
    check_segment_sizes(
        (0..hyps.len()).map(|i| (i, segment_bytes(Some(hyps[i]), refs.get(i)))),
        opts,
    )
}

pub(crate) fn check_lengths(n_hyps: usize, n_refs: usize) -> Result<(), CoreError> {
    if n_hyps != n_refs {
        return Err(CoreError::InvalidInput(format!(
            "{n_hyps} hypotheses but references for {n_refs} segments; they must be equal"
        )));
    }
    Ok(())
}

pub(crate) fn check_output(len: usize, expected: usize) -> Result<(), CoreError> {
    if len != expected {
        return Err(CoreError::InvalidInput(format!(
            "output buffer holds {len} values, expected {expected}"
        )));
    }
    Ok(())
}

/// One segment's references, tokenized: their tokenizer outputs back to back, the byte
/// ranges of their tokens (relative to each reference's start), and where each reference ends.
#[derive(Debug)]
struct CachedSegment {
    bytes: Box<[u8]>,
    ranges: Box<[(u32, u32)]>,
    /// `(end in bytes, end in ranges)` of each reference.
    ends: Box<[(u32, u32)]>,
}

impl CachedSegment {
    fn new(tok: &mut TokState, refs: &[&str], opts: &StatsOptions) -> Self {
        let (mut bytes, mut ranges, mut ends) = (Vec::new(), Vec::new(), Vec::new());
        for r in refs {
            let (b, rs) = tok.tokenize(r, opts);
            // The buffer has slack after its tokens, which is not kept. (13a's ranges are not
            // in buffer order: words it rewrites are written after the others.)
            let used = rs.iter().map(|&(_, end)| end as usize).max().unwrap_or(0);
            bytes.extend_from_slice(&b[..used]);
            ranges.extend_from_slice(rs);
            ends.push((bytes.len() as u32, ranges.len() as u32));
        }
        CachedSegment {
            bytes: bytes.into(),
            ranges: ranges.into(),
            ends: ends.into(),
        }
    }

    /// Each reference's tokenizer output and token ranges.
    fn references(&self) -> impl Iterator<Item = (&[u8], &[(u32, u32)])> {
        let starts = std::iter::once((0, 0)).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|((b0, r0), &(b1, r1))| {
            (
                &self.bytes[b0 as usize..b1 as usize],
                &self.ranges[r0 as usize..r1 as usize],
            )
        })
    }
}

/// References tokenized once, reused across many hypothesis sets (sacreBLEU's
/// `BLEU(references=...)` cache).
///
/// Performance decision: the cache keeps the tokenizer output, not counted n-gram tables.
/// Tables of every n-gram of every reference cost about 5 KB a segment and, scattered over
/// memory, were slower to match against than counting afresh with the hypothesis known (only
/// n-grams made of hypothesis tokens are counted); tokenization is the part worth caching.
#[derive(Debug)]
pub struct RefCache {
    opts: StatsOptions,
    segments: Vec<CachedSegment>,
}

impl RefCache {
    /// Tokenizes the references of every segment once.
    pub fn new(refs: &RefSets<'_>, opts: StatsOptions, threads: usize) -> Result<Self, CoreError> {
        refs.check_nonempty()?;
        check_segment_sizes(
            (0..refs.len()).map(|i| (i, segment_bytes(None, refs.get(i)))),
            &opts,
        )?;
        let segments = map_collect(refs.len(), threads, TokState::default, |tok, i| {
            CachedSegment::new(tok, refs.get(i), &opts)
        });
        Ok(RefCache { opts, segments })
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether the cache holds no segment.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The options the references were processed with.
    pub fn options(&self) -> &StatsOptions {
        &self.opts
    }

    /// Statistics of `hyps` against the cached references.
    pub fn stats(&self, hyps: &[&str], threads: usize, out: &mut [i64]) -> Result<(), CoreError> {
        check_lengths(hyps.len(), self.segments.len())?;
        check_output(out.len(), hyps.len() * self.opts.row_len())?;
        check_segment_sizes(hyps.iter().map(|h| h.len()).enumerate(), &self.opts)?;
        let opts = &self.opts;
        for_each_row(
            out,
            opts.row_len(),
            threads,
            Worker::default,
            |w, i, row| w.segment_cached(hyps[i], &self.segments[i], opts, row),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_equals_uncached_and_threads_agree() {
        let hyps = [
            "The cat sat on the mat.",
            "Hello, World!",
            "",
            "a b c d",
            "Prices rose 3.5% to 1,000.50-2,000, i.e. a lot.",
        ];
        let refs: RefSets = vec![
            vec!["The cat is on the mat.", "There is a cat on the mat."],
            vec!["hello world !"],
            vec![""],
            vec!["a b c d", "a b"],
            // Words 13a rewrites (inner `.`/`,`, `-` after a digit) end its output buffer.
            vec![
                "Prices rose by 3.5% to 1,000.50-2,000.",
                "i.e. 1,000-2,000 x",
            ],
        ]
        .into_iter()
        .collect();
        let opts = StatsOptions::new(Tokenizer::T13a, true, 4).unwrap();
        let mut a = vec![0; hyps.len() * opts.row_len()];
        corpus_stats(&hyps, &refs, &opts, 1, &mut a).unwrap();
        let cache = RefCache::new(&refs, opts, 2).unwrap();
        let mut b = vec![0; hyps.len() * opts.row_len()];
        cache.stats(&hyps, 2, &mut b).unwrap();
        assert_eq!(a, b);
        // sacreBLEU 2.6.0: BLEU(lowercase=True)._extract_corpus_statistics(hyps, refs)
        let expected: Vec<i64> = vec![
            7, 7, 6, 4, 2, 1, 7, 6, 5, 4, 4, 3, 3, 1, 0, 0, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 4, 4, 4, 3, 2, 1, 4, 3, 2, 1, 16, 10, 12, 9, 6, 4, 16, 15, 14, 13,
        ];
        assert_eq!(a, expected);
    }

    #[test]
    fn fused_sentence_scores_equal_scored_rows() {
        use crate::score::{score_rows, Smooth, Summation};
        let hyps: Vec<String> = (0..300)
            .map(|i| format!("a b c {} d e. f", i % 7))
            .collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs: RefSets = (0..300)
            .map(|i| {
                if i % 3 == 0 {
                    vec!["a b c 1 d e.", "f a b"]
                } else {
                    vec!["x b c 2 d"]
                }
            })
            .collect();
        let opts = StatsOptions::new(Tokenizer::T13a, false, 4).unwrap();
        let params = BleuParams {
            smooth: Smooth::Exp,
            effective_order: true,
            max_order: 4,
            summation: Summation::Plain,
        };
        let mut stats = vec![0; 300 * opts.row_len()];
        corpus_stats(&hyps, &refs, &opts, 2, &mut stats).unwrap();
        let mut expected = vec![0.0; 300];
        score_rows(&stats, &params, &mut expected).unwrap();
        for threads in [1, 2] {
            let mut got = vec![0.0; 300];
            sentence_scores(&hyps, &refs, &opts, &params, threads, &mut got).unwrap();
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn errors() {
        let opts = StatsOptions::new(Tokenizer::T13a, false, 4).unwrap();
        let mut out = vec![0; opts.row_len()];
        let none: RefSets = vec![vec![]].into_iter().collect();
        assert!(corpus_stats(&["a"], &none, &opts, 1, &mut out).is_err());
        let one: RefSets = vec![vec!["a"]].into_iter().collect();
        assert!(corpus_stats(&["a", "b"], &one, &opts, 1, &mut out).is_err());
        assert!(StatsOptions::new(Tokenizer::T13a, false, 0).is_err());
    }
}
