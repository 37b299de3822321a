//! Per-segment chrF statistics over a corpus, in parallel.
//!
//! A segment's row is sacreBLEU 2.6.0's `CHRF._compute_segment_statistics`: for each
//! reference in order, `[hyp, ref, match]` per order (`_get_match_statistics`, char orders then
//! word orders) and its sentence F (`_compute_f_score`, in the instance's smoothing mode); the
//! row of the first reference with the highest F wins. Rows are independent, so any split of
//! the corpus over threads gives identical rows.

use super::ngrams::{Matcher, NOWHERE, PAD};
use super::options::ChrfOptions;
use super::scan::Scan;
use super::score::f_score;
use super::symbols::{CharVocab, WordVocab, ABSENT};
use crate::corpus::Corpus;
use crate::engine::parallel::{try_for_each_row_in, zeroed_on, Threads, WorkerPool};
use crate::error::CoreError;

/// One side's symbols of a segment: the hypothesis's, every reference's back to back (each
/// text followed by [`PAD`] padding symbols), and the match counts the [`Matcher`] finds.
#[derive(Debug, Default)]
struct Side {
    hyp: Vec<u32>,
    /// Length in symbols of the hypothesis, without its padding.
    hyp_len: usize,
    refs: Vec<u32>,
    /// `(start, end)` of each reference in `refs`, without its padding.
    spans: Vec<(usize, usize)>,
    matches: Vec<u32>,
}

impl Side {
    fn clear(&mut self) {
        self.hyp.clear();
        self.refs.clear();
        self.spans.clear();
    }

    /// Ends the hypothesis: its length, then its padding.
    fn end_hypothesis(&mut self) {
        self.hyp_len = self.hyp.len();
        self.hyp.extend([NOWHERE; PAD]);
    }

    /// Ends the reference that started at `start`: its span, then its padding.
    fn end_reference(&mut self, start: usize) {
        self.spans.push((start, self.refs.len()));
        self.refs.extend([ABSENT; PAD]);
    }

    fn ref_len(&self, r: usize) -> usize {
        self.spans[r].1 - self.spans[r].0
    }

    /// `[hyp, ref, match]` of orders `1..=order` against reference `r`, into `out`.
    ///
    /// Totals are `len - n + 1` (no n-grams needed). `hyp` is zeroed where the reference has
    /// no n-gram of the order (`hyp_count if ref_ngrams else 0` in `_get_match_statistics`).
    fn fill(&self, r: usize, order: usize, out: &mut [i64]) {
        let ref_len = self.ref_len(r);
        for (k, t) in out.chunks_exact_mut(3).enumerate().take(order) {
            let n_ref = ref_len.saturating_sub(k);
            let n_hyp = if n_ref > 0 {
                self.hyp_len.saturating_sub(k)
            } else {
                0
            };
            t[0] = n_hyp as i64;
            t[1] = n_ref as i64;
            t[2] = i64::from(self.matches[r * order + k]);
        }
    }
}

/// One worker's reusable buffers (no allocation in the steady state).
#[derive(Debug, Default)]
pub(crate) struct Worker {
    lower: String,
    scan: Scan,
    chars: CharVocab,
    words: WordVocab,
    char_side: Side,
    word_side: Side,
    matcher: Matcher,
    candidate: Vec<i64>,
    /// A row for callers that want scores only.
    row: Vec<i64>,
}

/// `text`, with ASCII letters lowercased into `buf` if asked and needed.
fn lowered<'a>(buf: &'a mut String, text: &'a str, lowercase: bool) -> &'a str {
    if lowercase && text.bytes().any(|b| b.is_ascii_uppercase()) {
        buf.clear();
        buf.push_str(text);
        buf.make_ascii_lowercase();
        buf
    } else {
        text
    }
}

