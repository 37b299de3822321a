//! Per-segment statistics over a corpus, in parallel, for every input kind: one [`Worker`] and
//! one counting path for text, token IDs and tokens given as bytes (each a [`Segment`]).
//!
//! Rows have sacreBLEU's layout (`BLEU._compute_segment_statistics`, see
//! [`crate::bleu::layout`]), stored contiguously. Rows are independent, so any split of the
//! corpus over threads gives identical rows.

use crate::bleu::layout::{RowLayout, RowMut};
use crate::bleu::ngram::{RefTable, Scratch};
use crate::bleu::options::{BleuOptions, TextPrep};
use crate::bleu::ref_len::RefLenRule;
use crate::bleu::score::bleu_score;
use crate::corpus::Corpus;
use crate::engine::parallel::{try_for_each_row_in, zeroed_on, Threads, WorkerPool};
use crate::error::CoreError;
use crate::text::tokenize::TokBuf;
use crate::text::whitespace::py_rstrip;

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
        prep: &TextPrep,
    ) -> (&'s [u8], &'s [(u32, u32)]) {
        let text = if prep.lowercase_ascii && text.bytes().any(|b| b.is_ascii_uppercase()) {
            self.lower.clear();
            self.lower.push_str(text);
            self.lower.make_ascii_lowercase();
            self.lower.as_str()
        } else {
            text
        };
        let bytes = prep
            .tokenizer
            .tokens(py_rstrip(text), &mut self.buf, &mut self.ranges);
        (bytes, &self.ranges)
    }
}

/// One worker's reusable buffers: tokenizer state (text), token bytes (pre-tokenised tokens),
/// the reference table and its scratch space. Steady state allocates nothing.
#[derive(Default, Debug)]
pub struct Worker {
    pub(crate) tok: TokState,
    pub(crate) bytes: Vec<u8>,
    pub(crate) ranges: Vec<(u32, u32)>,
    pub(crate) table: RefTable,
    pub(crate) scratch: Scratch,
}

/// How large a segment may get inside the counter: [`Segment::size`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// At most this many tokens.
    pub tokens: usize,
    /// At most this many bytes of tokens.
    pub bytes: usize,
}

/// A segment the counter takes: text (`&str`), or a pre-tokenised sequence (see
/// [`crate::bleu::tokens`]). The handle is cheap to copy; the worker does the work.
pub trait Segment: Copy + Send + Sync {
    /// Adds this segment to the worker's table as a reference.
    fn intern_reference(self, w: &mut Worker, prep: &TextPrep);

    /// Maps this segment to the table's token codes as the hypothesis.
    fn lookup_hypothesis(self, w: &mut Worker, prep: &TextPrep);

    /// Bounds of what the counter holds for it (segments beyond them are refused).
    fn size(self) -> Size;
}

impl Segment for &str {
    fn intern_reference(self, w: &mut Worker, prep: &TextPrep) {
        // Borrowing the fields apart (rather than taking the table out of the worker, which
        // would leave a freshly allocated default table behind) keeps the steady state
        // allocation-free.
        let Worker {
            tok,
            table,
            scratch,
            ..
        } = w;
        let (bytes, ranges) = tok.tokenize(self, prep);
        table.intern_reference_ranges(bytes, ranges, scratch);
    }

    fn lookup_hypothesis(self, w: &mut Worker, prep: &TextPrep) {
        let (bytes, ranges) = w.tok.tokenize(self, prep);
        w.table
            .lookup_hypothesis_ranges(bytes, ranges, &mut w.scratch);
    }

    fn size(self) -> Size {
        // 13a can triple the text (spaces around every punctuation mark).
        let most = self.len().saturating_mul(3);
        Size {
            tokens: most,
            bytes: most,
        }
    }
}

impl Worker {
    /// Statistics of one segment (`hyp` against `refs`) into `row` (its order is the row's).
    pub fn segment<S: Segment>(
        &mut self,
        hyp: S,
        refs: &[S],
        prep: &TextPrep,
        rule: RefLenRule,
        row: RowMut<'_, i64>,
    ) {
        self.table.clear();
        for &r in refs {
            r.intern_reference(self, prep);
        }
        self.match_hypothesis(hyp, prep, rule, row);
    }

