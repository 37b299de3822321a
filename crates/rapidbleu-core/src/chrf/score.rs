//! Statistics to a chrF score: `CHRF._compute_f_score` (sacreBLEU 2.6.0) with its float
//! operations in its order, in two number models.
//!
//! - **int64 rows** (segment and corpus statistics, Python ints; also the NumPy int64 rows of
//!   the approximate-randomisation test): every operation is a double-precision one.
//! - **float32 rows** (bootstrap resampling: `np.array(stats, dtype='float32')[idxs].sum(0)`):
//!   under NumPy 2 (NEP 50) a Python scalar meeting a `np.float32` is converted to float32 and
//!   the result is float32, while Python scalars among themselves stay doubles. So the type of
//!   each intermediate depends on which branch made it (`eps` is a Python float, `prec` a
//!   float32 unless it is `eps`, `score` starts as the Python float `0.0`), and the result may
//!   be a `np.float32` or a Python float. [`PyArith`] models both, so that one generic function
//!   holds the operation order once.

use super::options::ChrfOptions;
use crate::error::{zeroed, CoreError};

/// `eps` in `CHRF._compute_f_score`.
const EPS: f64 = 1e-16;

/// The arithmetic of a number model: Python scalars and the values computed from the row.
trait PyArith: Copy {
    /// A Python scalar from the source (`0.0`, `eps`, `factor`, `1 + factor`, `100`, an int).
    fn py(x: f64) -> Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    /// `x > 0`.
    fn is_positive(self) -> bool;
    /// Python truth value.
    fn is_nonzero(self) -> bool;
}

/// Python floats (and NumPy float64 scalars, which round identically).
impl PyArith for f64 {
    #[inline(always)]
    fn py(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self * o
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        self / o
    }
    #[inline(always)]
    fn is_positive(self) -> bool {
        self > 0.0
    }
    #[inline(always)]
    fn is_nonzero(self) -> bool {
        self != 0.0
    }
}

/// A value under NumPy 2 promotion: a Python float (double) or a `np.float32`.
#[derive(Clone, Copy, Debug)]
enum Np {
    Py(f64),
    F32(f32),
}

impl Np {
    /// Applies an operator: doubles for two Python scalars; otherwise the Python scalar is
    /// cast to float32 (NEP 50's "weak" scalar, round to nearest) and the operation is float32.
    #[inline]
    fn op(self, o: Self, f: fn(f64, f64) -> f64, g: fn(f32, f32) -> f32) -> Self {
        match (self, o) {
            (Np::Py(a), Np::Py(b)) => Np::Py(f(a, b)),
            (Np::F32(a), Np::F32(b)) => Np::F32(g(a, b)),
            (Np::F32(a), Np::Py(b)) => Np::F32(g(a, b as f32)),
            (Np::Py(a), Np::F32(b)) => Np::F32(g(a as f32, b)),
        }
    }

    fn value(self) -> f64 {
        match self {
            Np::Py(x) => x,
            Np::F32(x) => f64::from(x),
        }
    }
}

impl PyArith for Np {
    fn py(x: f64) -> Self {
        Np::Py(x)
    }
    fn add(self, o: Self) -> Self {
        self.op(o, |a, b| a + b, |a, b| a + b)
    }
    fn mul(self, o: Self) -> Self {
        self.op(o, |a, b| a * b, |a, b| a * b)
    }
    fn div(self, o: Self) -> Self {
        self.op(o, |a, b| a / b, |a, b| a / b)
    }
    fn is_positive(self) -> bool {
        self.value() > 0.0
    }
    fn is_nonzero(self) -> bool {
        self.value() != 0.0
    }
}

