//! The beam edit distance of [`super::edit_distance`], 64 cells at a time: Myers' bit-vector
//! algorithm (in Hyyrö's formulation) run over each row's beam.
//!
//! A row is stored as the value of its first cell `lo` and two masks of the differences
//! `D[i][j] - D[i][j - 1]` (`p`: +1, `n`: -1) for `j = lo + k`, bit `k`. Inside a beam those
//! differences are always -1, 0 or +1, as in a full matrix. The beam edges are folded in as
//! fictitious cells that can never win a minimum, which gives exactly the beam's values:
//! - left of the beam: the carry-in difference down the column `lo - 1` is +1, and when the
//!   beam did not move right, bit 0's difference is -1 (the cell left of `lo` is one more than
//!   `lo`), so only the move from above reaches `lo`;
//! - right of the previous row's beam (`j >= hi_{i-1}`): differences +1 and no matches after
//!   `hi_{i-1}`, so those cells are reached by insertions along the row only.
//!
//! Performance decision: one row costs about 30 instructions instead of ~8 per cell for
//! [`super::edit_distance::ScalarDp`], and a shifted hypothesis usually needs only the rows of
//! its window plus a few more: once a recomputed row equals the current hypothesis' row up to
//! a constant (same masks), every later row does too, so the distance is the current distance
//! plus that constant (exact; the path-sum argument of [`super::edit_distance`]). Rows that do
//! not converge within [`CONVERGE_ROWS`] rows are combined with the backward values instead.

use super::edit_distance::{Backward, Band, INF};

/// How many rows past a window to wait for convergence before combining with the backward
/// row (a combination costs about as much as this many rows).
const CONVERGE_ROWS: usize = 100000;

/// Match masks larger than this many `u64` (32 MiB) make the engine decline (the scalar one
/// needs no masks); only references of many thousand distinct words reach it.
const MAX_MASK_WORDS: usize = 1 << 22;

/// One row: the value at `lo` and the difference masks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Row {
    p: u64,
    n: u64,
    left: u32,
}

/// Row 0 (`D[0][j] = j`, every difference +1), seen through any beam.
const ROW0: Row = Row {
    p: u64::MAX,
    n: 0,
    left: 0,
};

/// Bits `1..=k` (`k <= 63`).
#[inline]
fn ones_after_first(k: usize) -> u64 {
    if k == 0 {
        0
    } else {
        (u64::MAX >> (64 - k)) << 1
    }
}

/// What [`step`] needs of row `i`'s beam and row `i - 1`'s, precomputed once per pair.
#[derive(Clone, Copy, Debug, Default)]
struct Geo {
    /// `lo_i`.
    lo: u32,
    /// `lo_i - lo_{i-1}` (at most 15: the engine runs for ratios up to 14).
    d: u32,
    /// Bits of cells right of the previous beam (`j >= hi_{i-1}`).
    outside: u64,
    /// Bits of cells that may match (`j <= hi_{i-1}`).
    eq_keep: u64,
    /// `!1` when the beam did not move (bit 0's difference is forced to -1), else all ones.
    fix_p: u64,
    /// Bits `1..hi_i - lo_i`: the differences inside the beam.
    inside: u64,
}

impl Geo {
    fn new(band: &Band, i: usize) -> Self {
        let (plo, phi) = band.row(i - 1);
        let (lo, hi) = band.row(i);
        let k = phi - lo;
        Geo {
            lo: lo as u32,
            d: (lo - plo) as u32,
            outside: if k < 64 { u64::MAX << k } else { 0 },
            eq_keep: if k < 63 {
                u64::MAX >> (63 - k)
            } else {
                u64::MAX
            },
            fix_p: if lo == plo { !1 } else { u64::MAX },
            inside: ones_after_first(hi - lo - 1),
        }
    }
}

/// Row `i` from row `i - 1` (`prev`) and the match mask `eq` of the hypothesis word at
/// `lo_i` (bit `k`: reference word `lo_i + k - 1` equals it).
#[inline(always)]
fn step(prev: Row, g: &Geo, eq: u64) -> Row {
    // D[i-1][lo_i], the previous row's value at `lo_i`. The beam moves by 0 or 1 cell per row
    // whenever the reference is at most as long as the hypothesis: those cases avoid
    // `count_ones`, which baseline x86-64 has no instruction for.
    let base = match g.d {
        0 => prev.left,
        1 => prev.left + ((prev.p >> 1) & 1) as u32 - ((prev.n >> 1) & 1) as u32,
        d => {
            let m = ones_after_first(d as usize);
            prev.left + (prev.p & m).count_ones() - (prev.n & m).count_ones()
        }
    };
    // Right of the previous beam: +1 differences and no matches after `hi_{i-1}`; when the
    // beam did not move, the cell left of `lo_i` counts as one more than `lo_i`.
    let vp = ((prev.p >> g.d) | g.outside) & g.fix_p;
    let vn = ((prev.n >> g.d) & !g.outside) | u64::from(g.fix_p != u64::MAX);
    let eq = eq & g.eq_keep;
    let xv = eq | vn;
    let xh = ((eq & vp).wrapping_add(vp) ^ vp) | eq;
    let hp = vn | !(xh | vp);
    let hn = vp & xh;
    let left = base + (hp & 1) as u32 - (hn & 1) as u32;
    let hp = (hp << 1) | 1;
    let hn = hn << 1;
    Row {
        p: hn | !(xv | hp),
        n: hp & xv,
        left,
    }
}

/// The value of cell `lo + k` of `row`.
#[inline]
fn value(row: Row, k: usize) -> u32 {
    let m = ones_after_first(k);
    row.left + (row.p & m).count_ones() - (row.n & m).count_ones()
}

