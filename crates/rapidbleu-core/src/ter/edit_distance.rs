//! `BeamEditDistance._edit_distance` of `lib_ter.py`: Levenshtein distance restricted to a
//! beam around the pseudo-diagonal, the alignment of its trace, and the scalar engine that
//! computes it cell by cell ([`ScalarDp`]; [`super::bit_dp`] computes the same values 64 cells
//! at a time).
//!
//! Row `i` (hypothesis prefix of `i` words) holds the cells `j` (reference prefix) of
//! `[lo_i, hi_i)`; every other cell is "infinite" (sacreBLEU's `(1e16, 'x')`). A cell's value
//! is the minimum cost over monotone paths from `(0, 0)` that stay inside the beam, so the order
//! in which sacreBLEU tries the operations decides only the trace, never a value.
//!
//! Memory: band matrices of `n x max_width` `u32` (the width is `2 * beam`, 50 cells, more only
//! when the reference is over 50 times longer than the hypothesis): linear in the segment,
//! where sacreBLEU keeps the full `(n + 1) x (m + 1)` matrix of tuples.
//!
//! Performance decision: a shift changes the hypothesis only inside a window `[p, q)`, so
//! forward rows `0..=p` and backward rows `q..=n` are those of the current hypothesis. The cost
//! of a shifted hypothesis is `min_j fwd'[k][j] + bwd[k][j]` for any row `k >= q` (exact: every
//! path crosses row `k`), with only rows `p+1..=k` recomputed, where sacreBLEU computes every
//! row after its cached prefix.

/// "Infinite" cost. Real costs are at most `n + m`, far below it (segment lengths are limited
/// by the caller); sums of two invalid values still fit in `u32`.
pub(crate) const INF: u32 = 1 << 30;

/// sacreBLEU's `_BEAM_WIDTH`.
const BEAM_WIDTH: usize = 25;

/// The beam of every row of one hypothesis/reference length pair.
#[derive(Clone, Debug, Default)]
pub(crate) struct Band {
    pub(crate) n: usize,
    pub(crate) m: usize,
    /// `lo[i]..hi[i]`: the cells of row `i`, for `i` in `0..=n` (row 0 is the whole row).
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// The widest row among rows `1..=n`.
    pub(crate) width: usize,
}

impl Band {
    /// The beams of a hypothesis of `n >= 1` words against `m >= 1` reference words
    /// (`_edit_distance`'s `length_ratio`, `beam_width`, `min_j`, `max_j`). `lo` and `hi` never
    /// decrease from row 1 on, and consecutive rows overlap.
    pub(crate) fn reset(&mut self, n: usize, m: usize) {
        self.n = n;
        self.m = m;
        // Python: `n_ref / n_hyp` (int / int, correctly rounded: both are below 2**53),
        // `math.ceil(ratio / 2 + 25)`, `math.floor(i * ratio)`.
        let ratio = m as f64 / n as f64;
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as usize
        } else {
            BEAM_WIDTH
        };
        self.lo.clear();
        self.hi.clear();
        self.lo.push(0);
        self.hi.push(m as u32 + 1);
        self.width = 1;
        for i in 1..=n {
            let diag = ((i as f64) * ratio).floor() as usize;
            let lo = diag.saturating_sub(beam);
            // The last row runs to the end (`max_j = n_words_ref + 1`); its `min_j` stays.
            let hi = if i == n {
                m + 1
            } else {
                (m + 1).min(diag + beam)
            };
            // lo < hi always holds (diag <= m); the `max` keeps a row non-empty regardless.
            let hi = hi.max(lo + 1);
            self.width = self.width.max(hi - lo);
            self.lo.push(lo as u32);
            self.hi.push(hi as u32);
        }
    }

    /// `(lo, hi)` of row `i`.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> (usize, usize) {
        (self.lo[i] as usize, self.hi[i] as usize)
    }
}

/// One forward row: `cur` (cells `lo..lo + cur.len()`) from `prev` (cells `plo..`) and the
/// hypothesis word `w` (the inner loop of `_edit_distance`).
pub(crate) fn advance(prev: &[u32], plo: usize, lo: usize, w: u32, r: &[u32], cur: &mut [u32]) {
    let phi = plo + prev.len();
    let pget = |k: usize| {
        if k >= plo && k < phi {
            prev[k - plo]
        } else {
            INF
        }
    };
    let mut left = INF;
    for (t, c) in cur.iter_mut().enumerate() {
        let j = lo + t;
        let v = if j == 0 {
            pget(0) + 1
        } else {
            let diag = pget(j - 1) + u32::from(w != r[j - 1]);
            diag.min(pget(j) + 1).min(left + 1)
        };
        *c = v;
        left = v;
    }
}

