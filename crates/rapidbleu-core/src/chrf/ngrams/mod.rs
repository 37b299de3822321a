//! N-gram match counts of one hypothesis against each of its references: for every order n,
//! `sum over n-grams g of min(hyp count of g, ref count of g)`, the `match_count` of
//! `CHRF._get_match_statistics` (sacreBLEU 2.6.0). The same code serves character n-grams
//! (symbols are code points) and word n-grams (symbols are words): an n-gram is identified by
//! its sequence of symbols, which is what sacreBLEU's keys are (`line[i:i + n]`, and
//! `' '.join(tokens[i:i + n])`, whose words contain no space, so joining is one-to-one).
//! Totals (`len - n + 1`) need no n-grams at all; only matches are counted here.
//!
//! Representation (a performance decision): an n-gram of the hypothesis is named by its
//! **class**, the position of one of its occurrences in the hypothesis, so that counts and
//! flags are arrays indexed by position. Order by order, the class of an n-gram follows from
//! the class of its (n-1)-gram prefix and its last symbol, through a small table ([`Table`])
//! of exact keys (no collision can change a count, and no n-gram is hashed as a string).
//!
//! Unique prefixes end the work early: if an (n-1)-gram occurs once in the hypothesis, so does
//! every extension of it, and a reference n-gram with that prefix matches the hypothesis at
//! orders n, n+1, ... exactly as long as the two texts go on with the same symbols. So such a
//! reference position is settled at once by comparing symbols (a longest common extension),
//! and its hypothesis position is dropped. At order 3 most character n-grams of a sentence are
//! already unique, so the table only sees the few repeated ones beyond.
//!
//! Pruning on both sides: a hypothesis n-gram is only extended if some reference has it, and
//! a reference n-gram only if the hypothesis has it. An extension of a pruned n-gram cannot be
//! on the other side, so no match is lost.

mod common_run;

use super::dense_table::DenseTable;
use super::table::{Classes, Table};
use common_run::common_run;
pub(crate) use common_run::PAD;

/// A hypothesis symbol that no reference has, as the caller pads the hypothesis with it: it
/// never equals a reference symbol. ([`Matcher::run`] renumbers it with the symbols.)
pub(crate) const NOWHERE: u32 = u32::MAX;

/// One occurrence on one side of an n-gram whose remaining count on the other side is
/// `*left`: it matches while some count is left and uses one up. Counting this way over one
/// side's occurrences sums `min(hyp count, ref count)` without a branch.
#[inline(always)]
fn take_one(left: &mut u32) -> u32 {
    let hit = u32::from(*left > 0);
    *left -= hit;
    hit
}

/// Appends `e` to `out[..*len]` if `keep`, without a branch: the write always happens (so
/// `out` needs room for it), the length only advances when kept.
#[inline(always)]
fn push_if(out: &mut [(u32, u32)], len: &mut usize, e: (u32, u32), keep: bool) {
    out[*len] = e;
    *len += usize::from(keep);
}

/// Reusable buffers of one worker. Arrays indexed by class have one more entry, for the
/// class `len(hyp)` of reference n-grams the hypothesis lacks, whose count is always 0.
#[derive(Debug, Default)]
pub(crate) struct Matcher {
    /// (prefix class, symbol) -> class, for prefixes that occur more than once: direct for
    /// a sentence, hashed for a longer text.
    dense: DenseTable,
    table: Table,
    /// Order 1: the class (first position) of each symbol id of the hypothesis.
    first: Vec<u32>,
    /// The dense number (from 1) of the symbol of each order-1 class; 0 for `none`.
    rank: Vec<u32>,
    /// Occurrences in the hypothesis of each class, at the previous and the current order.
    prev_count: Vec<u32>,
    count: Vec<u32>,
    /// One reference's copy of `count`, used up by its occurrences.
    left: Vec<u32>,
    /// Whether some reference has the class (current order).
    seen: Vec<bool>,
    /// For a unique prefix class: the most orders one reference position matched after it.
    reach: Vec<u32>,
    /// The unique prefix classes given a `reach` by the current reference.
    reached: Vec<u32>,
    /// Per reference, matches added from order `n` on: `diff[r * (max_order + 1) + n - 1]`
    /// (settled runs of unique prefixes, summed at the end).
    diff: Vec<i32>,
    /// `(position, class)` of the hypothesis n-grams that survive at the current order.
    hyp_live: Vec<(u32, u32)>,
    /// The same for every reference, back to back; `spans[r]` = (offset, count).
    ref_live: Vec<(u32, u32)>,
    spans: Vec<(usize, usize)>,
}