/// The bit-parallel engine (see the module documentation). Words are dense ids: reference
/// words `0..vocab`, and `vocab` for every hypothesis word absent from the reference.
#[derive(Clone, Debug, Default)]
pub(crate) struct BitDp {
    /// Rows `1..=n` (row 0 is [`ROW0`]).
    rows: Vec<Row>,
    /// The geometry of rows `1..=n`.
    geo: Vec<Geo>,
    /// Match masks: bit `j` of word `w`'s mask is set when reference word `j - 1` is `w`.
    peq: Vec<u64>,
    /// `u64` per mask (one spare, so that 64 bits can be read at any offset up to `m`).
    mask_len: usize,
    vocab: usize,
    pub(crate) bwd: Backward,
}

impl BitDp {
    /// Whether this engine can run: beams of at most 64 cells, masks within the budget.
    pub(crate) fn fits(band: &Band, vocab: usize) -> bool {
        band.width <= 64 && vocab.saturating_mul(band.m / 64 + 2) <= MAX_MASK_WORDS
    }

    pub(crate) fn reset(&mut self, band: &Band, r: &[u32], vocab: usize) {
        self.rows.clear();
        self.rows.resize(band.n, Row::default());
        self.geo.clear();
        self.geo.extend((1..=band.n).map(|i| Geo::new(band, i)));
        self.vocab = vocab;
        self.mask_len = band.m / 64 + 2;
        self.peq.clear();
        self.peq.resize(vocab * self.mask_len, 0);
        for (j, &w) in r.iter().enumerate() {
            let bit = j + 1;
            self.peq[w as usize * self.mask_len + bit / 64] |= 1 << (bit % 64);
        }
        self.bwd.reset(band);
    }

    /// The match mask of word `w` for the cells `lo..lo + 64`.
    #[inline]
    fn eq(&self, w: u32, lo: usize) -> u64 {
        let w = w as usize;
        if w >= self.vocab {
            return 0;
        }
        let base = w * self.mask_len + lo / 64;
        let (a, b) = (self.peq[base], self.peq[base + 1]);
        match lo % 64 {
            0 => a,
            s => (a >> s) | (b << (64 - s)),
        }
    }

    fn row(&self, i: usize) -> Row {
        if i == 0 {
            ROW0
        } else {
            self.rows[i - 1]
        }
    }

    /// Row `i` computed from `prev` (row `i - 1`) for hypothesis word `w`.
    #[inline(always)]
    fn next(&self, prev: Row, i: usize, w: u32) -> Row {
        let g = &self.geo[i - 1];
        step(prev, g, self.eq(w, g.lo as usize))
    }

    /// The forward value of cell `(i, j)`, `INF` outside the beam.
    pub(crate) fn get(&self, band: &Band, i: usize, j: usize) -> u32 {
        if i == 0 {
            return j as u32;
        }
        let (lo, hi) = band.row(i);
        if j >= lo && j < hi {
            value(self.rows[i - 1], j - lo)
        } else {
            INF
        }
    }

    /// Recomputes forward rows `from+1..=n` for hypothesis `h`, whose words from position
    /// `same_from` on are those the stored rows were computed with: from there, a row equal
    /// to the stored one up to a constant ends the work (later rows just add the constant).
    pub(crate) fn forward(&mut self, band: &Band, h: &[u32], from: usize, same_from: usize) {
        let mut prev = self.row(from);
        for i in from + 1..=band.n {
            let row = self.next(prev, i, h[i - 1]);
            let old = self.rows[i - 1];
            self.rows[i - 1] = row;
            prev = row;
            if i >= same_from && self.same_masks(i, row, old) {
                let shift = row.left.wrapping_sub(old.left);
                for r in &mut self.rows[i..] {
                    r.left = r.left.wrapping_add(shift);
                }
                return;
            }
        }
    }

    /// Whether rows `a` and `b` (both row `i`) differ by a constant over the beam.
    #[inline]
    fn same_masks(&self, i: usize, a: Row, b: Row) -> bool {
        ((a.p ^ b.p) | (a.n ^ b.n)) & self.geo[i - 1].inside == 0
    }

    /// The edit distance of the hypothesis `h` with words `p..p + window.len()` replaced by
    /// `window`; `pre` is `h`'s own distance.
    pub(crate) fn window_cost(
        &mut self,
        band: &Band,
        p: usize,
        window: &[u32],
        h: &[u32],
        r: &[u32],
        pre: u32,
    ) -> u32 {
        let q = p + window.len();
        if q == p {
            return pre;
        }
        let mut cur = self.row(p);
        for (k, &w) in window.iter().enumerate() {
            cur = self.next(cur, p + k + 1, w);
        }
        let mut i = q;
        loop {
            if i == band.n {
                return value(cur, band.m - band.row(i).0);
            }
            let old = self.rows[i - 1];
            if self.same_masks(i, cur, old) {
                return pre.wrapping_add(cur.left.wrapping_sub(old.left));
            }
            if i - q >= CONVERGE_ROWS {
                break;
            }
            i += 1;
            cur = self.next(cur, i, h[i - 1]);
        }
        // min_j fwd'[i][j] + bwd[i][j], decoding the row's values on the way.
        let back = self.bwd.row(band, h, r, i);
        let mut f = cur.left;
        let mut best = f + back[0];
        for (k, &b) in back.iter().enumerate().skip(1) {
            f = f + ((cur.p >> k) & 1) as u32 - ((cur.n >> k) & 1) as u32;
            best = best.min(f + b);
        }
        best
    }
}
