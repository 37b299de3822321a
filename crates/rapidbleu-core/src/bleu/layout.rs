//! BLEU's statistics row, `[hyp_len, ref_len, correct_1..N, total_1..N]` (sacreBLEU's
//! `BLEU._compute_segment_statistics`), and the bound on its order N.
//!
//! Every path reads and writes rows through [`RowLayout`]'s views ([`Row`], [`RowMut`]), so
//! the layout is written down here and nowhere else.

use crate::error::CoreError;
use std::fmt::Display;

/// The highest n-gram order rapidbleu counts.
///
/// sacreBLEU accepts any order, but orders beyond a segment's length have no n-grams (totals
/// of 0), so they change nothing but the row width: every row holds `2 + 2 * N` counts, and a
/// worker touches each of them per segment. Real use is 1 to about 10 (BLEU's 4, chrF's 6); a
/// thousand leaves room for any experiment, while rows stay within 16 KB, and an order such as
/// `2**31` (rows of 32 GB each) is refused with this bound instead of exhausting memory.
pub const MAX_ORDER: usize = 1000;

/// Index of the hypothesis length in a row.
const HYP_LEN: usize = 0;
/// Index of the reference length in a row.
const REF_LEN: usize = 1;
/// Index of `correct_1`; the totals follow the `N` correct counts.
const COUNTS: usize = 2;

/// The shape of a row for one order `N`: `N` in `1..=MAX_ORDER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowLayout {
    max_order: usize,
}

/// The message for an n-gram order that is not allowed, `shown` as the caller wrote it;
/// `too_large` for a positive integer beyond [`MAX_ORDER`].
pub fn invalid_max_order(shown: impl Display, too_large: bool) -> CoreError {
    CoreError::InvalidOption(if too_large {
        format!(
            "max_ngram_order must be at most {MAX_ORDER} (orders beyond a segment's length add \
             nothing, and every statistics row holds 2 + 2 * max_ngram_order counts), got \
             {shown}"
        )
    } else {
        format!("max_ngram_order must be a positive integer, got {shown}")
    })
}

impl RowLayout {
    /// sacreBLEU's default order, `MAX_NGRAM_ORDER = 4`.
    pub const DEFAULT: RowLayout = RowLayout { max_order: 4 };

    /// The layout of order `max_order`, as given by a caller (`max_ngram_order`): checked to be
    /// in `1..=MAX_ORDER`.
    pub fn new(max_order: i64) -> Result<Self, CoreError> {
        match usize::try_from(max_order) {
            Ok(n @ 1..=MAX_ORDER) => Ok(RowLayout { max_order: n }),
            _ => Err(invalid_max_order(max_order, max_order > 0)),
        }
    }

    /// The layout whose rows have `row_len` values (`2 + 2 * N`), e.g. of a statistics array.
    pub fn of_row_len(row_len: usize) -> Result<Self, CoreError> {
        let n = row_len.saturating_sub(COUNTS) / 2;
        if row_len < COUNTS + 2 || row_len != COUNTS + 2 * n || n > MAX_ORDER {
            return Err(CoreError::InvalidInput(format!(
                "statistics rows need 2 + 2N columns (N from 1 to {MAX_ORDER}), got {row_len}"
            )));
        }
        Ok(RowLayout { max_order: n })
    }

    /// The order N.
    pub fn max_order(self) -> usize {
        self.max_order
    }

    /// Values per row: `2 + 2 * N`.
    pub fn row_len(self) -> usize {
        COUNTS + 2 * self.max_order
    }

    /// The number of rows in `stats`, which must hold whole rows.
    pub fn n_rows(self, stats_len: usize) -> Result<usize, CoreError> {
        let row_len = self.row_len();
        if !stats_len.is_multiple_of(row_len) {
            return Err(CoreError::InvalidInput(format!(
                "statistics hold {stats_len} values, not a whole number of rows of {row_len}"
            )));
        }
        Ok(stats_len / row_len)
    }