impl Matcher {
    /// Match counts of orders `1..=max_order` of `hyp` against each reference, into
    /// `out[r * max_order + n - 1]` (`out` is resized and zeroed).
    ///
    /// `hyp[..hyp_len]` holds symbol ids from 1 to `n_ids - 1`; reference `r` is
    /// `refs[spans[r].0..spans[r].1]` (ids of the hypothesis's symbols, or
    /// [`ABSENT`](super::symbols::ABSENT)). The hypothesis is followed by [`PAD`] times
    /// [`NOWHERE`], each reference by [`PAD`] times `ABSENT`. Both are rewritten (symbols are
    /// renumbered densely). Positions fit `u32` with room for table keys: the caller bounds
    /// `hyp_len` below 2**31.
    pub(crate) fn run(
        &mut self,
        (hyp, hyp_len): (&mut [u32], usize),
        n_ids: usize,
        (refs, spans): (&mut [u32], &[(usize, usize)]),
        max_order: usize,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        out.resize(spans.len() * max_order, 0);
        if max_order == 0 {
            return;
        }
        // Per-class arrays keep their contents from segment to segment (see `super::room`):
        // `unigrams` and each order set the entries they read, `reach` is all zeros between
        // references, and the class `none` is never written but here.
        let none = hyp_len;
        for v in [
            &mut self.prev_count,
            &mut self.count,
            &mut self.left,
            &mut self.reach,
            &mut self.rank,
        ] {
            super::room(v, none + 1)[none] = 0;
        }
        super::room(&mut self.seen, none + 1)[none] = false;
        self.diff.clear();
        self.diff.resize(spans.len() * (max_order + 1), 0);
        let symbols = self.unigrams(hyp, hyp_len, n_ids, refs, spans, max_order, out);
        // Symbols are now below `symbols + 2` (see `unigrams`): a sentence's pairs of a prefix
        // class and a symbol index a small table directly.
        if DenseTable::fits(hyp_len, symbols + 2) {
            let mut dense = std::mem::take(&mut self.dense);
            dense.start(hyp_len, symbols + 2);
            self.orders(&mut dense, (hyp, hyp_len), (refs, spans), max_order, out);
            self.dense = dense;
        } else {
            let mut table = std::mem::take(&mut self.table);
            self.orders(&mut table, (hyp, hyp_len), (refs, spans), max_order, out);
            self.table = table;
        }
        for (row, diff) in out
            .chunks_exact_mut(max_order)
            .zip(self.diff.chunks_exact(max_order + 1))
        {
            let mut run = 0i32;
            for (o, &d) in row.iter_mut().zip(diff) {
                run += d;
                *o += run as u32;
            }
        }
    }

    /// Orders 2 and up, with `table` for the classes.
    fn orders<T: Classes>(
        &mut self,
        table: &mut T,
        (hyp, hyp_len): (&[u32], usize),
        (refs, spans): (&[u32], &[(usize, usize)]),
        max_order: usize,
        out: &mut [u32],
    ) {
        for n in 2..=max_order {
            if self.spans.iter().all(|&(_, len)| len == 0) {
                // No reference (n-1)-gram is left to extend: the remaining counts are settled.
                break;
            }
            std::mem::swap(&mut self.prev_count, &mut self.count);
            self.extend_hypothesis(table, &hyp[..hyp_len], n);
            // Per-class arrays are only read at the classes of `hyp_live` (and at `none`, never
            // written): resetting those entries is cheaper than a `memset` of the whole array.
            for &(_, c) in &self.hyp_live {
                self.seen[c as usize] = false;
            }
            for (r, &(start, end)) in spans.iter().enumerate() {
                for &(_, c) in &self.hyp_live {
                    self.left[c as usize] = self.count[c as usize];
                }
                let diff = &mut self.diff[r * (max_order + 1)..][..max_order + 1];
                let m = match_reference(
                    &mut MatchState {
                        table,
                        prev_count: &self.prev_count,
                        left: &mut self.left,
                        seen: &mut self.seen,
                        reach: &mut self.reach,
                        reached: &mut self.reached,
                        diff,
                    },
                    (hyp, hyp_len),
                    (&refs[start..], end - start),
                    &mut self.ref_live,
                    &mut self.spans[r],
                    n,
                    max_order,
                );
                out[r * max_order + n - 1] += m;
            }
            table.clear();
            // Keep the hypothesis n-grams some reference has (`seen[none]` may have been set
            // by reference n-grams the hypothesis lacks, but no hypothesis class is `none`).
            keep_seen(&mut self.hyp_live, &self.seen);
        }
    }

