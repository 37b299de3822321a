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
//! Performance decision: one row costs about 45 instructions (callgrind, loop included) where
//! [`super::edit_distance::ScalarDp`] spends about 8 per cell, 400 for a beam of 50 cells; and
//! a shifted hypothesis usually needs only the rows of
//! its window plus a few more: once a recomputed row equals the current hypothesis' row up to
//! a constant (same masks), every later row does too, so the distance is the current distance
//! plus that constant (exact; the path-sum argument of [`super::edit_distance`]). Measured on
//! WMT22 en-de, such rows converge within a few rows for sentences and within about 60 rows for
//! 30-sentence paragraphs, and waiting for that beat combining with backward rows (which cost
//! a scalar pass per shift); rows that have not converged after [`CONVERGE_ROWS`] rows (only in
//! segments of thousands of words) are combined with the backward values, which bounds the work
//! per candidate.

use super::edit_distance::{Backward, Band, INF};

mod trace;

/// How many rows past a window to wait for convergence before combining with the backward
/// row.
const CONVERGE_ROWS: usize = 256;

/// Match masks larger than this many `u64` (32 MiB, two per word and 64 cells) make the
/// engine decline (the scalar one needs no masks); only references of many thousand distinct
/// words reach it.
const MAX_MASK_WORDS: usize = 1 << 22;

/// One row: the value at `lo` and the difference masks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Row {
    p: u64,
    n: u64,
    left: u32,
}

/// Row 0 (`D[0][j] = j`, every difference +1), seen through any beam. Bit 0 (the difference
/// to the cell left of the beam) is clear, as in every row [`step`] makes: a beam that does
/// not move then needs no mask to clear it (see `fix_n`).
const ROW0: Row = Row {
    p: !1,
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
    /// `lo_i` and `hi_i`.
    lo: u32,
    hi: u32,
    /// `lo_i - lo_{i-1}`, below 64: a beam of at most 64 cells means a ratio of at most 50.
    d: u32,
    /// Where the match masks of the cells `lo_i..lo_i + 64` start in [`BitDp::peq`].
    peq_at: u32,
    /// 1 when the beam did not move, else 0 (see `corner` in [`step`]).
    inc: u32,
    /// Bits `1..d`: the previous row's differences between `lo_{i-1}` and `lo_i - 1`.
    dmask: u64,
    /// Bits of cells right of the previous beam (`j >= hi_{i-1}`), and the others.
    outside: u64,
    within: u64,
    /// Bits of cells that may match (`j <= hi_{i-1}`).
    eq_keep: u64,
    /// 1 when the beam did not move (bit 0's difference is forced to -1; that of `p` is
    /// always clear), else 0.
    fix_n: u64,
    /// Bits `1..hi_i - lo_i`: the differences inside the beam.
    inside: u64,
}

impl Geo {
    fn new(band: &Band, i: usize) -> Self {
        let (plo, phi) = band.row(i - 1);
        let (lo, hi) = band.row(i);
        let k = phi - lo;
        // After the shift by `d`, the previous row's bits cover `lo_i..lo_{i-1} + 64`: all of
        // its beam for rows of at most 64 cells, but row 0 can be wider. Its differences are
        // all +1, exactly what the fill beyond the previous beam puts there.
        let filled = k.min(64 - (lo - plo));
        let outside = if filled < 64 { u64::MAX << filled } else { 0 };
        Geo {
            lo: lo as u32,
            hi: hi as u32,
            d: (lo - plo) as u32,
            peq_at: 0,
            inc: u32::from(lo == plo),
            dmask: ones_after_first((lo - plo).max(1) - 1),
            outside,
            within: !outside,
            eq_keep: if k < 63 {
                u64::MAX >> (63 - k)
            } else {
                u64::MAX
            },
            fix_n: u64::from(lo == plo),
            inside: ones_after_first(hi - lo - 1),
        }
    }
}