/// `CHRF._compute_f_score` over `(n_hyp, n_ref, n_match)` of each order, line by line.
#[inline]
fn compute<N: PyArith>(triples: impl Iterator<Item = (N, N, N)>, p: &ChrfOptions) -> N {
    let eps = N::py(EPS);
    let factor = N::py(p.factor());
    // `(1 + factor)`: an exact int for an int beta, a double otherwise; 1.0 + factor is that
    // value exactly, because factor <= 2**52 (`MAX_FACTOR`).
    let one_plus_factor = N::py(1.0 + p.factor());
    let mut score = N::py(0.0);
    let mut effective_order = 0usize;
    let (mut avg_prec, mut avg_rec) = (N::py(0.0), N::py(0.0));
    for (n_hyp, n_ref, n_match) in triples.take(p.order()) {
        let prec = if n_hyp.is_positive() {
            n_match.div(n_hyp)
        } else {
            eps
        };
        let rec = if n_ref.is_positive() {
            n_match.div(n_ref)
        } else {
            eps
        };
        let denom = factor.mul(prec).add(rec);
        let term = if denom.is_positive() {
            // `(1 + factor) * prec * rec / denom`, left to right.
            one_plus_factor.mul(prec).mul(rec).div(denom)
        } else {
            eps
        };
        score = score.add(term);
        if n_hyp.is_positive() && n_ref.is_positive() {
            avg_prec = avg_prec.add(prec);
            avg_rec = avg_rec.add(rec);
            effective_order += 1;
        }
    }
    if p.eps_smoothing() {
        // `100 * score / self.order`
        return N::py(100.0).mul(score).div(N::py(p.order() as f64));
    }
    if effective_order == 0 {
        avg_prec = N::py(0.0);
        avg_rec = N::py(0.0);
    } else {
        avg_prec = avg_prec.div(N::py(effective_order as f64));
        avg_rec = avg_rec.div(N::py(effective_order as f64));
    }
    if avg_prec.add(avg_rec).is_nonzero() {
        let mut s = one_plus_factor.mul(avg_prec).mul(avg_rec);
        s = s.div(factor.mul(avg_prec).add(avg_rec));
        return N::py(100.0).mul(s);
    }
    N::py(0.0)
}

/// Counts up to this value convert to doubles exactly (and Python's `int / int` is then one
/// double division).
const MAX_EXACT: i64 = 1 << 53;

/// sacreBLEU's `CHRF._compute_f_score` on one row of statistics (`row.len()` is
/// [`ChrfOptions::row_len`]; counts from 0 to 2**53, see [`score_rows`] for a checked form).
///
/// The corpus score is this function on the element-wise sum of the segment rows.
pub fn f_score(row: &[i64], p: &ChrfOptions) -> f64 {
    compute(
        row.chunks_exact(3)
            .map(|t| (t[0] as f64, t[1] as f64, t[2] as f64)),
        p,
    )
}

/// Scores of every row of a statistics matrix (rows of [`ChrfOptions::row_len`] values).
pub fn score_rows(stats: &[i64], p: &ChrfOptions) -> Result<Vec<f64>, CoreError> {
    let mut out = zeroed(check_shape(stats.len(), p)?, 1)?;
    if let Some(v) = stats.iter().find(|&&v| !(0..=MAX_EXACT).contains(&v)) {
        return Err(CoreError::InvalidInput(format!(
            "statistics must be counts from 0 to 2**53, got {v}"
        )));
    }
    for (row, o) in stats.chunks_exact(p.row_len()).zip(out.iter_mut()) {
        *o = f_score(row, p);
    }
    Ok(out)
}

/// A score as sacreBLEU computes it from float32 statistics: its value (a float32 widened
/// exactly, or a double) and whether it is a `np.float32` rather than a Python float.
///
/// The type matters downstream: `np.array([...scores])` is a float32 array only if every score
/// is a `np.float32`. In the default mode the result is a Python float exactly when it is
/// `0.0` (`return 0.0`); with `eps_smoothing` it is a Python float when no order produced a
/// float32 term (e.g. all counts zero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F32Score {
    /// The score.
    pub value: f64,
    /// Whether sacreBLEU returns it as a `np.float32`.
    pub is_float32: bool,
}

