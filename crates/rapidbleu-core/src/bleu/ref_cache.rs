//! References tokenized once and reused across many hypothesis sets (sacreBLEU's
//! `BLEU(references=...)` cache).
//!
//! Performance decision: the cache keeps the tokenizer output, not counted n-gram tables.
//! Tables of every n-gram of every reference cost about 5 KB a segment and, scattered over
//! memory, were slower to match against than counting afresh with the hypothesis known (only
//! n-grams made of hypothesis tokens are counted); tokenization is the part worth caching.

use crate::bleu::options::BleuOptions;
use crate::bleu::ref_len::RefLenRule;
use crate::bleu::stats::{check_segment, TokState, Worker};
use crate::corpus::{check_lengths, check_references, Groups};
use crate::engine::parallel::{for_each_row, map_collect, Threads};
use crate::error::{zeroed, CoreError};

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
    fn new(tok: &mut TokState, refs: &[&str], opts: &BleuOptions) -> Self {
        let (mut bytes, mut ranges, mut ends) = (Vec::new(), Vec::new(), Vec::new());
        for r in refs {
            let (b, rs) = tok.tokenize(r, opts.text());
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

/// See the module documentation.
#[derive(Debug)]
pub struct RefCache {
    opts: BleuOptions,
    segments: Vec<CachedSegment>,
}

impl RefCache {
    /// Tokenizes the references of every segment once (at least one per segment).
    pub fn new(
        refs: &Groups<&str>,
        opts: BleuOptions,
        threads: Threads,
    ) -> Result<Self, CoreError> {
        check_references(refs)?;
        for (i, seg) in refs.iter().enumerate() {
            check_segment(i, None, seg, opts.layout())?;
        }
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
    pub fn options(&self) -> &BleuOptions {
        &self.opts
    }

    /// Statistics of `hyps` against the cached references, `n x (2 + 2N)` row-major.
    pub fn stats(&self, hyps: &[&str], threads: Threads) -> Result<Vec<i64>, CoreError> {
        check_lengths(hyps.len(), self.segments.len())?;
        let layout = self.opts.layout();
        for (i, &h) in hyps.iter().enumerate() {
            check_segment(i, Some(h), &[], layout)?;
        }
        let mut out = zeroed(hyps.len(), layout.row_len())?;
        for_each_row(
            &mut out,
            layout.row_len(),
            threads,
            Worker::default,
            |w, i, row| {
                w.table.clear();
                for (bytes, ranges) in self.segments[i].references() {
                    w.table
                        .intern_reference_ranges(bytes, ranges, &mut w.scratch);
                }
                let rule = RefLenRule::ClosestShorter;
                w.match_hypothesis(hyps[i], self.opts.text(), rule, layout.row_mut(row));
            },
        );
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::stats::corpus_stats;
    use crate::corpus::Corpus;

    #[test]
    fn cached_equals_uncached() {
        let hyps = vec![
            "The cat sat on the mat.",
            "Hello, World!",
            "",
            "Prices rose 3.5% to 1,000.50-2,000, i.e. a lot.",
        ];
        // Words 13a rewrites (inner `.`/`,`, `-` after a digit) end its output buffer.
        let refs: Groups<&str> = [
            vec!["The cat is on the mat.", "There is a cat on the mat."],
            vec!["hello world !"],
            vec![""],
            vec![
                "Prices rose by 3.5% to 1,000.50-2,000.",
                "i.e. 1,000-2,000 x",
            ],
        ]
        .into_iter()
        .collect();
        let opts = BleuOptions::default();
        let cache = RefCache::new(&refs, opts, Threads::new(2).unwrap()).unwrap();
        let corpus = Corpus::new(hyps.clone(), refs).unwrap();
        let want = corpus_stats(&corpus, &opts, Threads::ONE).unwrap();
        assert_eq!(cache.stats(&hyps, Threads::new(2).unwrap()).unwrap(), want);
        assert!(cache.stats(&hyps[1..], Threads::ONE).is_err());
        let none: Groups<&str> = [vec![]].into_iter().collect();
        assert!(RefCache::new(&none, opts, Threads::ONE).is_err());
    }
}