    /// Order 1: classes, counts, matches, and the surviving positions of both sides.
    ///
    /// Symbols are renumbered: the hypothesis's distinct symbols become 1, 2, ... `symbols`
    /// (the count returned) in order of first appearance, reference symbols follow (0 where
    /// the hypothesis lacks them), and hypothesis symbols no reference has, with the
    /// hypothesis's padding, become `symbols + 1`, which no reference symbol equals.
    #[allow(clippy::too_many_arguments)]
    fn unigrams(
        &mut self,
        hyp: &mut [u32],
        hyp_len: usize,
        n_ids: usize,
        refs: &mut [u32],
        spans: &[(usize, usize)],
        max_order: usize,
        out: &mut [u32],
    ) -> usize {
        let none = hyp_len as u32;
        // `first[ABSENT]` stays `none`: reference symbols the hypothesis lacks have no class.
        self.first.clear();
        self.first.resize(n_ids, none);
        // One pass: a symbol's class is its first position, whose count starts there.
        let live = super::room(&mut self.hyp_live, hyp_len);
        let (count, rank, seen) = (&mut self.count, &mut self.rank, &mut self.seen);
        let mut symbols = 0u32;
        for (j, (&s, e)) in hyp[..hyp_len].iter().zip(live.iter_mut()).enumerate() {
            let f = &mut self.first[s as usize];
            let new = *f == none;
            let c = std::hint::select_unpredictable(new, j as u32, *f);
            *f = c;
            let n = &mut count[c as usize];
            *n = std::hint::select_unpredictable(new, 0, *n) + 1;
            // Only a new class's entry is read: the others may take any number.
            symbols += u32::from(new);
            rank[j] = symbols;
            seen[c as usize] = false;
            *e = (j as u32, c);
        }
        let ref_live = super::room(&mut self.ref_live, refs.len() + 1);
        self.spans.clear();
        let mut len = 0;
        for (r, &(start, end)) in spans.iter().enumerate() {
            for &(_, c) in live.iter() {
                self.left[c as usize] = count[c as usize];
            }
            let offset = len;
            let mut m = 0;
            for (i, s) in refs[start..end].iter_mut().enumerate() {
                let c = self.first.get(*s as usize).copied().unwrap_or(none);
                m += take_one(&mut self.left[c as usize]);
                seen[c as usize] = true;
                *s = rank[c as usize];
                push_if(ref_live, &mut len, (i as u32, c), c != none);
            }
            self.spans.push((offset, len - offset));
            out[r * max_order] = m;
        }
        seen[none as usize] = false;
        // Keep the positions some reference has; a hypothesis symbol no reference has cannot
        // be in a shared n-gram: it becomes `symbols + 1`, which no reference symbol equals.
        let nowhere = symbols + 1;
        let mut kept = 0;
        for j in 0..hyp_len {
            let e = live[j];
            let seen = seen[e.1 as usize];
            hyp[j] = std::hint::select_unpredictable(seen, rank[e.1 as usize], nowhere);
            push_if(live, &mut kept, e, seen);
        }
        self.hyp_live.truncate(kept);
        for s in &mut hyp[hyp_len..] {
            *s = nowhere;
        }
        symbols as usize
    }

