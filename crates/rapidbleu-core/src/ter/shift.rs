//! `translation_edit_rate` of `lib_ter.py`: greedy shifts of hypothesis blocks while they
//! lower the beam edit distance, exactly as sacreBLEU searches and ranks them.
//!
//! Copied behaviour (`_shift`, `_find_shifted_pairs`, `_perform_shift`):
//! - candidate blocks: for `start_h`, then `start_r` (`|start_r - start_h| <= 50`), every
//!   common prefix length `1..=10`;
//! - a block is skipped when it holds no hypothesis error, covers no reference error, or when
//!   `start_h <= align[start_r] < start_h + length`;
//! - targets `0` (when `start_r == 0`, offset -1) or `align[start_r + offset] + 1` for offsets
//!   `-1..length`, consecutive duplicates skipped;
//! - best by `(gain, length, -start_h, -target)` with strict `>`: the first wins a full tie;
//! - the candidate count accumulates over the iterations of one pair, and the loop stops when
//!   it reaches 1,000 *before* looking at the gain, so the improving shift found by the call
//!   that crossed the cap is thrown away.
//!
//! Performance decisions:
//! - whether an iteration crosses the cap depends only on the alignment, not on any edit
//!   distance, so candidates are listed first, and listing stops as soon as the cap is
//!   reached: such an iteration is dropped without computing any of its costs;
//! - a start position with no hypothesis error in the next 10 words (or a reference position
//!   with none) cannot yield a candidate and is skipped before looking for its matches;
//! - a candidate repeated for another `start_r` (same block, same target, same shifted words)
//!   is not recomputed: its tuple equals the first one, which it cannot beat;
//! - each candidate's cost recomputes only the rows its shift changes and a few after them
//!   ([`BitDp::window_cost`]), and after a shift only the changed rows are recomputed;
//! - words are renumbered per pair: reference words get dense ids `0..vocab` (so that the
//!   bit-parallel engine can index match masks by id) and every hypothesis word absent from
//!   the reference gets `vocab`, since such words only ever need to differ from reference words.

use super::bit_dp::BitDp;
use super::edit_distance::{alignment, Band, ScalarDp};
use crate::error::CoreError;

mod candidates;

/// `_MAX_SHIFT_SIZE`.
const MAX_SHIFT_SIZE: usize = 10;
/// `_MAX_SHIFT_DIST`.
const MAX_SHIFT_DIST: usize = 50;
/// `_MAX_SHIFT_CANDIDATES`.
const MAX_SHIFT_CANDIDATES: usize = 1000;

/// A candidate shift: the block `start..start + len` moves before position `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shift {
    start: u32,
    len: u32,
    target: u32,
}

impl Shift {
    /// The window `[p, q)` of positions `_perform_shift` changes, and its new words in `out`.
    fn apply(self, words: &[u32], out: &mut Vec<u32>) -> usize {
        let (s, l, t) = (self.start as usize, self.len as usize, self.target as usize);
        let block = &words[s..s + l];
        let (p, first, second) = if t < s {
            // words[:t] + block + words[t:s] + words[s+l:]
            (t, block, &words[t..s])
        } else if t > s + l {
            // words[:s] + words[s+l:t] + block + words[t:]
            (s, &words[s + l..t], block)
        } else {
            // words[:s] + words[s+l:l+t] + block + words[l+t:]; Python's slices clip at the
            // end, so a target near the end moves the block to the end.
            let end = (l + t).min(words.len());
            (s, &words[s + l..end], block)
        };
        // One element loop, not a `memcpy` call per part (windows are a few words).
        out.clear();
        out.extend(first.iter().chain(second).copied());
        p
    }
}

