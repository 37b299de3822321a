//! The `rouge` package's summary-level ROUGE-L (`rouge_score.rouge_l_summary_level`,
//! `_union_lcs`, `_recon_lcs`): for every reference sentence and every hypothesis sentence,
//! one LCS read back from the table by `_recon_lcs`, whose *words* (not positions) are
//! gathered in an `Ngrams` union.
//!
//! With `exclusive=True` the union is a set of words: the overlap is the number of distinct
//! words on any chosen LCS, and `m`/`n` count distinct words. With `exclusive=False` the union
//! is a list that each LCS extends: the overlap is the sum of all the LCS lengths, and `m`/`n`
//! count every word. Which LCS `_recon_lcs` reads matters to the set, so its choices are
//! copied: a match is taken, else up (`i - 1`) when `table[i-1, j] > table[i, j-1]`, else left.

use super::super::lcs::{step, table_value, Masks};

/// Scratch space for [`UnionLcs::summary`], kept by a worker across items.
#[derive(Default)]
pub struct UnionLcs {
    masks: Masks,
    rows: Vec<u64>,
    /// Per word id: the stamp of the item whose union holds it.
    in_union: Vec<u32>,
    /// Per word id: the stamp of the item whose distinct-word count saw it.
    seen: Vec<u32>,
    stamp: u32,
}

/// What [`UnionLcs::summary`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `n`: the hypothesis's words (distinct when exclusive).
    pub hyp: i64,
    /// `m`: the reference's words (distinct when exclusive).
    pub refs: i64,
    /// `llcs`: the union's size.
    pub overlap: i64,
    /// The deepest recursion of `_recon_lcs`'s `_recon` over all sentence pairs: the calls
    /// that one read-back makes (CPython raises `RecursionError` when, added to the caller's
    /// frames, they pass `sys.getrecursionlimit()`).
    pub depth: i64,
}

impl UnionLcs {
    fn next_stamp(&mut self, words: usize) {
        if self.in_union.len() < words {
            self.in_union.resize(words, 0);
            self.seen.resize(words, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.in_union.fill(0);
            self.seen.fill(0);
            self.stamp = 1;
        }
    }

    fn distinct(&mut self, words: &[u32]) -> i64 {
        let mut d = 0;
        for &w in words {
            if self.seen[w as usize] != self.stamp {
                self.seen[w as usize] = self.stamp;
                d += 1;
            }
        }
        // Leave `seen` clear of this text for the next one: restamp after counting.
        for &w in words {
            self.seen[w as usize] = 0;
        }
        d
    }

    /// `rouge_l_summary_level` of hypothesis sentences `hyp` and reference sentences `refs`
    /// (each non-empty; word ids below `vocab`).
    pub fn summary<'a>(
        &mut self,
        hyp: impl Iterator<Item = &'a [u32]> + Clone,
        hyp_words: &[u32],
        refs: impl Iterator<Item = &'a [u32]> + Clone,
        ref_words: &[u32],
        vocab: usize,
        exclusive: bool,
    ) -> Summary {
        self.next_stamp(vocab);
        let (n, m) = if exclusive {
            (self.distinct(hyp_words), self.distinct(ref_words))
        } else {
            (hyp_words.len() as i64, ref_words.len() as i64)
        };
        let mut overlap = 0i64;
        let mut depth = 0i64;
        // The union is a set (or a sum), so hypothesis sentences may be the outer loop: each
        // one's masks are built once.
        for ys in hyp {
            self.masks.build(ys);
            for xs in refs.clone() {
                let (len, d) = self.recon(xs, ys, exclusive);
                overlap += len;
                depth = depth.max(d);
            }
            self.masks.clear(ys);
        }
        Summary {
            hyp: n,
            refs: m,
            overlap,
            depth,
        }
    }

    /// `_recon_lcs(xs, ys)` (masks of `ys` built): adds its words to the union and returns
    /// what they add to the overlap (new distinct words, or the LCS length) and the number of
    /// `_recon` calls.
    fn recon(&mut self, xs: &[u32], ys: &[u32], exclusive: bool) -> (i64, i64) {
        let words = self.masks.words;
        self.rows.clear();
        self.rows.resize((xs.len() + 1) * words, !0);
        for (i, &t) in xs.iter().enumerate() {
            let (done, next) = self.rows.split_at_mut((i + 1) * words);
            let row = &mut next[..words];
            row.copy_from_slice(&done[i * words..]);
            if let Some(mk) = self.masks.of(t) {
                step(row, mk);
            }
        }
        let at = |i: usize, j: usize| table_value(&self.rows[i * words..(i + 1) * words], j);
        let (mut i, mut j) = (xs.len(), ys.len());
        let mut calls = 1i64;
        let mut added = 0i64;
        while i > 0 && j > 0 {
            calls += 1;
            if xs[i - 1] == ys[j - 1] {
                let w = xs[i - 1] as usize;
                if !exclusive {
                    added += 1;
                } else if self.in_union[w] != self.stamp {
                    self.in_union[w] = self.stamp;
                    added += 1;
                }
                i -= 1;
                j -= 1;
            } else if at(i - 1, j) > at(i, j - 1) {
                i -= 1;
            } else {
                j -= 1;
            }
        }
        (added, calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    /// `_recon_lcs` and `rouge_l_summary_level` as written in Python (a dict table).
    fn python(hyp: &[Vec<u32>], refs: &[Vec<u32>], exclusive: bool) -> (i64, i64, i64) {
        let hw: Vec<u32> = hyp.concat();
        let rw: Vec<u32> = refs.concat();
        let count = |w: &[u32]| {
            if exclusive {
                w.iter().collect::<BTreeSet<_>>().len() as i64
            } else {
                w.len() as i64
            }
        };
        let mut set = BTreeSet::new();
        let mut list = 0i64;
        for x in refs {
            for y in hyp {
                let mut t: HashMap<(usize, usize), i64> = HashMap::new();
                for i in 0..=x.len() {
                    for j in 0..=y.len() {
                        let v = if i == 0 || j == 0 {
                            0
                        } else if x[i - 1] == y[j - 1] {
                            t[&(i - 1, j - 1)] + 1
                        } else {
                            t[&(i - 1, j)].max(t[&(i, j - 1)])
                        };
                        t.insert((i, j), v);
                    }
                }
                let (mut i, mut j) = (x.len(), y.len());
                while i > 0 && j > 0 {
                    if x[i - 1] == y[j - 1] {
                        set.insert(x[i - 1]);
                        list += 1;
                        i -= 1;
                        j -= 1;
                    } else if t[&(i - 1, j)] > t[&(i, j - 1)] {
                        i -= 1;
                    } else {
                        j -= 1;
                    }
                }
            }
        }
        let overlap = if exclusive { set.len() as i64 } else { list };
        (count(&hw), count(&rw), overlap)
    }

    #[test]
    fn equals_the_python_table() {
        let mut u = UnionLcs::default();
        let mut x = 7u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for round in 0..300 {
            let mut sents = || {
                (0..next(3) + 1)
                    .map(|_| {
                        let len = next(if round % 10 == 0 { 90 } else { 9 }) + 1;
                        (0..len).map(|_| next(6) as u32).collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            };
            let (h, r) = (sents(), sents());
            for exclusive in [true, false] {
                let s = u.summary(
                    h.iter().map(Vec::as_slice),
                    &h.concat(),
                    r.iter().map(Vec::as_slice),
                    &r.concat(),
                    6,
                    exclusive,
                );
                assert_eq!((s.hyp, s.refs, s.overlap), python(&h, &r, exclusive));
            }
        }
    }
}