    /// A view of `row` (`row_len()` values).
    #[inline(always)]
    pub fn row<T: Copy>(self, row: &[T]) -> Row<'_, T> {
        let (correct, total) = row[COUNTS..].split_at(self.max_order);
        Row {
            hyp_len: row[HYP_LEN],
            ref_len: row[REF_LEN],
            correct,
            total,
        }
    }

    /// A mutable view of `row` (`row_len()` values).
    #[inline(always)]
    pub fn row_mut<T>(self, row: &mut [T]) -> RowMut<'_, T> {
        let (lens, counts) = row.split_at_mut(COUNTS);
        let (hyp_len, ref_len) = lens.split_at_mut(REF_LEN);
        let (correct, total) = counts.split_at_mut(self.max_order);
        RowMut {
            hyp_len: &mut hyp_len[HYP_LEN],
            ref_len: &mut ref_len[0],
            correct,
            total,
        }
    }

    /// Views of every row of `stats` (whole rows; see [`RowLayout::n_rows`]).
    pub fn rows<T: Copy>(self, stats: &[T]) -> impl Iterator<Item = Row<'_, T>> {
        stats.chunks_exact(self.row_len()).map(move |r| self.row(r))
    }
}

impl Default for RowLayout {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The values of one row. `correct` and `total` hold the `N` orders (a caller scoring lists
/// of its own, as `BLEU.compute_bleu` takes them, may give longer ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row<'a, T> {
    /// Hypothesis length in tokens.
    pub hyp_len: T,
    /// The reference length the segment contributes (the closest, for sacreBLEU).
    pub ref_len: T,
    /// Matched n-grams of each order (clipped by the references).
    pub correct: &'a [T],
    /// Hypothesis n-grams of each order: `max(0, hyp_len - n + 1)`.
    pub total: &'a [T],
}

/// The values of one row, to be written.
#[derive(Debug)]
pub struct RowMut<'a, T> {
    /// Hypothesis length in tokens.
    pub hyp_len: &'a mut T,
    /// The reference length the segment contributes.
    pub ref_len: &'a mut T,
    /// Matched n-grams of each order.
    pub correct: &'a mut [T],
    /// Hypothesis n-grams of each order.
    pub total: &'a mut [T],
}

impl RowMut<'_, i64> {
    /// Sets the totals of a hypothesis of `len` tokens: `max(0, len - n + 1)` for each order
    /// `n` (sacreBLEU's `len(ngrams)` of an order).
    #[inline]
    pub fn set_totals(&mut self, len: i64) {
        for (n, t) in (1..).zip(self.total.iter_mut()) {
            *t = (len - n + 1).max(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views() {
        let l = RowLayout::new(2).unwrap();
        let mut row = [0i64; 6];
        let mut m = l.row_mut(&mut row);
        *m.hyp_len = 3;
        *m.ref_len = 4;
        m.correct.copy_from_slice(&[2, 1]);
        m.set_totals(3);
        assert_eq!(row, [3, 4, 2, 1, 3, 2]);
        let r = l.row(&row);
        assert_eq!(
            (r.hyp_len, r.ref_len, r.correct, r.total),
            (3, 4, &[2, 1][..], &[3, 2][..])
        );
        assert_eq!(l.rows(&[row, row].concat()).count(), 2);
        assert_eq!(RowLayout::of_row_len(6), Ok(l));
        assert_eq!(l.n_rows(12), Ok(2));
        assert!(l.n_rows(7).is_err());
    }

    #[test]
    fn orders_out_of_bounds() {
        assert_eq!(RowLayout::new(1000).map(RowLayout::row_len), Ok(2002));
        for (bad, words) in [
            (0, "positive integer, got 0"),
            (-1, "positive integer, got -1"),
            (1001, "at most 1000"),
            (1 << 31, "got 2147483648"),
            (i64::MAX, "at most 1000"),
        ] {
            let msg = RowLayout::new(bad).unwrap_err().to_string();
            assert!(msg.contains(words), "{msg}");
            assert!(msg.starts_with("max_ngram_order must be"), "{msg}");
        }
        for bad in [0, 1, 2, 3, 5, 2 + 2 * 1001] {
            assert!(RowLayout::of_row_len(bad).is_err(), "{bad}");
        }
    }
}
