//! N-gram match counts of one hypothesis against each of its references: for every order n,
//! `sum over n-grams g of min(hyp count of g, ref count of g)`, the `match_count` of
//! `CHRF._get_match_statistics` (sacreBLEU 2.6.0). The same code serves character n-grams
//! (symbols are code points) and word n-grams (symbols are words): an n-gram is identified by
//! its sequence of symbols, which is what sacreBLEU's keys are (`line[i:i + n]`, and
//! `' '.join(tokens[i:i + n])`, whose words contain no space, so joining is one-to-one).
//!
//! Representation (a performance decision, as in BLEU's `ngram.rs`): a unigram's id is its
//! symbol id, and an n-gram of order n > 1 gets the next free id from the pair (id of its
//! (n-1)-gram prefix, its last symbol), through one open-addressing map of `u64` keys. So no
//! n-gram is ever hashed as a string or allocated, keys are exact (no collision can change a
//! count), and counts live in arrays indexed by id. The ids of one order form one contiguous
//! range, so each reference's copy of the hypothesis counts is one `memcpy` per order.
//!
//! Pruning on both sides, order by order: a hypothesis n-gram is only extended to order n+1
//! if some reference contains it, and a reference n-gram only if the hypothesis contains it.
//! An extension of a pruned n-gram cannot be on the other side, so no match is lost; totals
//! (`len - n + 1`) need no n-grams at all. So higher orders touch only shared n-grams.

use super::idmap::{take_one, IdMap};
use super::symbols::ABSENT;

/// A hypothesis symbol that no reference has (distinct from [`ABSENT`], a reference symbol
/// the hypothesis lacks, so that their n-grams never meet).
const NOWHERE: u32 = u32::MAX;

/// Reusable buffers of one worker.
#[derive(Debug, Default)]
pub(crate) struct Matcher {
    /// (prefix id, last symbol) -> n-gram id.
    map: IdMap,
    /// Occurrences in the hypothesis of each n-gram id (`[ABSENT]` stays 0).
    hyp_count: Vec<u32>,
    /// One reference's copy of `hyp_count`, used up by its occurrences.
    budget: Vec<u32>,
    /// Whether some reference contains the n-gram id (of the current order).
    found: Vec<bool>,
    /// `(start, id)` of the hypothesis n-grams that survive at the current order.
    hyp_live: Vec<(u32, u32)>,
    /// The same for every reference, back to back; `spans[r]` = (offset, count).
    ref_live: Vec<(u32, u32)>,
    spans: Vec<(usize, usize)>,
}

impl Matcher {
    /// Match counts of orders `1..=max_order` of `hyp` against each reference, into
    /// `out[r * max_order + n - 1]` (`out` is resized and zeroed).
    ///
    /// `hyp` holds symbol ids from 1 to `n_ids - 1` (it is rewritten: symbols no reference
    /// has become [`NOWHERE`]); `refs` holds every reference's symbols back to back (ids of the
    /// hypothesis's symbols, or [`ABSENT`]), reference `r` ending at `ref_ends[r]`. Ids fit
    /// `u32`: the caller bounds `len(hyp) * max_order`.
    pub(crate) fn run(
        &mut self,
        hyp: &mut [u32],
        n_ids: usize,
        refs: &[u32],
        ref_ends: &[usize],
        max_order: usize,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        out.resize(ref_ends.len() * max_order, 0);
        if max_order == 0 {
            return;
        }
        self.unigrams(hyp, n_ids, refs, ref_ends, max_order, out);
        let mut next = n_ids as u32;
        let most = self.hyp_live.len().saturating_mul(max_order - 1);
        self.map.reset(most.min(1 << 14));
        for n in 2..=max_order {
            if self.hyp_live.is_empty() {
                // No (n-1)-gram is shared, so no longer one is: the remaining counts are 0.
                break;
            }
            let lo = next as usize;
            next = self.extend_hypothesis(hyp, n, next);
            let hi = next as usize;
            self.found.truncate(lo);
            self.found.resize(hi, false);
            if self.budget.len() < hi {
                self.budget.resize(hi, 0);
            }
            let mut start = 0;
            for (r, &end) in ref_ends.iter().enumerate() {
                let m = self.match_reference(&refs[start..end], r, n, lo..hi);
                out[r * max_order + n - 1] = m;
                start = end;
            }
            // Lookups that missed marked `ABSENT` as found.
            self.found[ABSENT as usize] = false;
            let found = &self.found;
            self.hyp_live.retain(|&(_, id)| found[id as usize]);
        }
    }