/// Row `i` from row `i - 1` (`prev`) and the match mask `eq` of the hypothesis word at
/// `lo_i` (bit `k`: reference word `lo_i + k - 1` equals it; [`eq_of`]); also the masks of the
/// differences down the columns, `D[i][j] - D[i-1][j]` (+1, -1), which the trace uses.
/// `WIDE`: whether the beam may move by more than one cell (see `corner`).
#[inline(always)]
fn step<const WIDE: bool>(prev: Row, g: &Geo, eq: u64) -> (Row, u64, u64) {
    // Right of the previous beam: +1 differences and no matches after `hi_{i-1}`; when the
    // beam did not move, the cell left of `lo_i` counts as one more than `lo_i`.
    let vp = (prev.p >> g.d) | g.outside;
    let vn = ((prev.n >> g.d) & g.within) | g.fix_n;
    let xv = eq | vn;
    // D[i][lo_i] without the differences down the columns. When the beam moved, the cell
    // left of `lo_i` is outside it, so D[i][lo_i] is D[i-1][lo_i - 1] (`corner`) plus 0 after
    // a match or when D[i-1][lo_i] is one less (bit 0 of `xv` either way), else plus 1. When
    // it did not move, only the move from above reaches `lo_i`: D[i-1][lo_i] + 1, which is
    // the same formula with `corner` one more than D[i-1][lo_i] (`inc`) and bit 0 of `xv`
    // forced to 1. The corner takes no other bit when the beam moves by 0 or 1 cell per row
    // (whenever the reference is at most as long as the hypothesis), and no `count_ones`,
    // which baseline x86-64 has no instruction for.
    let mut corner = prev.left + g.inc;
    if WIDE && g.d >= 2 {
        corner = corner + (prev.p & g.dmask).count_ones() - (prev.n & g.dmask).count_ones();
    }
    let left = corner + 1 - (xv & 1) as u32;
    let xh = ((eq & vp).wrapping_add(vp) ^ vp) | eq;
    let hp = vn | !(xh | vp);
    let hn = vp & xh;
    let (down_p, down_n) = (hp, hn);
    let hp = (hp << 1) | 1;
    let hn = hn << 1;
    let row = Row {
        p: hn | !(xv | hp),
        n: hp & xv,
        left,
    };
    (row, down_p, down_n)
}

/// The value of cell `lo + k` of `row`.
#[inline]
fn value(row: Row, k: usize) -> u32 {
    let m = ones_after_first(k);
    row.left + (row.p & m).count_ones() - (row.n & m).count_ones()
}

/// Everything known about row `i` of the current hypothesis, together for locality.
#[derive(Clone, Copy, Debug, Default)]
struct Line {
    geo: Geo,
    row: Row,
    /// The match mask of the current hypothesis word `h[i - 1]` at `lo_i`: rows after a
    /// candidate's window reuse it.
    eq: u64,
    /// `D[i][j] - D[i-1][j]` masks (+1, -1), exact where both cells are inside their beams.
    down_p: u64,
    down_n: u64,
}

/// The bit-parallel engine (see the module documentation). Words are dense ids: reference
/// words `0..vocab`, and `vocab` for every hypothesis word absent from the reference.
#[derive(Clone, Debug, Default)]
pub(crate) struct BitDp {
    /// Rows `1..=n` (row 0 is [`ROW0`]).
    lines: Vec<Line>,
    /// Match masks: bit `j` of word `w`'s mask is set when reference word `j - 1` is `w`;
    /// entry `c * (vocab + 1) + w` holds bits `64 c..64 c + 128` of it.
    ///
    /// Performance decision: each 64 bits are stored twice (as the high half of one entry and
    /// the low half of the next), so that a row's mask is one load at `Geo::peq_at + w` and
    /// one double-word shift, without a multiplication.
    peq: Vec<u128>,
    m: usize,
    /// Whether some row's beam moves by more than one cell (see `corner` in [`step`]).
    wide: bool,
    /// Backward values, for windows whose rows do not converge.
    bwd: Backward,
    /// `memo[k]`: row `p + k + 1` of the window last given to [`BitDp::window_cost`] (at
    /// `p`), which the next window at `p` reuses for the words the two have in common.
    memo: Vec<Row>,
    /// [`CONVERGE_ROWS`], smaller in tests so that they reach the combination.
    converge_rows: usize,
}

impl BitDp {
    /// Whether this engine can run: beams of at most 64 cells, masks within the budget.
    pub(crate) fn fits(band: &Band, vocab: usize) -> bool {
        band.width <= 64 && (vocab + 1).saturating_mul(2 * (band.m / 64 + 1)) <= MAX_MASK_WORDS
    }

    pub(crate) fn reset(&mut self, band: &Band, r: &[u32], vocab: usize) {
        // Ids up to `vocab`: the last mask, of hypothesis words the reference lacks, is zero.
        let stride = vocab + 1;
        self.lines.clear();
        self.lines.extend((1..=band.n).map(|i| {
            let mut geo = Geo::new(band, i);
            geo.peq_at = (geo.lo as usize / 64 * stride) as u32;
            Line {
                geo,
                ..Line::default()
            }
        }));
        self.wide = self.lines.iter().any(|l| l.geo.d >= 2);
        self.m = band.m;
        self.peq.clear();
        self.peq.resize((band.m / 64 + 1) * stride, 0);
        for (j, &w) in r.iter().enumerate() {
            let (bit, w) = (j + 1, w as usize);
            let (c, b) = (bit / 64, bit % 64);
            self.peq[c * stride + w] |= 1 << b;
            if c > 0 {
                self.peq[(c - 1) * stride + w] |= 1 << (b + 64);
            }
        }
        self.bwd.reset(band);
        if self.converge_rows == 0 {
            self.converge_rows = CONVERGE_ROWS;
        }
    }

    /// Waits at most `rows` (at least 1) rows for convergence (tests).
    #[cfg(test)]
    pub(crate) fn set_converge_rows(&mut self, rows: usize) {
        self.converge_rows = rows.max(1);
    }

