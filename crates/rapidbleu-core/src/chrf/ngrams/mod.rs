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
//! the class of its (n-1)-gram prefix and its last symbol, through a map of exact keys (no
//! collision can change a count, and no n-gram is hashed as a string). Order 1 renumbers the
//! symbols densely (`unigrams`), so for a sentence that map is a small table indexed
//! directly by the pair ([`DenseTable`]); a longer text hashes the pair ([`Table`]).
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
mod unigrams;

use super::dense_table::DenseTable;
use super::table::{Classes, Table};
use super::tally::{count_one, Tally};
use common_run::common_run;
pub(crate) use common_run::PAD;
use unigrams::{hypothesis_classes, keep_symbols, reference_unigrams};

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
    /// The [`Tally`] of each class, at the previous and the current order.
    prev_tally: Vec<Tally>,
    tally: Vec<Tally>,
    /// With several references, whether one of them has the class (current order). With
    /// one, that is where it used up some of its count (see [`note_found`]).
    found: Vec<bool>,
    /// For a unique prefix class: the most orders one reference position matched after it.
    reach: Vec<u32>,
    /// The unique prefix classes given a `reach` by the current reference.
    reached: Vec<u32>,
    /// The current reference's entries with a unique prefix, to settle.
    settle: Vec<(u32, u32)>,
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
        for v in [&mut self.reach, &mut self.rank] {
            super::room(v, none + 1)[none] = 0;
        }
        for v in [&mut self.prev_tally, &mut self.tally] {
            super::room(v, none + 1)[none] = [0, 0];
        }
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
            std::mem::swap(&mut self.prev_tally, &mut self.tally);
            self.extend_hypothesis(table, &hyp[..hyp_len], n, spans.len() > 1);
            for (r, &(start, end)) in spans.iter().enumerate() {
                if r > 0 {
                    refill(&mut self.tally, &self.hyp_live);
                }
                let (offset, len) = self.spans[r];
                let syms = (&refs[start..], end - start);
                let (m, kept, n_settle) = match_reference(
                    (table, &self.prev_tally, &mut self.tally),
                    hyp_len,
                    syms,
                    &mut self.ref_live[offset..offset + len],
                    &mut self.settle,
                    n,
                );
                self.spans[r].1 = kept;
                out[r * max_order + n - 1] += m;
                if spans.len() > 1 {
                    let live = &self.hyp_live;
                    note_found(&mut self.found, &self.tally, live, r == 0);
                }
                settle_unique(
                    (hyp, syms.0),
                    &self.settle[..n_settle],
                    (&mut self.reach, &mut self.reached),
                    &mut self.diff[r * (max_order + 1)..][..max_order + 1],
                    n,
                );
            }
            table.clear();
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
        let live = super::room(&mut self.hyp_live, hyp_len);
        let (tally, rank) = (&mut self.tally, &mut self.rank);
        let symbols = hypothesis_classes(&hyp[..hyp_len], &mut self.first, tally, rank, live);
        let ref_live = super::room(&mut self.ref_live, refs.len() + 1);
        self.spans.clear();
        let mut len = 0;
        for (r, &(start, end)) in spans.iter().enumerate() {
            if r > 0 {
                refill(tally, live);
            }
            let offset = len;
            let syms = &mut refs[start..end];
            let classes = (&self.first[..], &rank[..], none);
            let m = reference_unigrams(syms, classes, tally, ref_live, &mut len);
            self.spans.push((offset, len - offset));
            out[r * max_order] = m;
            if spans.len() > 1 {
                note_found(&mut self.found, tally, live, r == 0);
            }
        }
        // Keep the positions some reference has; a hypothesis symbol no reference has cannot
        // be in a shared n-gram: it becomes `symbols + 1`, which no reference symbol equals.
        let nowhere = symbols + 1;
        let found = &self.found;
        let kept = if spans.len() > 1 {
            keep_symbols(hyp, live, (rank, nowhere), |c| found[c as usize])
        } else {
            keep_symbols(hyp, live, (rank, nowhere), |c| {
                let [k, left] = tally[c as usize];
                left != k
            })
        };
        self.hyp_live.truncate(kept);
        for s in &mut hyp[hyp_len..] {
            *s = nowhere;
        }
        symbols as usize
    }

    /// Gives classes to the order-`n` n-grams of the hypothesis whose (n-1)-gram prefix
    /// fits, is repeated and some reference has (`several` references: see [`note_found`]),
    /// and counts them (a tally is only read at classes); the others are dropped (a unique
    /// prefix is settled on the reference side).
    #[inline(never)]
    fn extend_hypothesis<T: Classes>(
        &mut self,
        table: &mut T,
        hyp: &[u32],
        n: usize,
        several: bool,
    ) {
        let Matcher {
            prev_tally,
            tally,
            found,
            hyp_live,
            ..
        } = self;
        let tail = hyp.get(n - 1..).unwrap_or_default();
        // Entries are in position order: those whose n-gram fits come first.
        let fit = hyp_live.partition_point(|&(j, _)| (j as usize) < tail.len());
        if several {
            keep_found(hyp_live, fit, |c| (prev_tally[c][0] > 1) & found[c]);
        } else {
            // The reference's leftovers of the previous order's counts are still there.
            keep_found(hyp_live, fit, |c| {
                let [k, left] = prev_tally[c];
                (k > 1) & (left != k)
            });
        }
        table.classify(tally, hyp_live, tail);
    }
}