/// One backward row (cheapest way from each cell to `(n, m)`): `cur` (cells `lo..`) from the
/// next row `next` (cells `nlo..`) and the hypothesis word `w` between them; the moves of
/// [`advance`], walked backwards.
fn retreat(next: &[u32], nlo: usize, lo: usize, w: u32, r: &[u32], cur: &mut [u32]) {
    let nhi = nlo + next.len();
    let nget = |k: usize| {
        if k >= nlo && k < nhi {
            next[k - nlo]
        } else {
            INF
        }
    };
    let mut right = INF;
    for (t, c) in cur.iter_mut().enumerate().rev() {
        let j = lo + t;
        let diag = match r.get(j) {
            Some(&rw) => nget(j + 1) + u32::from(w != rw),
            None => INF,
        };
        let v = diag.min(nget(j) + 1).min(right + 1);
        *c = v;
        right = v;
    }
}

/// Backward rows of the current hypothesis, computed lazily: only candidates whose forward
/// rows do not converge need them (see [`super::bit_dp`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Backward {
    vals: Vec<u32>,
    /// Rows `valid_from..=n` hold the current hypothesis' values.
    valid_from: usize,
}

impl Backward {
    pub(crate) fn reset(&mut self, band: &Band) {
        // No fill: every row is written (over its beam) before it is read. Growing only keeps
        // the per-segment cost at zero when, as usual, no backward row is ever needed.
        if self.vals.len() < band.n * band.width {
            self.vals.resize(band.n * band.width, INF);
        }
        self.valid_from = band.n + 1;
    }

    /// The words before position `q` changed: rows `< q` are stale.
    pub(crate) fn invalidate_below(&mut self, q: usize) {
        self.valid_from = self.valid_from.max(q);
    }

    /// Backward row `k >= 1` of hypothesis `h`, computing the missing rows.
    pub(crate) fn row(&mut self, band: &Band, h: &[u32], r: &[u32], k: usize) -> &[u32] {
        let (n, m, stride) = (band.n, band.m, band.width);
        if self.valid_from > n {
            let (lo, hi) = band.row(n);
            let s = (n - 1) * stride;
            for (t, c) in self.vals[s..s + hi - lo].iter_mut().enumerate() {
                *c = (m - (lo + t)) as u32;
            }
            self.valid_from = n;
        }
        while self.valid_from > k {
            let i = self.valid_from - 1;
            let (nlo, nhi) = band.row(i + 1);
            let (lo, hi) = band.row(i);
            let s = (i - 1) * stride;
            let (cur, next) = self.vals.split_at_mut(s + stride);
            retreat(
                &next[..nhi - nlo],
                nlo,
                lo,
                h[i],
                r,
                &mut cur[s..s + hi - lo],
            );
            self.valid_from = i;
        }
        let (lo, hi) = band.row(k);
        let s = (k - 1) * stride;
        &self.vals[s..s + hi - lo]
    }
}

/// The trace of the current hypothesis `h` turned into sacreBLEU's alignment (`_flip_trace`
/// then `trace_to_alignment`): `align[j]` is the hypothesis position reference word `j` is
/// aligned to (-1 before the first), `hyp_err`/`ref_err` flag errors. `get(i, j)` is the
/// forward value of a cell, `INF` outside the beam.
///
/// The operation of a cell is recomputed from the values: sacreBLEU's cell starts at
/// `(1e16, 'x')` and takes diagonal (nop/sub), delete, insert in that order when strictly
/// cheaper, i.e. the first of the three that reaches the minimum. Column 0 is always a delete
/// and row 0 always an insert.
pub(crate) fn alignment(
    band: &Band,
    h: &[u32],
    r: &[u32],
    get: impl Fn(usize, usize) -> u32,
    align: &mut [i32],
    hyp_err: &mut [u8],
    ref_err: &mut [u8],
) {
    let (mut i, mut j) = (band.n, band.m);
    while i > 0 || j > 0 {
        let e = i > 0 && j > 0 && h[i - 1] != r[j - 1];
        let op = if i == 0 {
            Op::Ins
        } else if j == 0 {
            Op::Del
        } else {
            let diag = get(i - 1, j - 1) + u32::from(e);
            let del = get(i - 1, j) + 1;
            let ins = get(i, j - 1) + 1;
            if diag <= del && diag <= ins {
                Op::Diag
            } else if del <= ins {
                Op::Del
            } else {
                Op::Ins
            }
        };
        match op {
            Op::Diag => {
                align[j - 1] = i as i32 - 1;
                hyp_err[i - 1] = u8::from(e);
                ref_err[j - 1] = u8::from(e);
                i -= 1;
                j -= 1;
            }
            // A delete becomes an insertion once flipped: a hypothesis word in error.
            Op::Del => {
                hyp_err[i - 1] = 1;
                i -= 1;
            }
            // An insert becomes a deletion: the reference word aligns to the hypothesis
            // position reached so far.
            Op::Ins => {
                align[j - 1] = i as i32 - 1;
                ref_err[j - 1] = 1;
                j -= 1;
            }
        }
    }
}

