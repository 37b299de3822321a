//! Per-segment statistics of pre-tokenised input: integer token IDs or tokens given as bytes.
//!
//! Text and IDs share one n-gram engine ([`RefTable`]): a token ID is interned by its value, a
//! pre-tokenised token by its UTF-8 bytes (as text is); past interning, both are dense token
//! ids counted by the same code. The two kinds are never mixed in one corpus (both number their
//! tokens from 0), which the type [`Seqs`] enforces: a corpus is `Seqs<i64>` or `Seqs<&[u8]>`.
//!
//! Rows have sacreBLEU's layout `[hyp_len, ref_len, correct_1..N, total_1..N]` (totals are the
//! raw `len - n + 1`, clamped at 0); the dialects differ only in how rows become a score and in
//! which reference length a segment contributes ([`RefLenRule`]).

use crate::bleu::ngram::{RefTable, Scratch};
use crate::engine::ngram_map::{padded, SLACK};
use crate::engine::parallel::{for_each_row_in, WorkerPool};
use crate::error::CoreError;

/// Which reference length a segment contributes to the brevity penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefLenRule {
    /// Closest to the hypothesis length, ties to the shorter: sacreBLEU's
    /// `BLEU._get_closest_ref_len` and NLTK's `closest_ref_length`.
    ClosestShorter,
    /// Closest to the hypothesis length, ties to the first listed: the R package sacRebleu.
    ClosestFirst,
    /// The shortest reference: TensorFlow NMT's `compute_bleu` (Hugging Face `evaluate`'s
    /// "bleu").
    Shortest,
}

impl RefLenRule {
    /// Parses `closest`, `closest-first` or `shortest`.
    pub fn from_name(name: &str) -> Result<Self, CoreError> {
        match name {
            "closest" => Ok(RefLenRule::ClosestShorter),
            "closest-first" => Ok(RefLenRule::ClosestFirst),
            "shortest" => Ok(RefLenRule::Shortest),
            _ => Err(CoreError::InvalidOption(format!(
                "unknown reference length rule {name:?}; allowed: closest, closest-first, shortest"
            ))),
        }
    }

    /// The reference length of a segment whose references have lengths `lens` (not empty).
    pub fn pick(self, lens: &[u32], hyp_len: u32) -> u32 {
        let mut best: Option<u32> = None;
        for &r in lens {
            best = Some(match best {
                None => r,
                Some(b) => match self {
                    RefLenRule::Shortest => b.min(r),
                    RefLenRule::ClosestShorter => {
                        let (d, db) = (hyp_len.abs_diff(r), hyp_len.abs_diff(b));
                        if d < db || (d == db && r < b) {
                            r
                        } else {
                            b
                        }
                    }
                    RefLenRule::ClosestFirst => {
                        if hyp_len.abs_diff(r) < hyp_len.abs_diff(b) {
                            r
                        } else {
                            b
                        }
                    }
                },
            });
        }
        best.unwrap_or(0)
    }
}

/// A token the n-gram engine can count: an integer ID, or a token given as its bytes.
pub trait Token: Sync + Sized {
    /// Adds `seq` to `w`'s table as a reference.
    fn intern(seq: &[Self], w: &mut IdWorker);

    /// Maps `seq` to the table's token ids as the hypothesis.
    fn lookup(seq: &[Self], w: &mut IdWorker);

    /// The number of bytes the engine holds for `seq` (before the slack).
    fn byte_len(seq: &[Self]) -> usize;
}

impl Token for i64 {
    fn intern(seq: &[i64], w: &mut IdWorker) {
        w.table.intern_reference_ids(seq, &mut w.scratch);
    }

    fn lookup(seq: &[i64], w: &mut IdWorker) {
        w.table.lookup_hypothesis_ids(seq, &mut w.scratch);
    }

    fn byte_len(_: &[i64]) -> usize {
        0
    }
}

impl Token for &[u8] {
    fn intern(seq: &[&[u8]], w: &mut IdWorker) {
        encode(seq, &mut w.bytes, &mut w.ranges);
        w.table
            .intern_reference_ranges(&w.bytes, &w.ranges, &mut w.scratch);
    }

    fn lookup(seq: &[&[u8]], w: &mut IdWorker) {
        encode(seq, &mut w.bytes, &mut w.ranges);
        w.table
            .lookup_hypothesis_ranges(&w.bytes, &w.ranges, &mut w.scratch);
    }

    fn byte_len(seq: &[&[u8]]) -> usize {
        seq.iter().map(|t| t.len()).sum()
    }
}

