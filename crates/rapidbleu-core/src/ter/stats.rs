//! Per-segment TER statistics (`TER._compute_segment_statistics`), over a corpus in parallel.
//!
//! One int64 row per segment: `[num_edits, ref_len_sum, num_refs]`. sacreBLEU's row is
//! `[best_num_edits, ref_len_sum / num_refs]`; the float term is kept as its two integers so
//! that rows stay exact, and [`super::score`] derives it with Python's division. Rows are
//! independent, so any split of the corpus over threads gives identical rows.

use super::intern::Interner;
use super::shift::ShiftSearch;
use super::tokenizer::{split_words, TercomTokenizer, TokScratch};
use crate::corpus::Corpus;
use crate::engine::parallel::{self, zeroed_on, Threads};
use crate::error::CoreError;
use crate::text::whitespace::{py_rstrip, py_split};
use rayon::prelude::*;

/// Values per statistics row: `[num_edits, ref_len_sum, num_refs]`.
pub const ROW_LEN: usize = 3;

/// A segment's text may hold at most this many bytes, so at most [`super::MAX_WORDS`] words
/// (the Tercom passes never make more words than characters).
const MAX_SEGMENT_BYTES: usize = super::MAX_WORDS;

/// One worker's reusable buffers: tokenizer passes, word ids, the shift search.
#[derive(Clone, Debug, Default)]
pub struct TerWorker {
    tok: TokScratch,
    interner: Interner,
    hyp: Vec<u32>,
    refs: Vec<u32>,
    /// End of each reference in `refs`.
    ref_ends: Vec<usize>,
    /// Per-id counts for the bag-of-words bound.
    counts: Vec<i32>,
    /// Byte ranges of the words of one text.
    ranges: Vec<(u32, u32)>,
    /// A reference's first tokenization, joined, for the second (see [`TerWorker::words`]).
    joined: String,
    search: ShiftSearch,
}

impl TerWorker {
    /// `TER._preprocess_segment(text)` split into words and interned: once for a hypothesis,
    /// twice for a reference.
    ///
    /// sacreBLEU preprocesses every reference twice: `Metric._cache_references` calls
    /// `_preprocess_segment` on each line, and `TER._extract_reference_info` calls it again on
    /// the result. Lowercasing, punctuation removal and whitespace collapse are idempotent, but
    /// Tercom's normalisation is not (`"squire's,"` becomes `"squire's ,"` and then `"squire
    /// 's ,"`; `&amp;lt;` becomes `&lt;` and then `<`), so with `normalized` a reference's
    /// first output, joined with single spaces as `TercomTokenizer.__call__` returns it, goes
    /// through the tokenizer a second time.
    fn words(&mut self, tokenizer: &TercomTokenizer, text: &str, out_is_hyp: bool) {
        let TerWorker {
            tok,
            interner,
            hyp,
            refs,
            ranges,
            joined,
            ..
        } = self;
        let out = if out_is_hyp { hyp } else { refs };
        let mut text = tokenizer.run(py_rstrip(text), tok);
        if !out_is_hyp && tokenizer.params().normalized {
            joined.clear();
            for (i, w) in py_split(text).enumerate() {
                if i > 0 {
                    joined.push(' ');
                }
                joined.push_str(w);
            }
            // The joined text has no trailing whitespace: `rstrip()` leaves it as it is.
            text = tokenizer.run(joined, tok);
        }
        ranges.clear();
        split_words(text, ranges);
        let bytes = text.as_bytes();
        for &(a, b) in ranges.iter() {
            out.push(interner.intern(&bytes[a as usize..b as usize]));
        }
    }

    /// The statistics row of `hyp` against `refs` (raw segment text, already lowercased by
    /// the caller unless `case_sensitive`; see [`crate::ter`]).
    pub fn segment(
        &mut self,
        tokenizer: &TercomTokenizer,
        hyp: &str,
        refs: &[&str],
    ) -> Result<[i64; ROW_LEN], CoreError> {
        if refs.is_empty() {
            return Err(CoreError::MissingReference(
                "a segment has no reference; give at least one reference string per segment \
                 (an empty string is allowed)"
                    .into(),
            ));
        }
        check_size(hyp)?;
        refs.iter().try_for_each(|r| check_size(r))?;
        Ok(self.segment_unchecked(tokenizer, hyp, refs))
    }