/// Reusable state of the shift search (all buffers of one pair of word sequences).
#[derive(Clone, Debug, Default)]
pub struct ShiftSearch {
    band: Band,
    /// The bit-parallel engine, used whenever it fits ([`BitDp::fits`]); else `scalar`.
    bits: BitDp,
    scalar: ScalarDp,
    use_bits: bool,
    /// The current hypothesis and the reference, in dense ids.
    words: Vec<u32>,
    reference: Vec<u32>,
    /// Reference `(dense id, position)` pairs grouped by id, positions increasing: those of
    /// id `w` are `occ[starts[w]..starts[w + 1]]`.
    occ: Vec<(u32, u32)>,
    starts: Vec<u32>,
    /// Scratch of [`ShiftSearch::renumber_by_table`]: id to dense id, and fill positions.
    table: Vec<u32>,
    fill: Vec<u32>,
    align: Vec<i32>,
    hyp_err: Vec<u8>,
    ref_err: Vec<u8>,
    /// `hyp_next[i]`: the first hypothesis error at or after `i` (`n` if none); likewise
    /// `ref_next` for the reference.
    hyp_next: Vec<u32>,
    ref_next: Vec<u32>,
    /// Per reference word: where the scan of its positions starts (see `list_candidates`).
    cursor: Vec<u32>,
    /// The distinct targets of one block, with the offset each first appears at.
    targets: Vec<(i64, u32)>,
    cands: Vec<Shift>,
    window: Vec<u32>,
    /// The window evaluated before `window` (see [`BitDp::window_cost`]'s `reuse`).
    prev_window: Vec<u32>,
}

/// The most words a hypothesis or reference may have: costs are `u32` and must stay far
/// below the edit distance's "infinity" (2^30).
pub const MAX_WORDS: usize = 1 << 28;

/// `lib_ter.translation_edit_rate(words_hyp, words_ref)` on word ids (equal words, equal ids):
/// `(number of edits, reference length)`. Allocates its buffers; see
/// [`ShiftSearch::translation_edit_rate`] to reuse them.
pub fn translation_edit_rate(hyp: &[u32], reference: &[u32]) -> Result<(usize, usize), CoreError> {
    ShiftSearch::default().translation_edit_rate(hyp, reference)
}

impl ShiftSearch {
    /// `lib_ter.translation_edit_rate(words_hyp, words_ref)`: `(edits, reference length)`.
    /// An empty reference gives `(len(hyp), 0)`. Fails only for more than [`MAX_WORDS`] words.
    pub fn translation_edit_rate(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
    ) -> Result<(usize, usize), CoreError> {
        if hyp.len().max(reference.len()) > MAX_WORDS {
            return Err(CoreError::InvalidInput(format!(
                "TER of {} against {} words: at most {MAX_WORDS} words per side",
                hyp.len(),
                reference.len()
            )));
        }
        Ok(self.search(hyp, reference, usize::MAX, false))
    }

    /// [`ShiftSearch::translation_edit_rate`] for ids below `id_bound` (a segment's interned
    /// words), which are renumbered through a table instead of by sorting.
    pub(crate) fn translation_edit_rate_dense(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
        id_bound: usize,
    ) -> (usize, usize) {
        self.search(hyp, reference, id_bound, false)
    }

    /// The search; `force_scalar` keeps the bit-parallel engine out (tests compare the two).
    pub(super) fn search(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
        id_bound: usize,
        force_scalar: bool,
    ) -> (usize, usize) {
        let (n, m) = (hyp.len(), reference.len());
        if m == 0 {
            return (n, 0);
        }
        if n == 0 {
            // No hypothesis word: the initial row, m insertions, and no shift candidates.
            return (m, m);
        }
        let vocab = self.renumber(hyp, reference, id_bound);
        self.band.reset(n, m);
        self.use_bits = !force_scalar && BitDp::fits(&self.band, vocab);
        if self.use_bits {
            self.bits.reset(&self.band, &self.reference, vocab);
        } else {
            self.scalar.reset(&self.band);
        }
        self.forward(0, n + 1);
        let mut shifts = 0;
        let mut checked = 0;
        loop {
            self.align_current();
            let pre = self.distance();
            self.list_candidates(vocab, MAX_SHIFT_CANDIDATES - checked);
            checked += self.cands.len();
            // `if checked_candidates >= _MAX_SHIFT_CANDIDATES: break` comes before the gain
            // test in `translation_edit_rate`: this iteration's result is discarded.
            if checked >= MAX_SHIFT_CANDIDATES {
                break;
            }
            let Some((gain, best)) = self.best_shift(pre) else {
                break;
            };
            if gain <= 0 {
                break;
            }
            shifts += 1;
            let p = best.apply(&self.words, &mut self.window);
            let q = p + self.window.len();
            self.words[p..q].copy_from_slice(&self.window);
            self.forward(p, q);
        }
        (shifts + self.distance() as usize, m)
    }