/// Writes the tokens of `seq` back to back into `bytes` (cleared first, then followed by the
/// slack the engine reads past a token's end) and each token's byte range into `ranges`: the
/// form [`RefTable::intern_reference_ranges`] and [`RefTable::lookup_hypothesis_ranges`] take.
///
/// Performance decision: one contiguous buffer per sequence lets the engine copy a reference
/// into its vocabulary once and read every token without a branch on its length.
fn encode(seq: &[&[u8]], bytes: &mut Vec<u8>, ranges: &mut Vec<(u32, u32)>) {
    bytes.clear();
    ranges.clear();
    for tok in seq {
        let start = bytes.len() as u32;
        bytes.extend_from_slice(tok);
        ranges.push((start, bytes.len() as u32));
    }
    padded(bytes);
}

/// Token sequences stored flat: sequence `i` is `data[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug)]
pub struct Seqs<T> {
    data: Vec<T>,
    offsets: Vec<usize>,
}

impl<T> Default for Seqs<T> {
    fn default() -> Self {
        Seqs {
            data: Vec::new(),
            offsets: vec![0],
        }
    }
}

impl<T> Seqs<T> {
    /// No sequence yet, with the items to be stored in `data` (emptied first): a caller can
    /// reuse one allocation across calls.
    pub fn with_buffer(mut data: Vec<T>) -> Self {
        data.clear();
        Seqs {
            data,
            offsets: vec![0],
        }
    }

    /// The items' buffer, for reuse by [`Seqs::with_buffer`].
    pub fn into_buffer(self) -> Vec<T> {
        self.data
    }

    /// Appends one sequence.
    pub fn push(&mut self, seq: impl IntoIterator<Item = T>) {
        self.data.extend(seq);
        self.offsets.push(self.data.len());
    }

    /// Appends one sequence from a slice.
    pub fn push_slice(&mut self, seq: &[T])
    where
        T: Clone,
    {
        self.data.extend_from_slice(seq);
        self.offsets.push(self.data.len());
    }

