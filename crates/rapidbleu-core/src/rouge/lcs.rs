//! Longest common subsequences: rouge-score's `_score_lcs` (the length, bit-parallel) and
//! `_summary_level_lcs` (union LCS over sentences, with its `_lcs_table` + `_backtrack_norec`
//! choice of one LCS, which decides the union).

/// Scratch space for LCS computations, kept by a worker across segments.
#[derive(Default)]
pub struct LcsBuf {
    /// Per token id: its slot among the target's distinct tokens + 1 (0: absent).
    slot: Vec<u32>,
    masks: Vec<u64>,
    row: Vec<u64>,
    table: Vec<u32>,
    marked: Vec<bool>,
    cnt_r: Vec<u32>,
    cnt_c: Vec<u32>,
    union: Vec<u32>,
}

impl LcsBuf {
    /// The LCS length of `a` and `b` (rouge-score's `_lcs_table(...)[-1][-1]`).
    ///
    /// Performance decision: Allison-Dix / Hyyrö bit-parallel LCS, one machine word per 64
    /// tokens of `a`, instead of the `len(a) x len(b)` table: the length is all rougeL needs.
    pub fn length(&mut self, a: &[u32], b: &[u32]) -> u64 {
        if a.is_empty() || b.is_empty() {
            return 0;
        }
        let words = a.len().div_ceil(64);
        let need = a.iter().chain(b).max().map_or(0, |&m| m as usize + 1);
        if self.slot.len() < need {
            self.slot.resize(need, 0);
        }
        self.masks.clear();
        let mut slots = 0usize;
        for (i, &t) in a.iter().enumerate() {
            let s = &mut self.slot[t as usize];
            if *s == 0 {
                slots += 1;
                *s = slots as u32;
                self.masks.resize(slots * words, 0);
            }
            let base = (*s as usize - 1) * words;
            self.masks[base + i / 64] |= 1 << (i % 64);
        }
        self.row.clear();
        self.row.resize(words, !0);
        for &t in b {
            let s = self.slot[t as usize] as usize;
            if s == 0 {
                continue; // no match: S stays
            }
            let m = &self.masks[(s - 1) * words..s * words];
            let mut carry = 0u64;
            for (x, &mk) in self.row.iter_mut().zip(m) {
                let u = *x & mk;
                let (sum, c1) = x.overflowing_add(u);
                let (sum, c2) = sum.overflowing_add(carry);
                carry = u64::from(c1 | c2);
                *x = sum | (*x & !mk);
            }
        }
        for &t in a {
            self.slot[t as usize] = 0;
        }
        let mut zeros = 0u64;
        for (k, &x) in self.row.iter().enumerate() {
            let bits = (a.len() - 64 * k).min(64);
            let valid = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
            zeros += u64::from((!x & valid).count_ones());
        }
        zeros
    }

    /// rouge-score's `_summary_level_lcs` hit count: for each reference sentence, the union of
    /// one LCS with each candidate sentence, each token counted while both texts' counts of it
    /// last (ROUGE-1.5.5's guard against double counting).
    ///
    /// `r`/`c` hold the sentences' tokens concatenated, `r_ends`/`c_ends` their end offsets.
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
        let mut hits = 0u64;
        let mut r_start = 0;
        for &r_end in r_ends {
            let rs = &r[r_start..r_end];
            r_start = r_end;
            if rs.is_empty() {
                continue;
            }
            self.marked.clear();
            self.marked.resize(rs.len(), false);
            let mut c_start = 0;
            for &c_end in c_ends {
                let cs = &c[c_start..c_end];
                c_start = c_end;
                if !cs.is_empty() {
                    self.mark_lcs(rs, cs);
                }
            }
            // `_find_union`: sorted indices; then the tokens in that order.
            self.union.clear();
            self.union.extend(
                rs.iter()
                    .zip(&self.marked)
                    .filter(|(_, &m)| m)
                    .map(|(&t, _)| t),
            );
            for &t in &self.union {
                let t = t as usize;
                if self.cnt_c[t] > 0 && self.cnt_r[t] > 0 {
                    hits += 1;
                    self.cnt_c[t] -= 1;
                    self.cnt_r[t] -= 1;
                }
            }
        }
        for &t in r.iter().chain(c) {
            self.cnt_r[t as usize] = 0;
            self.cnt_c[t as usize] = 0;
        }
        hits
    }

    /// Marks the positions in `rs` of rouge-score's `lcs_ind(rs, cs)`: `_lcs_table`, then
    /// `_backtrack_norec` (a match is taken; else left when `t[i][j-1] > t[i-1][j]`, else up).
    fn mark_lcs(&mut self, rs: &[u32], cs: &[u32]) {
        let cols = cs.len() + 1;
        self.table.clear();
        self.table.resize((rs.len() + 1) * cols, 0);
        let t = &mut self.table;
        for i in 1..=rs.len() {
            for j in 1..=cs.len() {
                t[i * cols + j] = if rs[i - 1] == cs[j - 1] {
                    t[(i - 1) * cols + j - 1] + 1
                } else {
                    t[(i - 1) * cols + j].max(t[i * cols + j - 1])
                };
            }
        }
        let (mut i, mut j) = (rs.len(), cs.len());
        while i > 0 && j > 0 {
            if rs[i - 1] == cs[j - 1] {
                self.marked[i - 1] = true;
                i -= 1;
                j -= 1;
            } else if t[i * cols + j - 1] > t[(i - 1) * cols + j] {
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