    /// Counts the interned references (only n-grams the hypothesis can match) and matches.
    pub(crate) fn match_hypothesis<S: Segment>(
        &mut self,
        hyp: S,
        prep: &TextPrep,
        rule: RefLenRule,
        row: RowMut<'_, i64>,
    ) {
        hyp.lookup_hypothesis(self, prep);
        self.table.count_and_match(row, rule, &mut self.scratch);
    }
}

/// Token positions, byte offsets and n-gram codes are `u32` (half the memory traffic of
/// `usize`), so a segment may hold at most this many tokens times the n-gram order (1 GiB of
/// text at order 4): far beyond any real sentence, and checked so that a giant input is an
/// error, not a wrong count.
const MAX_SEGMENT_WORK: usize = (u32::MAX - 2) as usize;

/// The size of `segments` together.
pub(crate) fn total_size<S: Segment>(segments: impl Iterator<Item = S>) -> Size {
    segments
        .map(Segment::size)
        .fold(Size::default(), |a, b| Size {
            tokens: a.tokens.saturating_add(b.tokens),
            bytes: a.bytes.saturating_add(b.bytes),
        })
}

/// Whether `size` is more than the counter's `u32` positions and codes hold at `layout`'s
/// order.
pub(crate) fn too_long(size: Size, layout: RowLayout) -> bool {
    size.tokens.saturating_mul(layout.max_order()) > MAX_SEGMENT_WORK
        || size.bytes > MAX_SEGMENT_WORK
}

/// Checks that segment `i` (its hypothesis, if given, and references) fits the counter.
pub(crate) fn check_segment<S: Segment>(
    i: usize,
    hyp: Option<S>,
    refs: &[S],
    layout: RowLayout,
) -> Result<(), CoreError> {
    let size = total_size(hyp.into_iter().chain(refs.iter().copied()));
    let n = layout.max_order();
    if too_long(size, layout) {
        return Err(CoreError::TooLarge(format!(
            "segment {i} (with its references) is too long to count at max_ngram_order {n}: up \
             to {} tokens and {} bytes, and rapidbleu counts up to {MAX_SEGMENT_WORK} token \
             positions times the order; split it into sentences",
            size.tokens, size.bytes
        )));
    }
    Ok(())
}

/// Checks that segment `i` of `corpus` fits the counter.
fn check_corpus_segment<S: Segment>(
    corpus: &Corpus<S>,
    i: usize,
    layout: RowLayout,
) -> Result<(), CoreError> {
    check_segment(i, Some(corpus.hyp(i)), corpus.refs(i), layout)
}

/// Statistics rows of every segment of `corpus` (N = `layout`'s order), text prepared by
/// `prep`, reference lengths by `rule`, on `threads` threads with workers from `pool`.
pub(crate) fn count_corpus<S: Segment>(
    corpus: &Corpus<S>,
    prep: &TextPrep,
    layout: RowLayout,
    rule: RefLenRule,
    threads: Threads,
    pool: &WorkerPool<Worker>,
) -> Result<Vec<i64>, CoreError> {
    let row_len = layout.row_len();
    let mut out = zeroed_on(corpus.len(), row_len, threads)?;
    try_for_each_row_in(
        pool,
        &mut out,
        row_len,
        threads,
        Worker::default,
        |w, i, row| {
            check_corpus_segment(corpus, i, layout)?;
            w.segment(
                corpus.hyp(i),
                corpus.refs(i),
                prep,
                rule,
                layout.row_mut(row),
            );
            Ok(())
        },
    )?;
    Ok(out)
}

/// Statistics of a corpus: each hypothesis against its references, `n x (2 + 2N)` row-major.
pub fn corpus_stats<S: Segment>(
    corpus: &Corpus<S>,
    opts: &BleuOptions,
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    let rule = RefLenRule::ClosestShorter;
    count_corpus(
        corpus,
        opts.text(),
        opts.layout(),
        rule,
        threads,
        &WorkerPool::new(),
    )
}