impl Worker {
    /// Counts the matches of `hyp` against every reference in `refs` (then read by
    /// [`Worker::fill`]).
    fn count(&mut self, hyp: &str, refs: &[&str], p: &ChrfOptions) {
        let (n_chars, n_words) = (p.char_order(), p.word_order());
        let Worker {
            lower,
            scan,
            chars,
            words,
            char_side: cs,
            word_side: ws,
            matcher,
            ..
        } = self;
        // The hypothesis is interned first, then each reference is looked up; each text is
        // lowercased once for both its characters and its words.
        chars.clear();
        words.clear();
        cs.clear();
        ws.clear();
        let text = lowered(lower, hyp, p.lowercase_ascii());
        scan.spaces(text);
        if n_chars > 0 {
            chars.intern(text, scan, p.whitespace(), &mut cs.hyp);
        }
        if n_words > 0 {
            scan.words(text);
            words.intern(text, scan, &mut ws.hyp);
        }
        cs.end_hypothesis();
        ws.end_hypothesis();
        for r in refs {
            let text = lowered(lower, r, p.lowercase_ascii());
            scan.spaces(text);
            let start = cs.refs.len();
            if n_chars > 0 {
                chars.lookup(text, scan, p.whitespace(), &mut cs.refs);
            }
            cs.end_reference(start);
            let start = ws.refs.len();
            if n_words > 0 {
                scan.words(text);
                words.lookup(text, scan, &mut ws.refs);
            }
            ws.end_reference(start);
        }
        for (side, n_ids, order) in [
            (&mut *cs, chars.n_ids(), n_chars),
            (&mut *ws, words.n_ids(), n_words),
        ] {
            let Side {
                hyp,
                hyp_len,
                refs,
                spans,
                matches,
            } = side;
            matcher.run((hyp, *hyp_len), n_ids, (refs, spans), order, matches);
        }
    }

    /// The row of the hypothesis against reference `r` of the last [`Worker::count`].
    fn fill(&self, r: usize, p: &ChrfOptions, row: &mut [i64]) {
        let (row_chars, row_words) = row.split_at_mut(3 * p.char_order());
        self.char_side.fill(r, p.char_order(), row_chars);
        self.word_side.fill(r, p.word_order(), row_words);
    }

    /// Statistics of one segment into `row`; returns its sentence F score.
    fn segment(&mut self, hyp: &str, refs: &[&str], p: &ChrfOptions, row: &mut [i64]) -> f64 {
        self.count(hyp, refs, p);
        if refs.len() == 1 {
            self.fill(0, p, row);
            return f_score(row, p);
        }
        // `_compute_segment_statistics`: strict `>` from -1.0, so the first reference wins
        // ties (and is kept when every F is 0).
        let mut best = -1.0;
        let mut candidate = std::mem::take(&mut self.candidate);
        candidate.resize(row.len(), 0);
        for r in 0..refs.len() {
            self.fill(r, p, &mut candidate);
            let f = f_score(&candidate, p);
            if f > best {
                best = f;
                row.copy_from_slice(&candidate);
            }
        }
        self.candidate = candidate;
        best
    }

    /// The sentence F score of `hyp` against each reference of `refs` on its own, into `out`
    /// (`sentence_score(hyp, [refs[j]])` for each `j`): one row of a pairwise matrix, with the
    /// hypothesis interned once.
    pub(crate) fn each_reference(
        &mut self,
        hyp: &str,
        refs: &[&str],
        p: &ChrfOptions,
        out: &mut [f64],
    ) {
        self.count(hyp, refs, p);
        let mut row = std::mem::take(&mut self.row);
        row.resize(p.row_len(), 0);
        for (r, o) in out.iter_mut().enumerate() {
            self.fill(r, p, &mut row);
            *o = f_score(&row, p);
        }
        self.row = row;
    }
}

/// Workers kept between calls, so that repeated calls (batches in a training loop) do not
/// allocate and fault in their buffers again.
pub(crate) static WORKERS: WorkerPool<Worker> = WorkerPool::new();

/// The longest text (hypothesis or reference) rapidbleu counts, in bytes: positions and
/// n-gram classes are `u32` below 2**31 (table keys need the top bit clear). 2 GiB is far
/// beyond any real segment, and checked so that a giant input is an error, not a wrong count.
const MAX_TEXT_BYTES: usize = (1 << 31) - 2;

/// The check shared by the entry points (the corpus itself checked its lengths and that every
/// segment has a reference): no text of segment `i` too long to count.
fn check_corpus_segment(corpus: &Corpus<&str>, i: usize) -> Result<(), CoreError> {
    let longest = corpus
        .refs(i)
        .iter()
        .map(|r| r.len())
        .fold(corpus.hyp(i).len(), usize::max);
    check_length(i, longest)
}

/// An error if `segment` holds a text of `bytes` bytes, more than can be counted.
pub(crate) fn check_length(segment: usize, bytes: usize) -> Result<(), CoreError> {
    if bytes > MAX_TEXT_BYTES {
        return Err(CoreError::InvalidInput(format!(
            "segment {segment} holds a text of {bytes} bytes, more than rapidbleu can count \
             (2**31 - 2); split it into sentences"
        )));
    }
    Ok(())
}