    fn segment_unchecked(
        &mut self,
        tokenizer: &TercomTokenizer,
        hyp: &str,
        refs: &[&str],
    ) -> [i64; ROW_LEN] {
        self.interner.clear();
        self.hyp.clear();
        self.refs.clear();
        self.ref_ends.clear();
        for r in refs {
            self.words(tokenizer, r, false);
            self.ref_ends.push(self.refs.len());
        }
        self.words(tokenizer, hyp, true);
        let mut best = i64::MAX;
        let mut ref_len_sum = 0i64;
        let mut start = 0;
        for k in 0..self.ref_ends.len() {
            let end = self.ref_ends[k];
            ref_len_sum += (end - start) as i64;
            // sacreBLEU keeps the first reference with strictly fewer edits, so a reference
            // whose edits cannot go below the best so far changes nothing and is skipped.
            if best == i64::MAX || self.lower_bound(start, end) < best {
                let (edits, _) = self.search.translation_edit_rate_dense(
                    &self.hyp,
                    &self.refs[start..end],
                    self.interner.len(),
                );
                best = best.min(edits as i64);
            }
            start = end;
        }
        [best, ref_len_sum, self.ref_ends.len() as i64]
    }

    /// A lower bound on the edits against reference `refs[start..end]`: shifts keep the bag of
    /// hypothesis words, and any alignment with `k` matched words costs at least
    /// `max(n, m) - k`, `k` being at most the size of the bags' intersection (the beam only
    /// removes alignments, so the bound holds for the beam distance too).
    ///
    /// Performance decision: with several references, one whose bound is not below the best
    /// edits so far cannot win (`_compute_segment_statistics` keeps strictly fewer edits), so
    /// its search is skipped; the bound costs one pass over both word lists.
    fn lower_bound(&mut self, start: usize, end: usize) -> i64 {
        let r = &self.refs[start..end];
        if r.is_empty() {
            return self.hyp.len() as i64;
        }
        self.counts.clear();
        self.counts.resize(self.interner.len(), 0);
        for &w in r {
            self.counts[w as usize] += 1;
        }
        let mut common = 0i64;
        for &w in &self.hyp {
            let c = &mut self.counts[w as usize];
            if *c > 0 {
                *c -= 1;
                common += 1;
            }
        }
        self.hyp.len().max(r.len()) as i64 - common
    }
}

fn check_size(text: &str) -> Result<(), CoreError> {
    if text.len() > MAX_SEGMENT_BYTES {
        return Err(CoreError::InvalidInput(format!(
            "a segment holds {} bytes of text, more than TER's limit of {MAX_SEGMENT_BYTES}; \
             split it into sentences",
            text.len()
        )));
    }
    Ok(())
}