/// Sentence BLEU of every segment, scored inside the parallel statistics pass: no statistics
/// array and no second pass (the batched form of `BLEU.sentence_score`, e.g. for RL rewards).
pub fn sentence_scores<S: Segment>(
    corpus: &Corpus<S>,
    opts: &BleuOptions,
    threads: Threads,
) -> Result<Vec<f64>, CoreError> {
    let layout = opts.layout();
    let mut out = zeroed_on(corpus.len(), 1, threads)?;
    let init = || (Worker::default(), vec![0i64; layout.row_len()]);
    let pool = WorkerPool::new();
    try_for_each_row_in(&pool, &mut out, 1, threads, init, |(w, row), i, score| {
        check_corpus_segment(corpus, i, layout)?;
        let rule = RefLenRule::ClosestShorter;
        w.segment(
            corpus.hyp(i),
            corpus.refs(i),
            opts.text(),
            rule,
            layout.row_mut(row),
        );
        score[0] = bleu_score(layout.row(row), opts);
        Ok(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::options::{Smooth, Summation};
    use crate::bleu::score::score_rows;
    use crate::corpus::Groups;
    use crate::text::tokenize::Tokenizer;

    fn options(lowercase: bool) -> BleuOptions {
        BleuOptions::new(
            Tokenizer::T13a,
            lowercase,
            4,
            Smooth::Exp,
            true,
            Summation::Plain,
        )
        .expect("valid options")
    }

    #[test]
    fn sacrebleu_rows_and_threads_agree() {
        let hyps = vec![
            "The cat sat on the mat.",
            "Hello, World!",
            "",
            "a b c d",
            "Prices rose 3.5% to 1,000.50-2,000, i.e. a lot.",
        ];
        let refs: Groups<&str> = [
            vec!["The cat is on the mat.", "There is a cat on the mat."],
            vec!["hello world !"],
            vec![""],
            vec!["a b c d", "a b"],
            vec![
                "Prices rose by 3.5% to 1,000.50-2,000.",
                "i.e. 1,000-2,000 x",
            ],
        ]
        .into_iter()
        .collect();
        let corpus = Corpus::new(hyps, refs).expect("valid corpus");
        let opts = options(true);
        let a = corpus_stats(&corpus, &opts, Threads::ONE).expect("stats");
        // sacreBLEU 2.6.0: BLEU(lowercase=True)._extract_corpus_statistics(hyps, refs)
        let expected: Vec<i64> = vec![
            7, 7, 6, 4, 2, 1, 7, 6, 5, 4, 4, 3, 3, 1, 0, 0, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 4, 4, 4, 3, 2, 1, 4, 3, 2, 1, 16, 10, 12, 9, 6, 4, 16, 15, 14, 13,
        ];
        assert_eq!(a, expected);
    }

    #[test]
    fn fused_sentence_scores_equal_scored_rows() {
        let hyps: Vec<String> = (0..300)
            .map(|i| format!("a b c {} d e. f", i % 7))
            .collect();
        let refs: Groups<&str> = (0..300)
            .map(|i| {
                if i % 3 == 0 {
                    vec!["a b c 1 d e.", "f a b"]
                } else {
                    vec!["x b c 2 d"]
                }
            })
            .collect();
        let corpus = Corpus::new(hyps.iter().map(String::as_str).collect(), refs).unwrap();
        let opts = options(false);
        let stats = corpus_stats(&corpus, &opts, Threads::new(2).unwrap()).unwrap();
        let expected = score_rows(&stats, &opts).unwrap();
        for threads in [Threads::ONE, Threads::new(2).unwrap()] {
            assert_eq!(corpus_stats(&corpus, &opts, threads).unwrap(), stats);
            assert_eq!(sentence_scores(&corpus, &opts, threads).unwrap(), expected);
        }
    }

    #[test]
    fn segments_too_long_to_count() {
        let huge = "a ".repeat(1 << 20);
        let refs: Groups<&str> = [vec!["a"]].into_iter().collect();
        let corpus = Corpus::new(vec![huge.as_str()], refs).unwrap();
        let opts = |n| {
            BleuOptions::new(
                Tokenizer::T13a,
                false,
                n,
                Smooth::Exp,
                false,
                Summation::Plain,
            )
            .unwrap()
        };
        assert!(corpus_stats(&corpus, &opts(4), Threads::ONE).is_ok());
        let err = corpus_stats(&corpus, &opts(1000), Threads::ONE).unwrap_err();
        assert!(matches!(err, CoreError::TooLarge(m) if m.contains("segment 0")));
    }
}
