//! Longest common subsequences: rouge-score's `_score_lcs` (the length, bit-parallel) and
//! `_summary_level_lcs` (union LCS over sentences, with its `_lcs_table` + `_backtrack_norec`
//! choice of one LCS, which decides the union).

/// Scratch space for LCS computations, kept by a worker across segments.
#[derive(Default)]
pub struct LcsBuf {
    masks: Masks,
    /// The bit rows `S_0 .. S_len` of one sentence pair (`words` each).
    rows: Vec<u64>,
    marked: Vec<bool>,
    cnt_r: Vec<u32>,
    cnt_c: Vec<u32>,
}

/// Match masks of one token sequence: per distinct token, the bit set of its positions.
#[derive(Default)]
pub(in crate::rouge) struct Masks {
    /// Per token id: its slot + 1 (0: absent from the sequence).
    slot: Vec<u32>,
    bits: Vec<u64>,
    pub(in crate::rouge) words: usize,
}

impl Masks {
    /// Sets the masks of `seq` (call [`Masks::clear`] with the same `seq` before the next).
    pub(in crate::rouge) fn build(&mut self, seq: &[u32]) {
        self.words = seq.len().div_ceil(64);
        let need = seq.iter().max().map_or(0, |&m| m as usize + 1);
        if self.slot.len() < need {
            self.slot.resize(need, 0);
        }
        self.bits.clear();
        let mut slots = 0usize;
        for (i, &t) in seq.iter().enumerate() {
            let s = &mut self.slot[t as usize];
            if *s == 0 {
                slots += 1;
                *s = slots as u32;
                self.bits.resize(slots * self.words, 0);
            }
            let base = (*s as usize - 1) * self.words;
            self.bits[base + i / 64] |= 1 << (i % 64);
        }
    }

    /// The positions of token `t`, or `None` when it does not occur.
    #[inline]
    pub(in crate::rouge) fn of(&self, t: u32) -> Option<&[u64]> {
        match self.slot.get(t as usize) {
            Some(&s) if s > 0 => {
                let s = s as usize;
                Some(&self.bits[(s - 1) * self.words..s * self.words])
            }
            _ => None,
        }
    }

    pub(in crate::rouge) fn clear(&mut self, seq: &[u32]) {
        for &t in seq {
            self.slot[t as usize] = 0;
        }
    }
}

/// One step of the bit-parallel LCS (Allison-Dix / Hyyrö): `S' = (S + (S & M)) | (S & !M)`,
/// with the carry across words. After steps for `a[..i]`, bit `j` of `S` is 0 exactly when
/// `t[i][j + 1] = t[i][j] + 1` in rouge-score's `_lcs_table(a, b)` (bits index `b`).
#[inline]
pub(in crate::rouge) fn step(row: &mut [u64], m: &[u64]) {
    let mut carry = 0u64;
    for (x, &mk) in row.iter_mut().zip(m) {
        let u = *x & mk;
        let (sum, c1) = x.overflowing_add(u);
        let (sum, c2) = sum.overflowing_add(carry);
        carry = u64::from(c1 | c2);
        *x = sum | (*x & !mk);
    }
}

/// `t[i][j]` from the bit row of `a[..i]`: the zeros among its low `j` bits.
#[inline]
pub(in crate::rouge) fn table_value(row: &[u64], j: usize) -> u32 {
    let full = j / 64;
    let mut ones: u32 = row[..full].iter().map(|w| w.count_ones()).sum();
    let rest = j % 64;
    if rest > 0 {
        ones += (row[full] & ((1u64 << rest) - 1)).count_ones();
    }
    j as u32 - ones
}

impl LcsBuf {
    /// The LCS length of `a` and `b` (rouge-score's `_lcs_table(...)[-1][-1]`).
    ///
    /// Performance decision: bit-parallel LCS ([`step`]), one machine word per 64 tokens of
    /// `b`, instead of the `len(a) x len(b)` table: the length is all rougeL needs.
    pub fn length(&mut self, a: &[u32], b: &[u32]) -> u64 {
        if a.is_empty() || b.is_empty() {
            return 0;
        }
        self.masks.build(b);
        let words = self.masks.words;
        self.rows.clear();
        self.rows.resize(words, !0);
        for &t in a {
            if let Some(m) = self.masks.of(t) {
                step(&mut self.rows, m);
            } // no match: S stays
        }
        self.masks.clear(b);
        u64::from(table_value(&self.rows, b.len()))
    }