/// sacreBLEU's operations in DP terms (before `_flip_trace`).
enum Op {
    /// `' '` or `'s'`.
    Diag,
    /// `'d'`: a hypothesis word consumed.
    Del,
    /// `'i'`: a reference word consumed.
    Ins,
}

/// The scalar engine: forward values cell by cell. Used when a row is wider than 64 cells
/// (a reference over 14 times longer than the hypothesis) or the reference's match masks would
/// not fit in memory, and in tests as the reference for [`super::bit_dp::BitDp`].
#[derive(Clone, Debug, Default)]
pub(crate) struct ScalarDp {
    /// Forward values of rows `1..=n` (row 0 is `row0`), `band.width` per row.
    fwd: Vec<u32>,
    row0: Vec<u32>,
    bwd: Backward,
    tmp_a: Vec<u32>,
    tmp_b: Vec<u32>,
}

impl ScalarDp {
    pub(crate) fn reset(&mut self, band: &Band) {
        self.fwd.clear();
        self.fwd.resize(band.n * band.width, INF);
        self.row0.clear();
        self.row0.extend(0..=band.m as u32);
        self.bwd.reset(band);
        for t in [&mut self.tmp_a, &mut self.tmp_b] {
            t.clear();
            t.resize(band.width, INF);
        }
    }

    fn fwd_row(&self, band: &Band, i: usize) -> &[u32] {
        if i == 0 {
            return &self.row0;
        }
        let (lo, hi) = band.row(i);
        let s = (i - 1) * band.width;
        &self.fwd[s..s + hi - lo]
    }

    /// The forward value of cell `(i, j)`, `INF` outside the beam.
    pub(crate) fn get(&self, band: &Band, i: usize, j: usize) -> u32 {
        let (lo, hi) = band.row(i);
        if j >= lo && j < hi {
            self.fwd_row(band, i)[j - lo]
        } else {
            INF
        }
    }

    /// Recomputes forward rows `from+1..=n` for hypothesis `h`, whose words from position
    /// `same_from` on are those of the previous call (backward rows below it go stale).
    pub(crate) fn forward(
        &mut self,
        band: &Band,
        h: &[u32],
        r: &[u32],
        from: usize,
        same_from: usize,
    ) {
        self.bwd.invalidate_below(same_from);
        let stride = band.width;
        for i in from + 1..=band.n {
            let (plo, phi) = band.row(i - 1);
            let (lo, hi) = band.row(i);
            let s = (i - 1) * stride;
            let (before, rest) = self.fwd.split_at_mut(s);
            let prev: &[u32] = if i == 1 {
                &self.row0
            } else {
                &before[s - stride..s - stride + phi - plo]
            };
            advance(prev, plo, lo, h[i - 1], r, &mut rest[..hi - lo]);
        }
    }

    /// The edit distance of the hypothesis `h` with words `p..p + window.len()` replaced by
    /// `window`: forward rows `p+1..=q` recomputed, then combined with backward row `q`.
    pub(crate) fn window_cost(
        &mut self,
        band: &Band,
        p: usize,
        window: &[u32],
        h: &[u32],
        r: &[u32],
    ) -> u32 {
        let q = p + window.len();
        let mut a = std::mem::take(&mut self.tmp_a);
        let mut b = std::mem::take(&mut self.tmp_b);
        for (k, &w) in window.iter().enumerate() {
            let i = p + k + 1;
            let (plo, phi) = band.row(i - 1);
            let (lo, hi) = band.row(i);
            let prev = if k == 0 {
                self.fwd_row(band, i - 1)
            } else {
                &a[..phi - plo]
            };
            advance(prev, plo, lo, w, r, &mut b[..hi - lo]);
            std::mem::swap(&mut a, &mut b);
        }
        let (lo, hi) = band.row(q);
        let cost = if q == p {
            self.get(band, band.n, band.m)
        } else {
            a[..hi - lo]
                .iter()
                .zip(self.bwd.row(band, h, r, q))
                .map(|(&f, &g)| f + g)
                .min()
                .unwrap_or(INF)
        };
        self.tmp_a = a;
        self.tmp_b = b;
        cost
    }
}