/// chrF statistics of a corpus: each hypothesis against its references, rows of
/// [`ChrfOptions::row_len`] values, row-major.
///
/// The corpus score is [`f_score`] of the element-wise sum of the rows.
pub fn corpus_stats(
    corpus: &Corpus<&str>,
    opts: &ChrfOptions,
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    let row_len = opts.row_len();
    let mut out = zeroed_on(corpus.len(), row_len, threads)?;
    try_for_each_row_in(
        &WORKERS,
        &mut out,
        row_len,
        threads,
        Worker::default,
        |w, i, row| {
            check_corpus_segment(corpus, i)?;
            w.segment(corpus.hyp(i), corpus.refs(i), opts, row);
            Ok(())
        },
    )?;
    Ok(out)
}

/// Sentence chrF of every segment (`CHRF.sentence_score` for each), scored inside the
/// parallel statistics pass: no statistics array and no second pass.
pub fn sentence_scores(
    corpus: &Corpus<&str>,
    opts: &ChrfOptions,
    threads: Threads,
) -> Result<Vec<f64>, CoreError> {
    let mut out = zeroed_on(corpus.len(), 1, threads)?;
    try_for_each_row_in(
        &WORKERS,
        &mut out,
        1,
        threads,
        Worker::default,
        |w, i, score| {
            check_corpus_segment(corpus, i)?;
            let mut row = std::mem::take(&mut w.row);
            row.resize(opts.row_len(), 0);
            score[0] = w.segment(corpus.hyp(i), corpus.refs(i), opts, &mut row);
            w.row = row;
            Ok(())
        },
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chrf::score::score_rows;
    use crate::corpus::Groups;

    /// A deterministic corpus of mixed ASCII, non-ASCII and whitespace, 1 to 3 references.
    fn corpus(n: usize) -> (Vec<String>, Vec<Vec<String>>) {
        let words = [
            "the", "cat", "Sat", "on", "mat.", "(hi)", "über", "中文", "😀", "a", ",",
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move |k: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k as u64) as usize
        };
        let sentence = |rnd: &mut dyn FnMut(usize) -> usize| {
            let len = rnd(12);
            let seps = [" ", "  ", "\u{a0}", "\t", "\x1f"];
            (0..len)
                .map(|_| format!("{}{}", words[rnd(words.len())], seps[rnd(seps.len())]))
                .collect::<String>()
        };
        let hyps: Vec<String> = (0..n).map(|_| sentence(&mut rnd)).collect();
        let refs = (0..n)
            .map(|_| (0..1 + rnd(3)).map(|_| sentence(&mut rnd)).collect())
            .collect();
        (hyps, refs)
    }

    #[test]
    fn threads_and_splits_give_identical_rows() {
        let (hyps, refs) = corpus(700);
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let sets: Groups<&str> = refs
            .iter()
            .map(|r| r.iter().map(String::as_str).collect::<Vec<_>>())
            .collect();
        let all = Corpus::new(hyps.clone(), sets.clone()).unwrap();
        for (c, w, eps) in [(6, 0, false), (6, 2, true), (0, 3, false)] {
            let p = ChrfOptions::new(c, w, 4.0, false, eps, true).unwrap();
            let one = corpus_stats(&all, &p, Threads::ONE).unwrap();
            for threads in [0, 2, 3] {
                let got = corpus_stats(&all, &p, Threads::new(threads).unwrap()).unwrap();
                assert_eq!(got, one);
            }
            for split in [1, 64, 333, 699] {
                let part = |range: std::ops::Range<usize>| {
                    let refs: Groups<&str> = range.clone().map(|i| sets.get(i).to_vec()).collect();
                    Corpus::new(hyps[range].to_vec(), refs).unwrap()
                };
                let two = Threads::new(2).unwrap();
                let mut a = corpus_stats(&part(0..split), &p, two).unwrap();
                a.extend(corpus_stats(&part(split..hyps.len()), &p, two).unwrap());
                assert_eq!(a, one);
            }
            // Fused sentence scores are the scores of the rows.
            let want = score_rows(&one, &p).unwrap();
            for threads in [1, 2] {
                let got = sentence_scores(&all, &p, Threads::new(threads).unwrap()).unwrap();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn empty_corpus_and_texts() {
        let p = ChrfOptions::new(6, 2, 4.0, false, false, false).unwrap();
        let none = Corpus::new(vec![], Groups::new()).unwrap();
        assert!(corpus_stats(&none, &p, Threads::ONE).unwrap().is_empty());
        let empty = Corpus::new(vec![""], [[""]].into_iter().collect()).unwrap();
        assert_eq!(corpus_stats(&empty, &p, Threads::ONE).unwrap(), vec![0; 24]);
        assert_eq!(
            sentence_scores(&empty, &p, Threads::ONE).unwrap(),
            vec![0.0]
        );
    }
}