    /// Order 1: counts, matches, and the surviving positions of both sides.
    fn unigrams(
        &mut self,
        hyp: &mut [u32],
        n_ids: usize,
        refs: &[u32],
        ref_ends: &[usize],
        max_order: usize,
        out: &mut [u32],
    ) {
        self.hyp_count.clear();
        self.hyp_count.resize(n_ids, 0);
        for &s in hyp.iter() {
            self.hyp_count[s as usize] += 1;
        }
        self.found.clear();
        self.found.resize(n_ids, false);
        if self.budget.len() < n_ids {
            self.budget.resize(n_ids, 0);
        }
        self.ref_live.clear();
        self.spans.clear();
        let mut start = 0;
        for (r, &end) in ref_ends.iter().enumerate() {
            self.budget[..n_ids].copy_from_slice(&self.hyp_count);
            let offset = self.ref_live.len();
            let mut m = 0;
            for (i, &s) in refs[start..end].iter().enumerate() {
                m += take_one(&mut self.budget[s as usize]);
                self.found[s as usize] = true;
                if s != ABSENT {
                    self.ref_live.push((i as u32, s));
                }
            }
            self.spans.push((offset, self.ref_live.len() - offset));
            out[r * max_order] = m;
            start = end;
        }
        self.found[ABSENT as usize] = false;
        // A hypothesis symbol no reference has cannot be in a shared n-gram: it becomes
        // `NOWHERE`, which no reference n-gram ends with, so that n-grams ending with it are
        // never found (and then dropped) without a test in the hypothesis loop.
        self.hyp_live.clear();
        for (i, s) in hyp.iter_mut().enumerate() {
            if self.found[*s as usize] {
                self.hyp_live.push((i as u32, *s));
            } else {
                *s = NOWHERE;
            }
        }
    }

    /// Gives ids to the order-`n` n-grams of the hypothesis that extend a surviving
    /// (n-1)-gram, counting them; returns the next free id.
    fn extend_hypothesis(&mut self, hyp: &[u32], n: usize, next: u32) -> u32 {
        let lo = next as usize;
        self.hyp_count.truncate(lo);
        self.hyp_count.resize(lo + self.hyp_live.len(), 0);
        let tail = hyp.get(n - 1..).unwrap_or_default();
        self.map
            .extend(tail, &mut self.hyp_live, &mut self.hyp_count, next)
    }

    /// Matches reference `r`'s order-`n` n-grams (`syms`: its symbols) against the
    /// hypothesis ids in `ids`, marks the shared ones found, and keeps its surviving ones.
    fn match_reference(
        &mut self,
        syms: &[u32],
        r: usize,
        n: usize,
        ids: std::ops::Range<usize>,
    ) -> u32 {
        self.budget[ids.clone()].copy_from_slice(&self.hyp_count[ids]);
        let (offset, count) = self.spans[r];
        let live = &mut self.ref_live[offset..offset + count];
        let tail = syms.get(n - 1..).unwrap_or_default();
        let (m, kept) = self
            .map
            .lookup(tail, live, &mut self.budget, &mut self.found);
        self.spans[r].1 = kept;
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// `sum(min(h[g], r[g]))` over n-grams of order n, with explicit `HashMap`s.
    fn naive(hyp: &[u32], r: &[u32], n: usize) -> u32 {
        let count = |s: &[u32]| {
            let mut m: HashMap<Vec<u32>, u32> = HashMap::new();
            for w in s.windows(n) {
                *m.entry(w.to_vec()).or_default() += 1;
            }
            m
        };
        let (h, rc) = (count(hyp), count(r));
        h.iter()
            .map(|(g, &c)| c.min(rc.get(g).copied().unwrap_or(0)))
            .sum()
    }

    #[test]
    fn equals_naive_counts() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % k
        };
        let mut m = Matcher::default();
        let mut out = Vec::new();
        for _ in 0..300 {
            let alphabet = 1 + rnd(6);
            let hyp: Vec<u32> = (0..rnd(30)).map(|_| 1 + rnd(alphabet) as u32).collect();
            let n_refs = 1 + rnd(3) as usize;
            let refs: Vec<Vec<u32>> = (0..n_refs)
                .map(|_| (0..rnd(30)).map(|_| rnd(alphabet + 1) as u32).collect())
                .collect();
            let flat: Vec<u32> = refs.concat();
            let ends: Vec<usize> = refs
                .iter()
                .scan(0, |e, r| {
                    *e += r.len();
                    Some(*e)
                })
                .collect();
            let max_order = 1 + rnd(7) as usize;
            let mut h = hyp.clone();
            m.run(
                &mut h,
                1 + alphabet as usize,
                &flat,
                &ends,
                max_order,
                &mut out,
            );
            for (r, rs) in refs.iter().enumerate() {
                // ABSENT (0) in a reference stands for a symbol the hypothesis lacks.
                let rs: Vec<u32> = rs.iter().map(|&s| if s == 0 { 99 } else { s }).collect();
                for n in 1..=max_order {
                    assert_eq!(out[r * max_order + n - 1], naive(&hyp, &rs, n));
                }
            }
        }
    }
}
