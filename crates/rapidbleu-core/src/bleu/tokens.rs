//! Statistics of pre-tokenised input: integer token IDs (`&[i64]`) or tokens given as their
//! bytes (`&[&[u8]]`), counted by the same worker as text ([`crate::bleu::stats`]).
//!
//! A token ID is interned by its value, a pre-tokenised token by its UTF-8 bytes (as text is);
//! past interning, both are dense token codes counted by the same code. The two kinds are
//! never mixed in one corpus (both number their tokens from 0), which the types enforce: a
//! corpus is `Corpus<&[i64]>` or `Corpus<&[&[u8]]>`.
//!
//! Rows have sacreBLEU's layout (totals are the raw `len - n + 1`, clamped at 0); the dialects
//! differ only in how rows become a score and in which reference length a segment contributes
//! ([`RefLenRule`]).

use crate::bleu::layout::RowLayout;
use crate::bleu::options::TextPrep;
use crate::bleu::ref_len::RefLenRule;
use crate::bleu::stats::{count_corpus, Segment, Size, Worker};
use crate::corpus::Corpus;
use crate::engine::parallel::{Threads, WorkerPool};
use crate::engine::token_map::{padded, SLACK};
use crate::error::CoreError;
use crate::text::tokenize::Tokenizer;

impl Segment for &[i64] {
    fn intern_reference(self, w: &mut Worker, _: &TextPrep) {
        w.table.intern_reference_token_ids(self, &mut w.scratch);
    }

    fn lookup_hypothesis(self, w: &mut Worker, _: &TextPrep) {
        w.table.lookup_hypothesis_token_ids(self, &mut w.scratch);
    }

    fn size(self) -> Size {
        Size {
            tokens: self.len(),
            bytes: 0,
        }
    }
}

impl Segment for &[&[u8]] {
    fn intern_reference(self, w: &mut Worker, _: &TextPrep) {
        encode(self, &mut w.bytes, &mut w.ranges);
        w.table
            .intern_reference_ranges(&w.bytes, &w.ranges, &mut w.scratch);
    }

    fn lookup_hypothesis(self, w: &mut Worker, _: &TextPrep) {
        encode(self, &mut w.bytes, &mut w.ranges);
        w.table
            .lookup_hypothesis_ranges(&w.bytes, &w.ranges, &mut w.scratch);
    }

    fn size(self) -> Size {
        Size {
            tokens: self.len(),
            bytes: self.iter().map(|t| t.len()).sum::<usize>() + SLACK,
        }
    }
}

/// Writes the tokens of `seq` back to back into `bytes` (cleared first, then followed by the
/// slack the engine reads past a token's end) and each token's byte range into `ranges`: the
/// form `RefTable::intern_reference_ranges` and `RefTable::lookup_hypothesis_ranges` take.
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

/// Pre-tokenised input needs no text preparation.
const PRETOKENISED: TextPrep = TextPrep {
    tokenizer: Tokenizer::None,
    lowercase_ascii: false,
};

/// Statistics rows (N = `layout`'s order) of every segment of a pre-tokenised `corpus`, the
/// reference length chosen by `rule`, computed on `threads` threads.
pub fn token_stats<'a, T>(
    corpus: &Corpus<&'a [T]>,
    layout: RowLayout,
    rule: RefLenRule,
    threads: Threads,
) -> Result<Vec<i64>, CoreError>
where
    &'a [T]: Segment,
{
    // Workers (and their tables) are kept between calls: batches of token IDs typically come
    // one call after another, e.g. rewards in a training loop.
    static WORKERS: WorkerPool<Worker> = WorkerPool::new();
    count_corpus(corpus, &PRETOKENISED, layout, rule, threads, &WORKERS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Groups;

    fn corpus<'a, T>(hyps: &[&'a [T]], refs: &[&[&'a [T]]]) -> Corpus<&'a [T]> {
        let refs: Groups<&[T]> = refs.iter().map(|r| r.to_vec()).collect();
        Corpus::new(hyps.to_vec(), refs).expect("valid corpus")
    }

    fn order(n: i64) -> RowLayout {
        RowLayout::new(n).expect("valid order")
    }

    #[test]
    fn ids_equal_string_tokens() {
        let c = corpus::<i64>(
            &[&[1, 2, 3], &[1, 2]],
            &[
                &[&[1, 2, 3], &[2, 3, 4]],
                &[&[1, 2, 6], &[781, 21, 9], &[7, 3]],
            ],
        );
        let rows = token_stats(&c, order(4), RefLenRule::ClosestShorter, Threads::ONE).unwrap();
        assert_eq!(
            rows,
            vec![3, 3, 3, 2, 1, 0, 3, 2, 1, 0, 2, 2, 2, 1, 0, 0, 2, 1, 0, 0]
        );
        let names: Vec<String> = (0..800).map(|i| format!("w{i}")).collect();
        let b =
            |s: &[i64]| -> Vec<&[u8]> { s.iter().map(|&i| names[i as usize].as_bytes()).collect() };
        let (h1, h2) = (b(&[1, 2, 3]), b(&[1, 2]));
        let (r1, r2, r3, r4, r5) = (
            b(&[1, 2, 3]),
            b(&[2, 3, 4]),
            b(&[1, 2, 6]),
            b(&[781, 21, 9]),
            b(&[7, 3]),
        );
        let t = corpus::<&[u8]>(&[&h1, &h2], &[&[&r1, &r2], &[&r3, &r4, &r5]]);
        let got = token_stats(&t, order(4), RefLenRule::ClosestShorter, Threads::ONE);
        assert_eq!(got.unwrap(), rows);
    }

    #[test]
    fn threads_agree() {
        let segs: Vec<(Vec<i64>, Vec<Vec<i64>>)> = (0..300)
            .map(|i| ((0..i % 40).collect(), vec![(1..i % 30).collect(), vec![i]]))
            .collect();
        let hyps: Vec<&[i64]> = segs.iter().map(|(h, _)| h.as_slice()).collect();
        let refs: Groups<&[i64]> = segs
            .iter()
            .map(|(_, r)| r.iter().map(Vec::as_slice))
            .collect();
        let c = Corpus::new(hyps, refs).unwrap();
        let rule = RefLenRule::ClosestFirst;
        let a = token_stats(&c, order(4), rule, Threads::ONE).unwrap();
        let b = token_stats(&c, order(4), rule, Threads::new(2).unwrap()).unwrap();
        assert_eq!(a, b);
    }
}
