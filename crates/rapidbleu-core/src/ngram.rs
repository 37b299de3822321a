//! N-gram counting and clipping for one segment, exactly as sacreBLEU's
//! `extract_all_word_ngrams` + `BLEU._extract_reference_info` + `_compute_segment_statistics`.
//!
//! Representation (a performance decision): tokens get segment-local integer ids, and an n-gram
//! of order n gets an id from the pair (id of its (n-1)-gram prefix, id of its last token). So
//! every n-gram of any order is one `u64` key in one hash map, with no per-n-gram allocation
//! and no limit on the order, and the counts live in a `Vec` indexed by n-gram id. Keys are
//! exact (no hashing of strings into fingerprints), so no collision can change a count.
//!
//! The reference side builds a [`RefTable`] (max count of each n-gram over the references,
//! `Counter |=` in sacreBLEU); the hypothesis side only looks n-grams up in it: an n-gram whose
//! token or prefix is not in the table cannot match, and still counts towards the total.

use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;

/// Prefix id of unigrams.
const ROOT: u32 = u32::MAX;
/// Id of a hypothesis token or n-gram that no reference contains.
const MISSING: u32 = u32::MAX - 1;

#[inline]
fn hash_bytes(b: &[u8]) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(b)
}

#[inline]
fn key(prefix: u32, token: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(token)
}

/// The reference side of one segment: vocabulary, n-gram ids, clipped counts and lengths.
#[derive(Default, Clone, Debug)]
pub struct RefTable {
    /// Bytes of the distinct reference tokens.
    arena: Vec<u8>,
    /// (start, len, id) of each distinct token in `arena`.
    vocab: HashTable<(u32, u32, u32)>,
    n_tokens: u32,
    /// (prefix id, last token id) -> n-gram id.
    ngrams: FxHashMap<u64, u32>,
    /// n-gram id -> maximum count over the references.
    max_counts: Vec<u32>,
    /// Length in tokens of each reference, in the order given.
    lens: Vec<u32>,
}

/// Scratch space reused across segments by one worker.
#[derive(Default, Debug)]
pub struct Scratch {
    ids: Vec<u32>,
    prev: Vec<u32>,
    cur: Vec<u32>,
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl RefTable {
    /// Empties the table, keeping its allocations.
    pub fn clear(&mut self) {
        self.arena.clear();
        self.vocab.clear();
        self.n_tokens = 0;
        self.ngrams.clear();
        self.max_counts.clear();
        self.lens.clear();
    }

    /// Number of references added.
    pub fn n_refs(&self) -> usize {
        self.lens.len()
    }

    /// Releases spare capacity (for tables kept in a reference cache).
    pub fn shrink_to_fit(&mut self) {
        self.arena.shrink_to_fit();
        let arena = &self.arena;
        self.vocab
            .shrink_to_fit(|&(s, l, _)| hash_bytes(&arena[s as usize..(s + l) as usize]));
        self.ngrams.shrink_to_fit();
        self.max_counts.shrink_to_fit();
        self.lens.shrink_to_fit();
    }

    fn intern(&mut self, tok: &[u8]) -> u32 {
        let h = hash_bytes(tok);
        let arena = &self.arena;
        if let Some(&(_, _, id)) = self
            .vocab
            .find(h, |&(s, l, _)| &arena[s as usize..(s + l) as usize] == tok)
        {
            return id;
        }
        let id = self.n_tokens;
        self.n_tokens += 1;
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(tok);
        let arena = &self.arena;
        self.vocab.insert_unique(h, (start, tok.len() as u32, id), |&(s, l, _)| {
            hash_bytes(&arena[s as usize..(s + l) as usize])
        });
        id
    }

    fn lookup(&self, tok: &[u8]) -> u32 {
        let arena = &self.arena;
        self.vocab
            .find(hash_bytes(tok), |&(s, l, _)| &arena[s as usize..(s + l) as usize] == tok)
            .map_or(MISSING, |&(_, _, id)| id)
    }

    /// Adds one reference: its tokens, in order, counted up to `max_order`.
    pub fn add_reference<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t [u8]>,
        max_order: usize,
        sc: &mut Scratch,
    ) {
        sc.ids.clear();
        for tok in tokens {
            let id = self.intern(tok);
            sc.ids.push(id);
        }
        let len = sc.ids.len();
        self.lens.push(len as u32);
        sc.touched.clear();
        sc.prev.clear();
        sc.prev.resize(len, ROOT);
        for n in 1..=max_order.min(len) {
            sc.cur.clear();
            for i in 0..=(len - n) {
                let k = key(sc.prev[i], sc.ids[i + n - 1]);
                let next = self.max_counts.len() as u32;
                let id = *self.ngrams.entry(k).or_insert(next);
                if id == next {
                    self.max_counts.push(0);
                }
                let idx = id as usize;
                if idx >= sc.counts.len() {
                    sc.counts.resize(idx + 1, 0);
                }
                if sc.counts[idx] == 0 {
                    sc.touched.push(id);
                }
                sc.counts[idx] += 1;
                sc.cur.push(id);
            }
            std::mem::swap(&mut sc.prev, &mut sc.cur);
        }
        for &id in &sc.touched {
            let idx = id as usize;
            self.max_counts[idx] = self.max_counts[idx].max(sc.counts[idx]);
            sc.counts[idx] = 0;
        }
    }

