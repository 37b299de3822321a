//! The float functions of Python and NumPy that pycocoevalcap's scores go through, computed as
//! those do: C's `pow` (Python's `**` and `np.float64 ** 2`), NumPy's `np.mean` (pairwise
//! summation) and NumPy's `np.log` (a table of its values).

use crate::error::CoreError;
use std::hint::black_box;

/// C's `pow(x, y)` (the libm every process on the machine shares), as Python's `float ** float`
/// and NumPy's `np.float64 ** int` call it.
///
/// Why `black_box`: LLVM rewrites `pow(x, 2.0)` as `x * x` and `pow(x, 0.5)` as `sqrt(x)`, which
/// are correctly rounded where glibc's `pow` is not always (`np.float64(x) ** 2 != x * x` for
/// about 1 in 1,250 random `x`). An exponent LLVM cannot see keeps the call.
#[inline]
pub fn py_pow(x: f64, y: f64) -> f64 {
    x.powf(black_box(y))
}

/// NumPy's `np.mean` of a float64 array: `0.0 + pairwise_sum(values)`, divided by the count
/// (`_methods._mean`: `umr_sum` with the add identity as initial value, then `ret / rcount`).
/// The mean of nothing is NaN (NumPy also warns).
pub fn np_mean(values: &[f64]) -> f64 {
    (0.0 + pairwise_sum(values)) / values.len() as f64
}

/// NumPy's `pairwise_sum` (`DOUBLE_pairwise_sum`, `loops_utils.h.src`): below 8 values a loop
/// from -0.0, up to 128 values eight accumulators combined as `((r0+r1)+(r2+r3)) +
/// ((r4+r5)+(r6+r7))` then the rest in order, above that the two halves (the first a multiple
/// of 8 long) summed recursively.
pub fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(-0.0, |s, &v| s + v)
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for block in a[8..whole].chunks_exact(8) {
            for (acc, &v) in r.iter_mut().zip(block) {
                *acc += v;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &v in &a[whole..] {
            res += v;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum(&a[..n2]) + pairwise_sum(&a[n2..])
    }
}

/// `np.log(k)` for the integers `k = 1..=len`: the logarithms CIDEr-D takes (of document
/// frequencies and of the number of images).
///
/// Why a table: NumPy's `np.log` is its own SIMD code on AVX-512 machines and differs from
/// libm's `log` in the last bit for about 1 integer in 20,000 (9170, 19143, ...), and on other
/// machines it is libm's. The glue fills the table with the values of the NumPy the caller
/// runs (`np.log(np.arange(1, n + 1.0))`), so the scores equal pycocoevalcap's on any machine;
/// [`LogTable::libm`] is for Rust callers without NumPy.
#[derive(Clone, Debug, PartialEq)]
pub struct LogTable {
    values: Vec<f64>,
}

impl LogTable {
    /// The table of given values: `values[k - 1]` is the log of `k`.
    pub fn from_values(values: Vec<f64>) -> Self {
        LogTable { values }
    }

    /// libm's `log(k)` for `k = 1..=len` (equal to `np.log` where NumPy uses libm).
    pub fn libm(len: usize) -> Self {
        LogTable {
            values: (1..=len).map(|k| (k as f64).ln()).collect(),
        }
    }

    /// The largest `k` the table holds.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table holds no value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `np.log(k)` (`k >= 1`).
    #[inline]
    pub fn ln(&self, k: u32) -> f64 {
        // Callers check the table's length against the largest count first (`covers`).
        self.values[k as usize - 1]
    }

    /// An error unless the table holds the logs of `1..=k`.
    pub fn covers(&self, k: usize) -> Result<(), CoreError> {
        if k > self.values.len() {
            return Err(CoreError::InvalidInput(format!(
                "the table of logarithms holds 1..={} but CIDEr-D needs the log of {k}; give \
                 np.log(np.arange(1, n + 1.0)) with n at least the number of images",
                self.values.len()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_sum_is_numpys_order() {
        // Fewer than 8: in order. 8..=128: eight lanes. Larger: halves at a multiple of 8.
        let a = [1e16, 1.0, -1e16, 1.0];
        assert_eq!(pairwise_sum(&a), ((1e16 + 1.0) + -1e16) + 1.0);
        let v: Vec<f64> = (0..9).map(|i| if i == 8 { 1.0 } else { 1e16 }).collect();
        let lanes = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
        assert_eq!(pairwise_sum(&v), lanes + v[8]);
        let w: Vec<f64> = (0..300).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        assert_eq!(
            pairwise_sum(&w),
            pairwise_sum(&w[..144]) + pairwise_sum(&w[144..])
        );
        assert_eq!(np_mean(&[2.0]), 2.0);
        assert!(np_mean(&[]).is_nan());
        assert_eq!(pairwise_sum(&[-0.0]).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn pow_keeps_the_libm_call() {
        // pow(x, 1.0) is x; the square may differ from x * x in the last bit, never more.
        for x in [0.1, 1.7, 12345.678] {
            assert_eq!(py_pow(x, 1.0), x);
            assert!((py_pow(x, 2.0) - x * x).abs() <= (x * x) * f64::EPSILON);
        }
    }

    #[test]
    fn log_table() {
        let t = LogTable::libm(3);
        assert_eq!(t.ln(1), 0.0);
        assert_eq!(t.ln(3), 3f64.ln());
        assert!(t.covers(3).is_ok());
        assert!(t.covers(4).is_err());
    }
}