    /// The LCS length of each of `seqs` (spans of `flat`) with `b`, appended to `out`: the
    /// same lengths as [`LcsBuf::length`], with `b`'s masks built once for all of them.
    pub fn lengths_with(
        &mut self,
        b: &[u32],
        flat: &[u32],
        spans: &[(usize, usize)],
        out: &mut Vec<u64>,
    ) {
        if b.is_empty() {
            out.extend(spans.iter().map(|_| 0));
            return;
        }
        self.masks.build(b);
        let words = self.masks.words;
        for &(start, end) in spans {
            self.rows.clear();
            self.rows.resize(words, !0);
            for &t in &flat[start..end] {
                if let Some(m) = self.masks.of(t) {
                    step(&mut self.rows, m);
                }
            }
            // An empty sequence leaves S all ones: no zero among the low bits, length 0.
            out.push(u64::from(table_value(&self.rows, b.len())));
        }
        self.masks.clear(b);
    }

    /// rouge-score's `_summary_level_lcs` hit count: for each reference sentence, the union of
    /// one LCS with each candidate sentence, each token counted while both texts' counts of it
    /// last (ROUGE-1.5.5's guard against double counting).
    ///
    /// `r`/`c` hold the sentences' tokens concatenated, `r_ends`/`c_ends` their end offsets.
    /// A union is a set, so candidate sentences are taken in the outer loop (each one's masks
    /// built once); the hits are then counted in rouge-score's order.
    pub fn summary_hits(
        &mut self,
        r: &[u32],
        r_ends: &[usize],
        c: &[u32],
        c_ends: &[usize],
    ) -> u64 {
        if r.is_empty() || c.is_empty() {
            return 0;
        }
        self.marked.clear();
        self.marked.resize(r.len(), false);
        let mut c_start = 0;
        for &c_end in c_ends {
            let cs = &c[c_start..c_end];
            c_start = c_end;
            if cs.is_empty() {
                continue;
            }
            self.masks.build(cs);
            let mut r_start = 0;
            for &r_end in r_ends {
                if r_end > r_start {
                    self.mark_lcs(r, r_start, r_end, cs);
                }
                r_start = r_end;
            }
            self.masks.clear(cs);
        }
        let need = r.iter().chain(c).max().map_or(0, |&m| m as usize + 1);
        if self.cnt_r.len() < need {
            self.cnt_r.resize(need, 0);
            self.cnt_c.resize(need, 0);
        }
        for &t in r {
            self.cnt_r[t as usize] += 1;
        }
        for &t in c {
            self.cnt_c[t as usize] += 1;
        }
        // `_union_lcs` per reference sentence in order, each union in index order: the marked
        // positions of `r` in order.
        let mut hits = 0u64;
        for (&t, _) in r.iter().zip(&self.marked).filter(|(_, &m)| m) {
            let t = t as usize;
            if self.cnt_c[t] > 0 && self.cnt_r[t] > 0 {
                hits += 1;
                self.cnt_c[t] -= 1;
                self.cnt_r[t] -= 1;
            }
        }
        for &t in r.iter().chain(c) {
            self.cnt_r[t as usize] = 0;
            self.cnt_c[t as usize] = 0;
        }
        hits
    }