    /// sacreBLEU's `BLEU._get_closest_ref_len`: the reference length closest to `hyp_len`,
    /// ties going to the shorter one. `None` if there is no reference.
    pub fn closest_ref_len(&self, hyp_len: u32) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for &r in &self.lens {
            let diff = hyp_len.abs_diff(r);
            best = match best {
                None => Some((diff, r)),
                Some((d, l)) if diff < d || (diff == d && r < l) => Some((diff, r)),
                keep => keep,
            };
        }
        best.map(|(_, l)| l)
    }

    /// Writes `[hyp_len, ref_len, correct_1..N, total_1..N]` for a hypothesis into `row`
    /// (`row.len() == 2 + 2 * max_order`).
    pub fn match_hypothesis<'t>(
        &self,
        tokens: impl Iterator<Item = &'t [u8]>,
        row: &mut [i64],
        sc: &mut Scratch,
    ) {
        let max_order = (row.len() - 2) / 2;
        sc.ids.clear();
        for tok in tokens {
            let id = self.lookup(tok);
            sc.ids.push(id);
        }
        let len = sc.ids.len();
        row.fill(0);
        row[0] = len as i64;
        row[1] = i64::from(self.closest_ref_len(len as u32).unwrap_or(0));
        for n in 1..=max_order {
            row[2 + max_order + n - 1] = (len + 1).saturating_sub(n) as i64;
        }
        sc.touched.clear();
        sc.prev.clear();
        sc.prev.resize(len, ROOT);
        for n in 1..=max_order.min(len) {
            sc.cur.clear();
            let mut correct = 0i64;
            let mut any = false;
            for i in 0..=(len - n) {
                let (p, t) = (sc.prev[i], sc.ids[i + n - 1]);
                let id = if p == MISSING || t == MISSING {
                    MISSING
                } else {
                    self.ngrams.get(&key(p, t)).copied().unwrap_or(MISSING)
                };
                if id != MISSING {
                    any = true;
                    let idx = id as usize;
                    if idx >= sc.counts.len() {
                        sc.counts.resize(idx + 1, 0);
                    }
                    if sc.counts[idx] == 0 {
                        sc.touched.push(id);
                    }
                    sc.counts[idx] += 1;
                    // min(hyp_count, ref_max) summed over n-grams, one occurrence at a time.
                    if sc.counts[idx] <= self.max_counts[idx] {
                        correct += 1;
                    }
                }
                sc.cur.push(id);
            }
            row[2 + n - 1] = correct;
            std::mem::swap(&mut sc.prev, &mut sc.cur);
            if !any {
                // No n-gram of this order matched, so no longer one can.
                break;
            }
        }
        for &id in &sc.touched {
            sc.counts[id as usize] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(hyp: &str, refs: &[&str], n: usize) -> Vec<i64> {
        let mut t = RefTable::default();
        let mut sc = Scratch::default();
        for r in refs {
            t.add_reference(r.split(' ').filter(|s| !s.is_empty()).map(str::as_bytes), n, &mut sc);
        }
        let mut out = vec![0; 2 + 2 * n];
        t.match_hypothesis(hyp.split(' ').filter(|s| !s.is_empty()).map(str::as_bytes), &mut out, &mut sc);
        out
    }

    #[test]
    fn clipping_takes_max_over_references() {
        // hyp "the the the the", refs with 2 and 1 "the": clipped unigram count is 2.
        assert_eq!(row("the the the the", &["the cat the", "the"], 2), vec![4, 3, 2, 0, 4, 3]);
    }

    #[test]
    fn closest_length_ties_go_shorter() {
        assert_eq!(row("a b c", &["a b c d", "a b"], 1)[1], 2);
        assert_eq!(row("", &["x"], 4), vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn higher_orders() {
        let r = row("a b c d e", &["a b c d e"], 6);
        assert_eq!(r, vec![5, 5, 5, 4, 3, 2, 1, 0, 5, 4, 3, 2, 1, 0]);
    }
}