    /// Gives classes to the order-`n` n-grams of the hypothesis whose (n-1)-gram prefix
    /// survives, fits and is repeated, and counts them; the others are dropped (a unique
    /// prefix is settled on the reference side).
    #[inline(never)]
    fn extend_hypothesis<T: Classes>(&mut self, table: &mut T, hyp: &[u32], n: usize) {
        let Matcher {
            prev_count,
            count,
            hyp_live,
            ..
        } = self;
        let tail = hyp.get(n - 1..).unwrap_or_default();
        let mut kept = 0;
        for k in 0..hyp_live.len() {
            let e = hyp_live[k];
            let keep = ((e.0 as usize) < tail.len()) & (prev_count[e.1 as usize] > 1);
            push_if(hyp_live, &mut kept, e, keep);
            // Classes are positions among the entries kept: zero their counts first.
            count[e.0 as usize] = 0;
        }
        hyp_live.truncate(kept);
        table.classify(count, hyp_live, tail);
    }
}

/// Matches one reference's order-`n` n-grams (`syms`: its symbols, padded, and its length;
/// `span`: its entries in `ref_live`) against the hypothesis's (padded, and its length); keeps
/// those found with a repeated prefix and settles those with a unique prefix for all
/// remaining orders. Returns the matches.
#[inline(never)]
fn match_reference<T: Classes>(
    st: &mut MatchState<'_, T>,
    (hyp, hyp_len): (&[u32], usize),
    (syms, syms_len): (&[u32], usize),
    ref_live: &mut [(u32, u32)],
    span: &mut (usize, usize),
    n: usize,
    max_order: usize,
) -> u32 {
    let none = hyp_len as u32;
    // Padded views for the runs of unique prefixes, the text itself for the rest.
    let hyp_tail = hyp.get(n - 1..).unwrap_or_default();
    let syms_tail = syms.get(n - 1..).unwrap_or_default();
    let tail = syms[..syms_len].get(n - 1..).unwrap_or_default();
    let live = &mut ref_live[span.0..span.0 + span.1];
    let orders_left = max_order - n + 1;
    let (mut m, mut kept) = (0, 0);
    st.reached.clear();
    for k in 0..live.len() {
        let (i, prefix) = live[k];
        let Some(&s) = tail.get(i as usize) else {
            continue;
        };
        if st.prev_count[prefix as usize] == 1 {
            // The hypothesis has the prefix once, at `prefix`: this position matches for as
            // many orders as the texts continue alike. Each order counts once per prefix (its
            // n-grams occur once in the hypothesis), so keep the longest run.
            let h = hyp_tail.get(prefix as usize..).unwrap_or_default();
            let r = syms_tail.get(i as usize..).unwrap_or_default();
            let run = common_run(h, r, orders_left) as u32;
            let before = std::mem::replace(&mut st.reach[prefix as usize], 0);
            let after = before.max(run);
            st.reach[prefix as usize] = after;
            st.diff[n - 1 + before as usize] += 1;
            st.diff[n - 1 + after as usize] -= 1;
            st.reached.push(prefix);
        } else {
            let c = st.table.get_or(prefix, s, none);
            m += take_one(&mut st.left[c as usize]);
            st.seen[c as usize] = true;
            push_if(live, &mut kept, (i, c), c != none);
        }
    }
    for &p in st.reached.iter() {
        st.reach[p as usize] = 0;
    }
    st.seen[none as usize] = false;
    span.1 = kept;
    m
}

/// The per-class state [`match_reference`] uses, borrowed apart from the entries.
struct MatchState<'a, T> {
    table: &'a T,
    prev_count: &'a [u32],
    left: &'a mut [u32],
    seen: &'a mut [bool],
    reach: &'a mut [u32],
    reached: &'a mut Vec<u32>,
    diff: &'a mut [i32],
}

/// Keeps the entries of `live` whose class is `seen`, without a branch per entry.
fn keep_seen(live: &mut Vec<(u32, u32)>, seen: &[bool]) {
    let mut kept = 0;
    for k in 0..live.len() {
        let e = live[k];
        live[kept] = e;
        kept += usize::from(seen[e.1 as usize]);
    }
    live.truncate(kept);
}

#[cfg(test)]
mod tests;
