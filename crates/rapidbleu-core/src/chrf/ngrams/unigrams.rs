//! Order 1 of the matcher (see [`super`]): the classes of the hypothesis's symbols, each
//! reference's matches, and the dense renumbering of the symbols that orders 2 and up index
//! their tables with.

use super::{count_one, push_if, take_one, Tally};

/// Order 1 of the hypothesis: the class (first position) of each position, in `live`, and
/// the [`Tally`] of each class; `rank` numbers the classes from 1 in order (at their positions;
/// the other positions take any number). Returns how many.
#[inline(never)]
pub(super) fn hypothesis_classes(
    hyp: &[u32],
    first: &mut [u32],
    tally: &mut [Tally],
    rank: &mut [u32],
    live: &mut [(u32, u32)],
) -> u32 {
    let none = hyp.len() as u32;
    let mut symbols = 0u32;
    for (j, (&s, e)) in hyp.iter().zip(live.iter_mut()).enumerate() {
        let f = &mut first[s as usize];
        let new = *f == none;
        let c = std::hint::select_unpredictable(new, j as u32, *f);
        *f = c;
        count_one(&mut tally[c as usize], new);
        symbols += u32::from(new);
        rank[j] = symbols;
        *e = (j as u32, c);
    }
    symbols
}

/// Order 1 of one reference: its matches (returned), `tally` used up, its symbols
/// renumbered as the hypothesis's (`rank` of their class; 0, `rank[none]`, for the symbols
/// the hypothesis lacks, whose class in `first` is `none`) and its positions with a class
/// appended to `ref_live[*len..]`.
#[inline(never)]
pub(super) fn reference_unigrams(
    syms: &mut [u32],
    (first, rank, none): (&[u32], &[u32], u32),
    tally: &mut [Tally],
    ref_live: &mut [(u32, u32)],
    len: &mut usize,
) -> u32 {
    // A local length (not `*len` written back per symbol) stays in a register.
    let (mut m, mut n) = (0, *len);
    for (i, s) in syms.iter_mut().enumerate() {
        let c = first.get(*s as usize).copied().unwrap_or(none);
        m += take_one(&mut tally[c as usize][1]);
        *s = rank[c as usize];
        push_if(ref_live, &mut n, (i as u32, c), c != none);
    }
    *len = n;
    m
}

/// Order 1's [`keep_found`](super::keep_found), which also renumbers the hypothesis: the symbol of a position
/// whose class some reference has is the class's `rank`, the others' is `nowhere`. Returns
/// how many entries are kept (at the start of `live`, whose entry `j` is position `j`).
pub(super) fn keep_symbols(
    hyp: &mut [u32],
    live: &mut [(u32, u32)],
    (rank, nowhere): (&[u32], u32),
    found: impl Fn(u32) -> bool,
) -> usize {
    let mut kept = 0;
    for j in 0..live.len() {
        let e = live[j];
        let found = found(e.1);
        hyp[j] = std::hint::select_unpredictable(found, rank[e.1 as usize], nowhere);
        push_if(live, &mut kept, e, found);
    }
    kept
}
