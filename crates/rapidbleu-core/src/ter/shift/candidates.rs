//! The candidate shifts of one iteration of `_shift` (`_find_shifted_pairs` and the filters
//! of its loop), listed for `ShiftSearch::best_shift` to evaluate.

use super::{Shift, ShiftSearch, MAX_SHIFT_DIST, MAX_SHIFT_SIZE};

impl ShiftSearch {
    /// Every candidate `_shift` evaluates (duplicates included: they count; in an order of
    /// our own, see `block_candidates`), or at least `budget` of them: then the iteration
    /// crosses the cap and is discarded, so the rest need not be listed.
    pub(super) fn list_candidates(&mut self, vocab: usize, budget: usize) {
        let n = self.words.len();
        self.cands.clear();
        // The positions of a word within 50 of `start_h` start at a cursor that only moves
        // forward, since `start_h` does.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts[..vocab]);
        for sh in 0..n {
            let w = self.words[sh] as usize;
            // A block needs a hypothesis error among its (at most 10) words: skipping starts
            // without one changes nothing but saves the search for their matches.
            let first_err = self.hyp_next[sh] as usize;
            if w >= vocab || first_err == n || first_err - sh >= MAX_SHIFT_SIZE {
                continue;
            }
            let end = self.starts[w + 1] as usize;
            let mut k = self.cursor[w] as usize;
            while k < end && (self.occ[k].1 as usize) + MAX_SHIFT_DIST < sh {
                k += 1;
            }
            self.cursor[w] = k as u32;
            for k in k..end {
                let sr = self.occ[k].1 as usize;
                if sr > sh + MAX_SHIFT_DIST {
                    break;
                }
                self.block_candidates(sh, sr);
            }
            if self.cands.len() >= budget {
                return;
            }
        }
    }

    /// The candidates of the blocks `(start_h, start_r, 1..)` (`_find_shifted_pairs` yields
    /// every common length up to 10; the body of `_shift`'s loop filters each).
    ///
    /// The filters are monotone in the length: a block needs a hypothesis error and a
    /// reference error in it (true from some length on) and must not contain
    /// `align[start_r]` (true up to some length), so the lengths that pass form a range; and
    /// the targets of a length are a prefix of those of the next one.
    fn block_candidates(&mut self, sh: usize, sr: usize) {
        let (n, m) = (self.words.len(), self.reference.len());
        let first_ref_err = self.ref_next[sr] as usize;
        if first_ref_err == m || first_ref_err - sr >= MAX_SHIFT_SIZE {
            return;
        }
        let max_len = MAX_SHIFT_SIZE.min(n - sh).min(m - sr);
        let common = self.words[sh..sh + max_len]
            .iter()
            .zip(&self.reference[sr..sr + max_len])
            .take_while(|(x, y)| x == y)
            .count();
        let lo = (self.hyp_next[sh] as usize - sh).max(first_ref_err - sr) + 1;
        let a = self.align[sr];
        // `start_h <= align[start_r] < start_h + length` skips lengths above `a - start_h`.
        let hi = if a >= sh as i32 {
            common.min(a as usize - sh)
        } else {
            common
        };
        if lo > hi {
            return;
        }
        // Targets for offsets -1..hi: 0 before the first reference word, else
        // align[start_r + offset] + 1 (every reference position is in `align`, so the
        // `else: break` never happens); consecutive repeats are skipped.
        self.targets.clear();
        let mut prev = -1i64;
        for off in -1..hi as i64 {
            let k = sr as i64 + off;
            let target = if k < 0 {
                0
            } else {
                i64::from(self.align[k as usize]) + 1
            };
            if target != prev {
                self.targets.push((off, target as u32));
                prev = target;
            }
        }
        // The same candidates as `for len { for target }`, in an order where consecutive
        // windows share their first words (see `BitDp::window_cost`): a block moved left,
        // target by target with growing lengths (the windows start with the block); the
        // others length by length with growing targets (the windows start with the words
        // the block passes).
        let start = sh as u32;
        for &(off, target) in &self.targets {
            if (target as usize) < sh {
                for len in lo.max((off + 1) as usize)..=hi {
                    let len = len as u32;
                    self.cands.push(Shift { start, len, target });
                }
            }
        }
        for len in lo..=hi {
            for &(off, target) in &self.targets {
                if off >= len as i64 {
                    break;
                }
                if target as usize >= sh {
                    let len = len as u32;
                    self.cands.push(Shift { start, len, target });
                }
            }
        }
    }
}