/// `CHRF._compute_f_score` on a row of **float32** statistics under NumPy >= 2, as
/// `_bootstrap_resample` and `_paired_bs_test` call it (`_s.sum(0)` of float32 rows).
///
/// The caller sums resamples exactly in int64 and casts to float32: NumPy's float32 sums are
/// exact, whatever their order, as long as every sum is at most 2**24.
pub fn f_score_f32(row: &[f32], p: &ChrfOptions) -> F32Score {
    let r = compute(
        row.chunks_exact(3)
            .map(|t| (Np::F32(t[0]), Np::F32(t[1]), Np::F32(t[2]))),
        p,
    );
    F32Score {
        value: r.value(),
        is_float32: matches!(r, Np::F32(_)),
    }
}

/// [`f_score_f32`] of every row (rows of [`ChrfOptions::row_len`] values), and whether every
/// score is a `np.float32` (then sacreBLEU's `np.array` of them is a float32 array).
pub fn score_rows_f32(stats: &[f32], p: &ChrfOptions) -> Result<(Vec<f64>, bool), CoreError> {
    let mut out = zeroed(check_shape(stats.len(), p)?, 1)?;
    if let Some(v) = stats.iter().find(|v| !(v.is_finite() && **v >= 0.0)) {
        return Err(CoreError::InvalidInput(format!(
            "statistics must be non-negative finite counts, got {v}"
        )));
    }
    let mut all_f32 = true;
    for (row, o) in stats.chunks_exact(p.row_len()).zip(out.iter_mut()) {
        let s = f_score_f32(row, p);
        *o = s.value;
        all_f32 &= s.is_float32;
    }
    Ok((out, all_f32))
}

/// The number of rows in `values` statistics, which must be a whole number of rows.
fn check_shape(values: usize, p: &ChrfOptions) -> Result<usize, CoreError> {
    if !values.is_multiple_of(p.row_len()) {
        return Err(CoreError::InvalidInput(format!(
            "statistics hold {values} values, not a whole number of rows of {}",
            p.row_len()
        )));
    }
    Ok(values / p.row_len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(c: i64, w: i64, eps: bool) -> ChrfOptions {
        ChrfOptions::new(c, w, 4.0, false, eps, false).unwrap()
    }

    #[test]
    fn empty_segment_scores() {
        // sacreBLEU 2.6.0: CHRF(eps_smoothing=...).sentence_score('', ['']).score
        let row = [0i64; 18];
        assert_eq!(f_score(&row, &params(6, 0, true)), 1.0000000000000002e-14);
        assert_eq!(f_score(&row, &params(6, 0, false)), 0.0);
        let s = f_score_f32(&[0f32; 18], &params(6, 0, true));
        assert_eq!(s.value, 1.0000000000000002e-14);
        assert!(!s.is_float32);
    }

    #[test]
    fn missing_hypothesis_order_contributes_zero_with_eps() {
        // n_hyp = 0 < n_ref: denom = factor * eps > 0 and rec = 0, so the term is 0, not eps.
        let row = [0, 5, 0];
        assert_eq!(f_score(&row, &params(1, 0, true)), 0.0);
    }

    #[test]
    fn perfect_match() {
        let row = [4, 4, 4, 3, 3, 3];
        assert_eq!(f_score(&row, &params(2, 0, false)), 100.0);
        let s = f_score_f32(&[4.0, 4.0, 4.0, 3.0, 3.0, 3.0], &params(2, 0, false));
        assert_eq!((s.value, s.is_float32), (100.0, true));
    }

    #[test]
    fn checked_rows() {
        let p = params(1, 0, false);
        let out = score_rows(&[2, 2, 1, 3, 3, 3], &p).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[1], 100.0);
        assert!(score_rows(&[2, 2, 1, 3, 3], &p).is_err());
        assert!(score_rows(&[2, 2, -1, 3, 3, 3], &p).is_err());
        assert!(score_rows_f32(&[2.0, 2.0, f32::NAN, 3.0, 3.0, 3.0], &p).is_err());
        assert!(
            score_rows_f32(&[2.0, 2.0, 1.0, 3.0, 3.0, 3.0], &p)
                .unwrap()
                .1
        );
    }
}
