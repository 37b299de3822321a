//! The trace of [`BitDp`]: sacreBLEU's alignment read off the difference masks.

use super::BitDp;
use crate::ter::edit_distance::{Band, INF};

impl BitDp {
    /// [`crate::ter::edit_distance::alignment`] for this engine: the same decisions, with the
    /// values of the cells around the trace derived from its current cell through the
    /// difference masks (no `count_ones`, no decoding of whole rows).
    pub(crate) fn alignment(
        &self,
        band: &Band,
        h: &[u32],
        r: &[u32],
        align: &mut [i32],
        hyp_err: &mut [u8],
        ref_err: &mut [u8],
    ) {
        let (mut i, mut j) = (band.n, band.m);
        // a = D[i][j] (on the trace, so inside the beam), b = D[i-1][j] (INF outside).
        let mut a = self.get(band, i, j);
        let mut b = self.above(i, j, a);
        while i > 0 && j > 0 {
            let lo = self.bounds(i).0;
            let (plo, phi) = self.bounds(i - 1);
            let ins_at = if j > lo {
                let (dp, dn) = self.across(i, j);
                a + dn - dp
            } else {
                INF
            };
            let diag_at = if j <= plo || j > phi {
                INF
            } else if j < phi {
                let (dp, dn) = self.across(i - 1, j);
                b + dn - dp
            } else {
                self.get(band, i - 1, j - 1)
            };
            let e = h[i - 1] != r[j - 1];
            let (diag, del, ins) = (diag_at + u32::from(e), b + 1, ins_at + 1);
            if diag <= del && diag <= ins {
                align[j - 1] = i as i32 - 1;
                hyp_err[i - 1] = u8::from(e);
                ref_err[j - 1] = u8::from(e);
                (i, j, a) = (i - 1, j - 1, diag_at);
            } else if del <= ins {
                hyp_err[i - 1] = 1;
                (i, a) = (i - 1, b);
            } else {
                align[j - 1] = i as i32 - 1;
                ref_err[j - 1] = 1;
                (j, a) = (j - 1, ins_at);
            }
            if i > 0 {
                b = self.above(i, j, a);
            }
        }
        // Row 0 is all insertions, column 0 all deletions.
        while j > 0 {
            align[j - 1] = -1;
            ref_err[j - 1] = 1;
            j -= 1;
        }
        while i > 0 {
            hyp_err[i - 1] = 1;
            i -= 1;
        }
    }

    /// Row `i`'s beam `(lo, hi)`.
    #[inline]
    fn bounds(&self, i: usize) -> (usize, usize) {
        match i {
            0 => (0, self.m + 1),
            _ => {
                let g = &self.lines[i - 1].geo;
                (g.lo as usize, g.hi as usize)
            }
        }
    }

    /// `D[i][j] - D[i][j - 1]` as `(+1 bit, -1 bit)`, for `j` and `j - 1` inside row `i`'s beam.
    #[inline]
    fn across(&self, i: usize, j: usize) -> (u32, u32) {
        if i == 0 {
            return (1, 0);
        }
        let l = &self.lines[i - 1];
        let k = j - l.geo.lo as usize;
        (((l.row.p >> k) & 1) as u32, ((l.row.n >> k) & 1) as u32)
    }

    /// `D[i-1][j]` from `a = D[i][j]` (cell inside row `i`'s beam), `INF` outside row `i-1`'s.
    #[inline]
    fn above(&self, i: usize, j: usize, a: u32) -> u32 {
        let (plo, phi) = self.bounds(i - 1);
        if j < plo || j >= phi {
            return INF;
        }
        let l = &self.lines[i - 1];
        let k = j - l.geo.lo as usize;
        a + ((l.down_n >> k) & 1) as u32 - ((l.down_p >> k) & 1) as u32
    }
}
