//! The `rouge` package's n-gram counts (`rouge_score.rouge_n`, `_get_word_ngrams`, `Ngrams`):
//! with `exclusive=True` (its default) the n-grams of a text are a *set*, so a count is the
//! number of distinct n-grams and the overlap the size of the sets' intersection; with
//! `exclusive=False` they are a list, the count is every n-gram and the overlap the clipped
//! (multiset) intersection that `Ngrams.intersection` builds by popping matches.

use rustc_hash::FxHashMap;

/// `(hyp_count, ref_count, overlap)` of one n-gram order.
pub type Counts = [i64; 3];

/// Scratch space for n-gram counts, kept by a worker across items.
#[derive(Default)]
pub struct NgramCounts {
    level: FxHashMap<u64, u32>,
    hyp: Vec<u32>,
    refs: Vec<u32>,
    next: Vec<u32>,
    count_h: Vec<u32>,
    count_r: Vec<u32>,
}

impl NgramCounts {
    /// The counts of the `n`-grams of the words `hyp` and `refs` (flattened over sentences,
    /// so n-grams cross sentence ends, as `_split_into_words` makes them).
    pub fn counts(&mut self, hyp: &[u32], refs: &[u32], n: usize, exclusive: bool) -> Counts {
        // An n-gram is interned level by level, as rouge-score's counter does
        // (`rouge::ngram`): its (n-1)-gram prefix's id and its last word make a u64 key.
        self.hyp.clear();
        self.hyp.extend_from_slice(hyp);
        self.refs.clear();
        self.refs.extend_from_slice(refs);
        for k in 1..n {
            self.level.clear();
            extend(&mut self.level, &mut self.hyp, hyp, k, &mut self.next);
            extend(&mut self.level, &mut self.refs, refs, k, &mut self.next);
        }
        let (h, r) = (&self.hyp, &self.refs);
        let need = h.iter().chain(r).max().map_or(0, |&m| m as usize + 1);
        if self.count_h.len() < need {
            self.count_h.resize(need, 0);
            self.count_r.resize(need, 0);
        }
        for &g in h {
            self.count_h[g as usize] += 1;
        }
        for &g in r {
            self.count_r[g as usize] += 1;
        }
        let (mut dh, mut dr, mut overlap) = (0i64, 0i64, 0i64);
        for &g in h {
            let (ch, cr) = (self.count_h[g as usize], self.count_r[g as usize]);
            if ch > 0 {
                dh += 1;
                if cr > 0 {
                    overlap += if exclusive { 1 } else { i64::from(ch.min(cr)) };
                }
                // Each distinct n-gram once: zero its hypothesis count on first sight.
                self.count_h[g as usize] = 0;
            }
        }
        for &g in r {
            if self.count_r[g as usize] > 0 {
                dr += 1;
                self.count_r[g as usize] = 0;
            }
        }
        if exclusive {
            [dh, dr, overlap]
        } else {
            [h.len() as i64, r.len() as i64, overlap]
        }
    }
}

/// Replaces `ids` (the ids of the `k`-grams of `words`) by the ids of its `k+1`-grams.
fn extend(
    level: &mut FxHashMap<u64, u32>,
    ids: &mut Vec<u32>,
    words: &[u32],
    k: usize,
    next: &mut Vec<u32>,
) {
    next.clear();
    let count = ids.len().saturating_sub(1);
    for (i, &p) in ids[..count].iter().enumerate() {
        let key = (u64::from(p) << 32) | u64::from(words[i + k]);
        let id = level.len() as u32;
        next.push(*level.entry(key).or_insert(id));
    }
    std::mem::swap(ids, next);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_lists() {
        let mut c = NgramCounts::default();
        // hyp "a a b", ref "a b b": unigram sets {a, b} and {a, b}; lists clip to 2.
        assert_eq!(c.counts(&[0, 0, 1], &[0, 1, 1], 1, true), [2, 2, 2]);
        assert_eq!(c.counts(&[0, 0, 1], &[0, 1, 1], 1, false), [3, 3, 2]);
        assert_eq!(c.counts(&[0, 0, 1], &[0, 1, 1], 2, true), [2, 2, 1]);
        assert_eq!(c.counts(&[0, 1, 0, 1], &[0, 1, 0], 2, false), [3, 2, 2]);
        assert_eq!(c.counts(&[0], &[0, 1], 2, false), [0, 1, 0]);
        assert_eq!(c.counts(&[0, 1, 2], &[0, 1, 2], 5, true), [0, 0, 0]);
    }
}