    /// Dense ids (see the module documentation) into `words` and `reference`, and the
    /// reference positions grouped by word (`occ`, `starts`); returns the reference's
    /// vocabulary size. Ids below a small `id_bound` go through a table (linear time),
    /// others are sorted.
    fn renumber(&mut self, hyp: &[u32], reference: &[u32], id_bound: usize) -> usize {
        let (n, m) = (hyp.len(), reference.len());
        if id_bound <= 4 * (n + m) + 1024 {
            return self.renumber_by_table(hyp, reference, id_bound);
        }
        self.occ.clear();
        self.occ
            .extend(reference.iter().enumerate().map(|(j, &w)| (w, j as u32)));
        self.occ.sort_unstable();
        self.reference.clear();
        self.reference.resize(m, 0);
        self.starts.clear();
        let mut prev = None;
        for (k, &(w, j)) in self.occ.iter().enumerate() {
            if prev != Some(w) {
                self.starts.push(k as u32);
                prev = Some(w);
            }
            self.reference[j as usize] = self.starts.len() as u32 - 1;
        }
        let vocab = self.starts.len();
        self.starts.push(self.occ.len() as u32);
        let (occ, starts) = (&self.occ, &self.starts);
        self.words.clear();
        self.words.extend(hyp.iter().map(|&w| {
            let k = occ.partition_point(|&(x, _)| x < w);
            match occ.get(k) {
                Some(&(x, _)) if x == w => starts.partition_point(|&s| s as usize <= k) as u32 - 1,
                _ => vocab as u32,
            }
        }));
        vocab
    }