    /// Number of sequences.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no sequence.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sequence `i`.
    pub fn get(&self, i: usize) -> &[T] {
        &self.data[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// A corpus of pre-tokenised segments: hypothesis `i` and its references
/// `refs[ref_offsets[i]..ref_offsets[i + 1]]`.
#[derive(Clone, Debug)]
pub struct TokenCorpus<T> {
    /// One sequence per segment.
    pub hyps: Seqs<T>,
    /// All references, segment after segment.
    pub refs: Seqs<T>,
    /// Segment `i` owns references `ref_offsets[i]..ref_offsets[i + 1]`.
    pub ref_offsets: Vec<usize>,
}

impl<T> Default for TokenCorpus<T> {
    fn default() -> Self {
        TokenCorpus {
            hyps: Seqs::default(),
            refs: Seqs::default(),
            ref_offsets: vec![0],
        }
    }
}

impl<T> TokenCorpus<T> {
    /// Closes the references of the segment being built (add its hypothesis to `hyps` too).
    pub fn end_segment(&mut self) {
        self.ref_offsets.push(self.refs.len());
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.hyps.len()
    }

    /// Whether there is no segment.
    pub fn is_empty(&self) -> bool {
        self.hyps.is_empty()
    }

    fn ref_range(&self, i: usize) -> std::ops::Range<usize> {
        self.ref_offsets[i]..self.ref_offsets[i + 1]
    }

    fn check(&self, max_order: usize) -> Result<(), CoreError>
    where
        T: Token,
    {
        if max_order < 1 {
            return Err(CoreError::InvalidOption(format!(
                "the n-gram order must be a positive integer, got {max_order}"
            )));
        }
        if self.ref_offsets.len() != self.hyps.len() + 1 {
            return Err(CoreError::InvalidInput(format!(
                "{} hypotheses but references for {} segments; they must be equal",
                self.hyps.len(),
                self.ref_offsets.len() - 1
            )));
        }
        for i in 0..self.len() {
            let range = self.ref_range(i);
            if range.is_empty() {
                return Err(CoreError::MissingReference(format!(
                    "segment {i} has no reference; give at least one (an empty one is allowed)"
                )));
            }
            let seqs =
                || std::iter::once(self.hyps.get(i)).chain(range.clone().map(|r| self.refs.get(r)));
            let tokens = seqs().map(<[T]>::len).sum::<usize>();
            let bytes = seqs().map(|s| T::byte_len(s) + SLACK).sum::<usize>();
            // Token positions, byte offsets and n-gram ids are u32 in the engine.
            if tokens.saturating_mul(max_order) >= (u32::MAX - 2) as usize
                || bytes >= u32::MAX as usize
            {
                return Err(CoreError::InvalidInput(format!(
                    "segment {i} holds {tokens} tokens, more than rapidbleu can count at order \
                     {max_order}; split it"
                )));
            }
        }
        Ok(())
    }
}

/// One worker's reusable buffers.
#[derive(Default, Debug)]
pub struct IdWorker {
    table: RefTable,
    scratch: Scratch,
    bytes: Vec<u8>,
    ranges: Vec<(u32, u32)>,
}

impl IdWorker {
    fn segment<T: Token>(
        &mut self,
        corpus: &TokenCorpus<T>,
        i: usize,
        max_order: usize,
        rule: RefLenRule,
        row: &mut [i64],
    ) {
        self.table.clear();
        for r in corpus.ref_range(i) {
            T::intern(corpus.refs.get(r), self);
        }
        let hyp = corpus.hyps.get(i);
        T::lookup(hyp, self);
        self.table.count_references(max_order, &mut self.scratch);
        self.table.match_hypothesis(row, &mut self.scratch);
        row[1] = i64::from(rule.pick(self.table.ref_lens(), hyp.len() as u32));
    }
}

/// Statistics rows `[hyp_len, ref_len, correct_1..N, total_1..N]` (N = `max_order`) of every
/// segment of `corpus`, the reference length chosen by `rule`, computed on `threads` threads.
pub fn token_stats<T: Token>(
    corpus: &TokenCorpus<T>,
    max_order: usize,
    rule: RefLenRule,
    threads: usize,
) -> Result<Vec<i64>, CoreError> {
    corpus.check(max_order)?;
    let row_len = 2 + 2 * max_order;
    // Workers (and their tables) are kept between calls: batches of token IDs typically come
    // one call after another, e.g. rewards in a training loop.
    static WORKERS: WorkerPool<IdWorker> = WorkerPool::new();
    let mut out = vec![0i64; corpus.len() * row_len];
    for_each_row_in(
        &WORKERS,
        &mut out,
        row_len,
        threads,
        IdWorker::default,
        |w, i, row| w.segment(corpus, i, max_order, rule, row),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus_ids(segs: &[(&[i64], &[&[i64]])]) -> TokenCorpus<i64> {
        let mut c = TokenCorpus::default();
        for (h, refs) in segs {
            c.hyps.push_slice(h);
            for r in *refs {
                c.refs.push_slice(r);
            }
            c.end_segment();
        }
        c
    }

    #[test]
    fn ids_equal_string_tokens() {
        let c = corpus_ids(&[
            (&[1, 2, 3], &[&[1, 2, 3], &[2, 3, 4]]),
            (&[1, 2], &[&[1, 2, 6], &[781, 21, 9], &[7, 3]]),
        ]);
        let rows = token_stats(&c, 4, RefLenRule::ClosestShorter, 1).unwrap();
        assert_eq!(
            rows,
            vec![3, 3, 3, 2, 1, 0, 3, 2, 1, 0, 2, 2, 2, 1, 0, 0, 2, 1, 0, 0]
        );
        let names: Vec<String> = (0..800).map(|i| format!("w{i}")).collect();
        let b =
            |s: &[i64]| -> Vec<&[u8]> { s.iter().map(|&i| names[i as usize].as_bytes()).collect() };
        let mut t: TokenCorpus<&[u8]> = TokenCorpus::default();
        t.hyps.push(b(&[1, 2, 3]));
        t.refs.push(b(&[1, 2, 3]));
        t.refs.push(b(&[2, 3, 4]));
        t.end_segment();
        t.hyps.push(b(&[1, 2]));
        t.refs.push(b(&[1, 2, 6]));
        t.refs.push(b(&[781, 21, 9]));
        t.refs.push(b(&[7, 3]));
        t.end_segment();
        assert_eq!(
            token_stats(&t, 4, RefLenRule::ClosestShorter, 1).unwrap(),
            rows
        );
    }

    #[test]
    fn reference_length_rules() {
        let lens = [5, 3, 1];
        assert_eq!(RefLenRule::ClosestShorter.pick(&lens, 4), 3);
        assert_eq!(RefLenRule::ClosestFirst.pick(&lens, 4), 5);
        assert_eq!(RefLenRule::Shortest.pick(&lens, 4), 1);
        assert_eq!(RefLenRule::ClosestFirst.pick(&[1, 3], 2), 1);
        assert!(RefLenRule::from_name("nearest").is_err());
    }

    #[test]
    fn threads_agree_and_errors() {
        let segs: Vec<(Vec<i64>, Vec<Vec<i64>>)> = (0..300)
            .map(|i| ((0..i % 40).collect(), vec![(1..i % 30).collect(), vec![i]]))
            .collect();
        let mut c = TokenCorpus::default();
        for (h, refs) in &segs {
            c.hyps.push_slice(h);
            refs.iter().for_each(|r| c.refs.push_slice(r));
            c.end_segment();
        }
        let a = token_stats(&c, 4, RefLenRule::ClosestFirst, 1).unwrap();
        let b = token_stats(&c, 4, RefLenRule::ClosestFirst, 2).unwrap();
        assert_eq!(a, b);
        assert!(token_stats(&c, 0, RefLenRule::ClosestFirst, 1).is_err());
        let mut none = corpus_ids(&[(&[1], &[])]);
        assert!(token_stats(&none, 4, RefLenRule::Shortest, 1).is_err());
        none.hyps.push_slice(&[2]);
        assert!(token_stats(&none, 4, RefLenRule::Shortest, 1).is_err());
    }
}