/// Matches one reference's order-`n` n-grams (`syms`: its symbols, padded, and its length;
/// `live`: its entries) against the hypothesis's: keeps in `live` those found with a repeated
/// prefix and copies to `settle` those with a unique prefix. Returns the matches and how many
/// entries of each kind.
///
/// Performance decision: the unique prefixes are settled in a second loop
/// ([`settle_unique`]); one loop for both kept more values than there are registers, and its
/// spills cost as much as the work.
#[inline(never)]
fn match_reference<T: Classes>(
    (table, prev_tally, tally): (&T, &[Tally], &mut [Tally]),
    hyp_len: usize,
    (syms, syms_len): (&[u32], usize),
    live: &mut [(u32, u32)],
    settle: &mut Vec<(u32, u32)>,
    n: usize,
) -> (u32, usize, usize) {
    let none = hyp_len as u32;
    let tail = syms[..syms_len].get(n - 1..).unwrap_or_default();
    // Entries are in position order: those whose n-gram fits come first.
    let fit = live.partition_point(|&(i, _)| (i as usize) < tail.len());
    let settle = super::room(settle, fit);
    let class_of = table.finder(none);
    let (mut m, mut kept, mut n_settle) = (0, 0, 0);
    let live = &mut live[..fit];
    for k in 0..live.len() {
        let (i, prefix) = live[k];
        if prev_tally[prefix as usize][0] == 1 {
            settle[n_settle] = (i, prefix);
            n_settle += 1;
        } else {
            let c = class_of(prefix, tail[i as usize]);
            m += take_one(&mut tally[c as usize][1]);
            push_if(live, &mut kept, (i, c), c != none);
        }
    }
    (m, kept, n_settle)
}

/// Settles the reference entries `(position, prefix)` whose prefix the hypothesis has once,
/// at `prefix`, for orders `n` and up: such a position matches for as many orders as the
/// texts (`hyp` and the reference `syms`, both padded) continue alike. Each order counts once
/// per prefix (its n-grams occur once in the hypothesis), so the longest run counts, added to
/// `diff` (matches from order `k + 1` on at `diff[k]`).
#[inline(never)]
fn settle_unique(
    (hyp, syms): (&[u32], &[u32]),
    settle: &[(u32, u32)],
    (reach, reached): (&mut [u32], &mut Vec<u32>),
    diff: &mut [i32],
    n: usize,
) {
    let orders_left = diff.len() - n;
    let hyp_tail = hyp.get(n - 1..).unwrap_or_default();
    let syms_tail = syms.get(n - 1..).unwrap_or_default();
    // Every entry writes the next `reached` slot; it is kept where a prefix is first reached.
    let reached = super::room(reached, settle.len());
    let mut n_reached = 0;
    for &(i, prefix) in settle {
        // In bounds: the prefix's (n-1)-gram ends in the hypothesis and the entry's n-gram in
        // the reference, so both views start at most at their text's end (then its padding).
        let h = &hyp_tail[prefix as usize..];
        let r = &syms_tail[i as usize..];
        let run = common_run(h, r, orders_left) as u32;
        let before = reach[prefix as usize];
        reach[prefix as usize] = before.max(run);
        reached[n_reached] = prefix;
        n_reached += usize::from(before == 0);
    }
    // A prefix reached for `run` orders matches at orders n .. n + run - 1 (a run of 0 adds
    // and takes away at the same order; a prefix listed twice has `reach` 0 the second time).
    // `reach` is all zeros again for the next reference.
    for &p in &reached[..n_reached] {
        let run = std::mem::replace(&mut reach[p as usize], 0);
        diff[n - 1] += 1;
        diff[n - 1 + run as usize] -= 1;
    }
}

/// A new copy of the counts of the classes of `live`, for the next reference to use up.
fn refill(tally: &mut [Tally], live: &[(u32, u32)]) {
    for &(_, c) in live {
        let t = &mut tally[c as usize];
        t[1] = t[0];
    }
}

/// After the pass of one reference (the first if `first`): `found[c]` for the classes `c` of
/// `live`, whether that reference or an earlier one has the n-gram.
///
/// Performance decision: no flag is set per reference entry. A reference has a class exactly
/// when it used up some of its copy of the count (the hypothesis has the class at least once,
/// so the reference's first occurrence takes one), so with one reference `left != count` is
/// the flag, and with several it is gathered here, once per hypothesis entry.
fn note_found(found: &mut Vec<bool>, tally: &[Tally], live: &[(u32, u32)], first: bool) {
    let found = super::room(found, tally.len());
    for &(_, c) in live {
        let [k, left] = tally[c as usize];
        let f = &mut found[c as usize];
        *f = (*f & !first) | (left != k);
    }
}

/// Keeps the entries of `live[..fit]` whose class passes `keep`, without a branch per entry.
fn keep_found(live: &mut Vec<(u32, u32)>, fit: usize, keep: impl Fn(usize) -> bool) {
    let entries = &mut live[..fit];
    let mut kept = 0;
    for k in 0..entries.len() {
        let e = entries[k];
        push_if(entries, &mut kept, e, keep(e.1 as usize));
    }
    live.truncate(kept);
}

#[cfg(test)]
mod tests;