    fn row(&self, i: usize) -> Row {
        if i == 0 {
            ROW0
        } else {
            self.lines[i - 1].row
        }
    }

    /// The forward value of cell `(i, j)`, `INF` outside the beam.
    pub(crate) fn get(&self, band: &Band, i: usize, j: usize) -> u32 {
        if i == 0 {
            return j as u32;
        }
        let (lo, hi) = band.row(i);
        if j >= lo && j < hi {
            value(self.lines[i - 1].row, j - lo)
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
            let mut line = self.lines[i - 1];
            if i <= same_from {
                line.eq = eq_of(&self.peq, &line.geo, h[i - 1]);
            }
            let (row, down_p, down_n) = step::<true>(prev, &line.geo, line.eq);
            let old = line.row;
            (line.row, line.down_p, line.down_n) = (row, down_p, down_n);
            self.lines[i - 1] = line;
            prev = row;
            if i >= same_from && same_masks(&line.geo, row, old) {
                let shift = row.left.wrapping_sub(old.left);
                for l in &mut self.lines[i..] {
                    l.row.left = l.row.left.wrapping_add(shift);
                }
                break;
            }
        }
        self.bwd.invalidate_below(same_from);
    }

    /// The edit distance of the hypothesis `h` with words `p..p + window.len()` replaced by
    /// `window`; `pre` is `h`'s own distance. The first `reuse` words of `window` must be
    /// those of the previous call's window, at the same `p` and since the last
    /// [`BitDp::forward`]: their rows are that call's.
    ///
    /// Performance decision: the shift search gives the candidates of a block in an order
    /// where consecutive windows at the same position share their first words (a block
    /// moved left by one, two, ... more words; a block moved right past one more word), and
    /// those rows, most of a long window's, are not computed again.
    pub(crate) fn window_cost(
        &mut self,
        band: &Band,
        p: usize,
        window: (&[u32], usize),
        h: &[u32],
        r: &[u32],
        pre: u32,
    ) -> u32 {
        // Performance decision: most pairs (a reference at most as long as the hypothesis)
        // have no beam moving by more than one cell; their rows skip that test.
        if self.wide {
            self.window_cost_in::<true>(band, p, window, h, r, pre)
        } else {
            self.window_cost_in::<false>(band, p, window, h, r, pre)
        }
    }

    /// [`BitDp::window_cost`] with [`step`]'s `WIDE`.
    fn window_cost_in<const WIDE: bool>(
        &mut self,
        band: &Band,
        p: usize,
        (window, reuse): (&[u32], usize),
        h: &[u32],
        r: &[u32],
        pre: u32,
    ) -> u32 {
        let q = p + window.len();
        if q == p {
            return pre;
        }
        if self.memo.len() < window.len() {
            self.memo.resize(window.len(), Row::default());
        }
        let mut cur = match reuse {
            0 => self.row(p),
            k => self.memo[k - 1],
        };
        let rows = self.lines[p + reuse..q].iter().zip(&window[reuse..]);
        for ((line, &w), m) in rows.zip(&mut self.memo[reuse..]) {
            cur = step::<WIDE>(cur, &line.geo, eq_of(&self.peq, &line.geo, w)).0;
            *m = cur;
        }
        // Rows q, q+1, ...: the words are the current ones again. At most `wait` more rows are
        // computed (one bound for the loop: the last row, or the wait for convergence).
        let wait = (band.n - q).min(self.converge_rows);
        let lines = &self.lines[q - 1..=q - 1 + wait];
        let mut line = &lines[0];
        for next in &lines[1..] {
            if same_masks(&line.geo, cur, line.row) {
                return pre.wrapping_add(cur.left.wrapping_sub(line.row.left));
            }
            cur = step::<WIDE>(cur, &next.geo, next.eq).0;
            line = next;
        }
        let i = q + wait;
        if same_masks(&line.geo, cur, line.row) {
            return pre.wrapping_add(cur.left.wrapping_sub(line.row.left));
        }
        if i == band.n {
            return value(cur, band.m - line.geo.lo as usize);
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

/// The match mask of word `w` for the cells `lo_i..lo_i + 64` of row `g`, without the cells
/// that may not match (`Geo::eq_keep`).
///
/// Performance decision: the id `vocab` (hypothesis words the reference lacks) has a mask of
/// zeros and the entries overlap (see [`BitDp::peq`]), so the lookup is one load and one
/// double-word shift, without a branch but the bounds check.
#[inline(always)]
fn eq_of(peq: &[u128], g: &Geo, w: u32) -> u64 {
    peq.get(g.peq_at as usize + w as usize)
        .map_or(0, |&x| (x >> (g.lo % 64)) as u64 & g.eq_keep)
}

/// Whether rows `a` and `b` of the same beam differ by a constant over it.
#[inline(always)]
fn same_masks(g: &Geo, a: Row, b: Row) -> bool {
    ((a.p ^ b.p) | (a.n ^ b.n)) & g.inside == 0
}