    /// [`ShiftSearch::renumber`] for ids below `id_bound`: a dense id per id in order of
    /// first occurrence in the reference, and a counting sort of the positions.
    fn renumber_by_table(&mut self, hyp: &[u32], reference: &[u32], id_bound: usize) -> usize {
        const NONE: u32 = u32::MAX;
        self.table.clear();
        self.table.resize(id_bound, NONE);
        self.reference.clear();
        self.starts.clear();
        for &w in reference {
            let slot = &mut self.table[w as usize];
            if *slot == NONE {
                *slot = self.starts.len() as u32;
                self.starts.push(0);
            }
            self.reference.push(*slot);
            self.starts[*slot as usize] += 1;
        }
        let vocab = self.starts.len();
        // Counts to start offsets, then positions in increasing order per word.
        let mut acc = 0;
        for s in self.starts.iter_mut() {
            let c = *s;
            *s = acc;
            acc += c;
        }
        self.starts.push(acc);
        self.occ.clear();
        self.occ.resize(reference.len(), (0, 0));
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts[..vocab]);
        for (j, &d) in self.reference.iter().enumerate() {
            let at = &mut self.fill[d as usize];
            self.occ[*at as usize] = (d, j as u32);
            *at += 1;
        }
        let table = &self.table;
        self.words.clear();
        self.words
            .extend(hyp.iter().map(|&w| match table.get(w as usize) {
                Some(&d) if d != NONE => d,
                _ => vocab as u32,
            }));
        vocab
    }

    /// Forward rows `from+1..=n` of the current words, the words from `same_from` on being
    /// unchanged since the rows were computed; backward rows below `same_from` go stale.
    fn forward(&mut self, from: usize, same_from: usize) {
        if self.use_bits {
            self.bits.forward(&self.band, &self.words, from, same_from);
        } else {
            self.scalar
                .forward(&self.band, &self.words, &self.reference, from, same_from);
        }
    }

    fn distance(&self) -> u32 {
        let (n, m) = (self.band.n, self.band.m);
        if self.use_bits {
            self.bits.get(&self.band, n, m)
        } else {
            self.scalar.get(&self.band, n, m)
        }
    }

    /// Alignment and error flags of the current words, with their prefix sums.
    fn align_current(&mut self) {
        let (n, m) = (self.words.len(), self.reference.len());
        self.align.clear();
        self.align.resize(m, -1);
        self.hyp_err.clear();
        self.hyp_err.resize(n, 0);
        self.ref_err.clear();
        self.ref_err.resize(m, 0);
        let (band, h, r) = (&self.band, &self.words, &self.reference);
        let (align, hyp_err, ref_err) = (&mut self.align, &mut self.hyp_err, &mut self.ref_err);
        if self.use_bits {
            self.bits.alignment(band, h, r, align, hyp_err, ref_err);
        } else {
            let get = |i: usize, j: usize| self.scalar.get(band, i, j);
            alignment(band, h, r, get, align, hyp_err, ref_err);
        }
        next_errors(&self.hyp_err, &mut self.hyp_next);
        next_errors(&self.ref_err, &mut self.ref_next);
    }

    /// The best candidate by `(gain, length, -start_h, -target)`, first wins ties (so the
    /// order candidates are evaluated in changes nothing: equal tuples are equal shifts).
    fn best_shift(&mut self, pre: u32) -> Option<(i64, Shift)> {
        let mut best: Option<(i64, Shift)> = None;
        let mut group_start = 0;
        // The previous window's position (none yet) and words, in `prev_window`.
        let mut prev_p = usize::MAX;
        for c in 0..self.cands.len() {
            let cand = self.cands[c];
            if cand.start != self.cands[group_start].start {
                group_start = c;
            }
            // A repeat (same start, length and target from another start_r) is the same
            // shift: an equal tuple, never strictly better.
            if self.cands[group_start..c].contains(&cand) {
                continue;
            }
            let p = cand.apply(&self.words, &mut self.window);
            let (band, h, r) = (&self.band, &self.words, &self.reference);
            let cost = if self.use_bits {
                let reuse = if p == prev_p {
                    common_prefix(&self.window, &self.prev_window)
                } else {
                    0
                };
                let cost = self
                    .bits
                    .window_cost(band, p, (&self.window, reuse), h, r, pre);
                std::mem::swap(&mut self.window, &mut self.prev_window);
                prev_p = p;
                cost
            } else {
                self.scalar.window_cost(band, p, &self.window, h, r)
            };
            let gain = i64::from(pre) - i64::from(cost);
            let better = match best {
                None => true,
                Some((g, b)) => {
                    (gain, cand.len, b.start, b.target) > (g, b.len, cand.start, cand.target)
                }
            };
            if better {
                best = Some((gain, cand));
            }
        }
        best
    }
}

/// How many first elements `a` and `b` have in common.
fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut k = 0;
    while k < n && a[k] == b[k] {
        k += 1;
    }
    k
}

/// `next[i]`: the first index at or after `i` whose flag is set, `flags.len()` if none.
fn next_errors(flags: &[u8], next: &mut Vec<u32>) {
    next.clear();
    next.resize(flags.len() + 1, flags.len() as u32);
    for i in (0..flags.len()).rev() {
        next[i] = if flags[i] != 0 { i as u32 } else { next[i + 1] };
    }
}