    /// Marks the positions in `r[start..end]` of rouge-score's `lcs_ind(rs, cs)`: its
    /// `_lcs_table`, then `_backtrack_norec` (a match is taken; else left when
    /// `t[i][j-1] > t[i-1][j]`, else up). The table's values come from the bit rows
    /// ([`table_value`]), exact, so every choice is the table's.
    fn mark_lcs(&mut self, r: &[u32], start: usize, end: usize, cs: &[u32]) {
        let rs = &r[start..end];
        let words = self.masks.words;
        self.rows.clear();
        self.rows.resize((rs.len() + 1) * words, !0);
        for (i, &t) in rs.iter().enumerate() {
            let (done, next) = self.rows.split_at_mut((i + 1) * words);
            let row = &mut next[..words];
            row.copy_from_slice(&done[i * words..]);
            if let Some(m) = self.masks.of(t) {
                step(row, m);
            }
        }
        let at = |i: usize, j: usize| table_value(&self.rows[i * words..(i + 1) * words], j);
        let (mut i, mut j) = (rs.len(), cs.len());
        while i > 0 && j > 0 {
            if rs[i - 1] == cs[j - 1] {
                self.marked[start + i - 1] = true;
                i -= 1;
                j -= 1;
            } else if at(i, j - 1) > at(i - 1, j) {
                j -= 1;
            } else {
                i -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dp(a: &[u32], b: &[u32]) -> u64 {
        let mut t = vec![vec![0u64; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                t[i][j] = if a[i - 1] == b[j - 1] {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        t[a.len()][b.len()]
    }

    #[test]
    fn bit_parallel_equals_table() {
        let mut buf = LcsBuf::default();
        let mut x = 12345u64;
        for len in [1usize, 5, 63, 64, 65, 130, 200] {
            for _ in 0..20 {
                let mut gen = |n: usize| {
                    (0..n)
                        .map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            (x % 6) as u32
                        })
                        .collect::<Vec<_>>()
                };
                let a = gen(len);
                let b = gen(len / 2 + 3);
                assert_eq!(buf.length(&a, &b), dp(&a, &b));
                assert_eq!(buf.length(&b, &a), dp(&a, &b));
            }
        }
    }

    /// rouge-score's `_summary_level_lcs` hits with its table, as written in Python.
    fn summary_table(r: &[Vec<u32>], c: &[Vec<u32>]) -> u64 {
        use std::collections::HashMap;
        let mut cnt_r: HashMap<u32, i64> = HashMap::new();
        let mut cnt_c: HashMap<u32, i64> = HashMap::new();
        r.iter()
            .flatten()
            .for_each(|&t| *cnt_r.entry(t).or_default() += 1);
        c.iter()
            .flatten()
            .for_each(|&t| *cnt_c.entry(t).or_default() += 1);
        let mut hits = 0;
        for rs in r {
            let mut union = std::collections::BTreeSet::new();
            for cs in c {
                let mut t = vec![vec![0u64; cs.len() + 1]; rs.len() + 1];
                for i in 1..=rs.len() {
                    for j in 1..=cs.len() {
                        t[i][j] = if rs[i - 1] == cs[j - 1] {
                            t[i - 1][j - 1] + 1
                        } else {
                            t[i - 1][j].max(t[i][j - 1])
                        };
                    }
                }
                let (mut i, mut j) = (rs.len(), cs.len());
                while i > 0 && j > 0 {
                    if rs[i - 1] == cs[j - 1] {
                        union.insert(i - 1);
                        i -= 1;
                        j -= 1;
                    } else if t[i][j - 1] > t[i - 1][j] {
                        j -= 1;
                    } else {
                        i -= 1;
                    }
                }
            }
            for &k in &union {
                let tok = rs[k];
                if cnt_c[&tok] > 0 && cnt_r[&tok] > 0 {
                    hits += 1;
                    *cnt_c.get_mut(&tok).unwrap() -= 1;
                    *cnt_r.get_mut(&tok).unwrap() -= 1;
                }
            }
        }
        hits
    }

    #[test]
    fn summary_bits_equal_table() {
        let mut buf = LcsBuf::default();
        let mut x = 99u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for round in 0..400 {
            let sents = |next: &mut dyn FnMut(u64) -> u64| {
                let n = next(4) as usize + 1;
                (0..n)
                    .map(|_| {
                        let len = next(if round % 10 == 0 { 150 } else { 12 }) as usize;
                        (0..len).map(|_| next(5) as u32).collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            };
            let r = sents(&mut next);
            let c = sents(&mut next);
            let flat = |s: &[Vec<u32>]| {
                let mut ends = Vec::new();
                let mut all = Vec::new();
                for x in s {
                    all.extend_from_slice(x);
                    ends.push(all.len());
                }
                (all, ends)
            };
            let ((rf, re), (cf, ce)) = (flat(&r), flat(&c));
            assert_eq!(buf.summary_hits(&rf, &re, &cf, &ce), summary_table(&r, &c));
        }
    }

    #[test]
    fn summary_level() {
        // rouge-score's test: ref "w1 w2 w3 w4 w5", candidates "w1 w2 w6 w7 w8" / "w1 w3 w8 w9 w5".
        let mut buf = LcsBuf::default();
        let hits = buf.summary_hits(
            &[1, 2, 3, 4, 5],
            &[5],
            &[1, 2, 6, 7, 8, 1, 3, 8, 9, 5],
            &[5, 10],
        );
        assert_eq!(hits, 4);
    }
}
