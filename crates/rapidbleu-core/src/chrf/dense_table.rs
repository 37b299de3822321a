//! A direct-indexed map from `(prefix class, symbol)` to an n-gram class, for the orders of a
//! sentence: one cell per pair, `cells[prefix * width + symbol]` (see `ngrams` for classes;
//! there symbols are renumbered densely, so `width` is the hypothesis's distinct symbols plus
//! two).
//!
//! Performance decision: a sentence of 100 characters has about 40 distinct ones, so its
//! table is about 4,000 cells (16 KiB, in L1): a lookup is one multiply-add and one load, where
//! the hash [`Table`](super::table::Table) hashes a 64-bit key, compares it in a 16-byte slot
//! and records the slot. Longer texts, whose cells would grow with the square of the text,
//! keep the hash table ([`DenseTable::fits`]).

use super::table::{classify_with, Classes};
use super::tally::Tally;

/// An empty cell. Real classes are below 2**31.
const EMPTY: u32 = u32::MAX;

/// The most cells a table has (128 KiB): a sentence of up to a few hundred characters.
const MAX_CELLS: usize = 1 << 15;

/// See the module documentation. Between orders every cell is [`EMPTY`].
#[derive(Debug, Default)]
pub(crate) struct DenseTable {
    cells: Vec<u32>,
    /// Cells per prefix class: every symbol is below it.
    width: usize,
    /// The cells filled in this order, in `filled[..n_filled]`.
    filled: Vec<u32>,
    n_filled: usize,
}

impl DenseTable {
    /// Whether prefix classes below `rows` and symbols below `width` fit a table.
    pub(crate) fn fits(rows: usize, width: usize) -> bool {
        rows.saturating_mul(width) <= MAX_CELLS
    }

    /// Uses the table for prefix classes below `rows` and symbols below `width` (which
    /// [`DenseTable::fits`]); every cell is empty.
    pub(crate) fn start(&mut self, rows: usize, width: usize) {
        let cells = rows * width;
        if self.cells.len() < cells {
            self.cells.resize(cells, EMPTY);
        }
        self.width = width;
    }
}

impl Classes for DenseTable {
    fn classify(&mut self, tally: &mut [Tally], live: &mut [(u32, u32)], tail: &[u32]) {
        let DenseTable {
            cells,
            width,
            filled,
            n_filled,
        } = self;
        // Every entry writes the next `filled` slot; only new cells keep theirs.
        let filled = super::room(filled, live.len());
        let mut n = 0;
        classify_with(tally, live, tail, |prefix, symbol, j| {
            let i = prefix as usize * *width + symbol as usize;
            let cell = &mut cells[i];
            let new = *cell == EMPTY;
            let c = std::hint::select_unpredictable(new, j, *cell);
            *cell = c;
            filled[n] = i as u32;
            n += usize::from(new);
            c
        });
        *n_filled = n;
    }

    fn finder(&self, absent: u32) -> impl Fn(u32, u32) -> u32 + '_ {
        let (cells, width) = (&self.cells[..], self.width);
        // An empty cell (all ones) is above every class and `absent`.
        move |prefix, symbol| cells[prefix as usize * width + symbol as usize].min(absent)
    }

    fn clear(&mut self) {
        for &i in &self.filled[..self.n_filled] {
            self.cells[i as usize] = EMPTY;
        }
        self.n_filled = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_get_clear() {
        let mut t = DenseTable::default();
        assert!(DenseTable::fits(100, 40) && !DenseTable::fits(1000, 1000));
        t.start(10, 5);
        // Positions 0..6 with prefix classes 0, 0, 2, 0, 2, 9 and symbols 1, 2, 1, 1, 1, 4.
        let tail = [1, 2, 1, 1, 1, 4];
        let mut live: Vec<(u32, u32)> = [0, 0, 2, 0, 2, 9]
            .into_iter()
            .enumerate()
            .map(|(j, p)| (j as u32, p))
            .collect();
        let mut tally = vec![[7, 7]; 6];
        t.classify(&mut tally, &mut live, &tail);
        let classes: Vec<u32> = live.iter().map(|e| e.1).collect();
        assert_eq!(classes, vec![0, 1, 2, 0, 2, 5]);
        let counts: Vec<u32> = tally.iter().map(|t| t[0]).collect();
        assert_eq!(counts, vec![2, 1, 2, 7, 7, 1]);
        assert_eq!(t.finder(99)(2, 1), 2);
        assert_eq!(t.finder(99)(2, 2), 99);
        t.clear();
        assert!(t.cells.iter().all(|&c| c == EMPTY));
    }
}