/// Statistics of a corpus: rows `[num_edits, ref_len_sum, num_refs]`, one per segment
/// (`corpus.len() * ROW_LEN` values). The [`Corpus`] guarantees at least one reference per
/// segment.
///
/// Text must already be lowercased by the caller unless `case_sensitive` (see [`crate::ter`]).
pub fn corpus_stats(
    corpus: &Corpus<&str>,
    tokenizer: &TercomTokenizer,
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    for (i, hyp) in corpus.hyps().iter().enumerate() {
        check_size(hyp)?;
        corpus.refs(i).iter().try_for_each(|t| check_size(t))?;
    }
    let mut out = zeroed_on(corpus.len(), ROW_LEN, threads)?;
    let fill = |w: &mut TerWorker, i: usize, row: &mut [i64]| {
        row.copy_from_slice(&w.segment_unchecked(tokenizer, corpus.hyp(i), corpus.refs(i)));
    };
    if threads == Threads::ONE || corpus.len() < 2 {
        let mut w = TerWorker::default();
        for (i, row) in out.chunks_mut(ROW_LEN).enumerate() {
            fill(&mut w, i, row);
        }
        return Ok(out);
    }
    // Performance decision: not `parallel::for_each_row`, whose thresholds (64 segments
    // before any thread helps, chunks of at least 16) suit BLEU's microsecond segments; one
    // TER segment can take milliseconds (a paragraph), so even a handful of segments is worth
    // spreading, and rayon's adaptive splitting (halves split again when stolen) balances
    // segments of very different cost. A worker is created per split job (empty buffers).
    parallel::install(threads, || {
        out.par_chunks_mut(ROW_LEN)
            .enumerate()
            .for_each_init(TerWorker::default, |w, (i, row)| fill(w, i, row));
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Groups;
    use crate::ter::TerOptions;

    #[test]
    fn threads_and_splits_give_identical_rows() {
        let words = ["a", "b", "c", "d", "e", "the", "cat", ".", ","];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |k: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k as u64) as usize
        };
        let mut text = |len: usize| -> String {
            (0..len)
                .map(|_| words[next(words.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let hyps: Vec<String> = (0..300).map(|i| text(i % 37)).collect();
        let refs_a: Vec<String> = (0..300).map(|i| text((i * 7) % 41)).collect();
        let refs_b: Vec<String> = (0..300).map(|i| text((i * 3) % 29)).collect();
        let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let sets: Groups<&str> = (0..300)
            .map(|i| {
                if i % 3 == 0 {
                    vec![refs_a[i].as_str()]
                } else {
                    vec![refs_a[i].as_str(), refs_b[i].as_str()]
                }
            })
            .collect();
        let tok = TercomTokenizer::new(TerOptions::default());
        let corpus = Corpus::new(hyp_refs.clone(), sets.clone()).unwrap();
        let one = corpus_stats(&corpus, &tok, Threads::ONE).unwrap();
        for threads in [0, 2, 3] {
            let many = corpus_stats(&corpus, &tok, Threads::new(threads).unwrap()).unwrap();
            assert_eq!(one, many, "threads {threads}");
        }
        // Any split of the corpus gives the same rows.
        for cut in [1, 64, 299] {
            let head: Groups<&str> = (0..cut).map(|i| sets.get(i).to_vec()).collect();
            let tail: Groups<&str> = (cut..300).map(|i| sets.get(i).to_vec()).collect();
            let two = Threads::new(2).unwrap();
            let head = Corpus::new(hyp_refs[..cut].to_vec(), head).unwrap();
            let tail = Corpus::new(hyp_refs[cut..].to_vec(), tail).unwrap();
            let mut parts = corpus_stats(&head, &tok, two).unwrap();
            parts.extend(corpus_stats(&tail, &tok, two).unwrap());
            assert_eq!(one, parts, "cut {cut}");
        }
        // Segment by segment, with one reused worker.
        let mut w = TerWorker::default();
        for i in 0..300 {
            let row = w.segment(&tok, hyp_refs[i], sets.get(i)).unwrap();
            assert_eq!(&row[..], &one[i * ROW_LEN..(i + 1) * ROW_LEN]);
        }
    }

    #[test]
    fn references_are_tokenized_twice_when_normalized() {
        // sacreBLEU 2.6.0: TER(normalized=True).sentence_score("Squire's, x", ["Squire's, x"])
        // has 2 edits against 4 reference words ("squire 's , x"): the hypothesis is
        // tokenized once ("squire's , x"), the reference twice.
        let normalized = TercomTokenizer::new(TerOptions {
            normalized: true,
            ..TerOptions::default()
        });
        let mut w = TerWorker::default();
        assert_eq!(
            w.segment(&normalized, "squire's, x", &["squire's, x"])
                .unwrap(),
            [2, 4, 1]
        );
        assert_eq!(
            w.segment(&normalized, "<", &["&amp;lt;"]).unwrap(),
            [0, 1, 1]
        );
        let plain = TercomTokenizer::new(TerOptions::default());
        assert_eq!(w.segment(&plain, "<", &["&amp;lt;"]).unwrap(), [1, 1, 1]);
    }

    #[test]
    fn errors_and_empty_cases() {
        let tok = TercomTokenizer::new(TerOptions::default());
        let mut w = TerWorker::default();
        assert!(w.segment(&tok, "a", &[]).is_err());
        assert_eq!(w.segment(&tok, "", &[""]).unwrap(), [0, 0, 1]);
        assert_eq!(w.segment(&tok, "a b", &[""]).unwrap(), [2, 0, 1]);
        assert_eq!(w.segment(&tok, "", &["a b c"]).unwrap(), [3, 3, 1]);
        assert_eq!(w.segment(&tok, "a b", &["", "a b"]).unwrap(), [0, 2, 2]);
        let long = "a ".repeat(crate::ter::MAX_WORDS);
        let sets: Groups<&str> = vec![vec![long.as_str()]].into_iter().collect();
        let corpus = Corpus::new(vec!["a"], sets).unwrap();
        assert!(matches!(
            corpus_stats(&corpus, &tok, Threads::ONE),
            Err(CoreError::InvalidInput(m)) if m.contains("split it into sentences")
        ));
    }
}
