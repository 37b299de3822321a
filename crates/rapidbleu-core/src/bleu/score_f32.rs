//! BLEU of float32 statistics rows, as sacreBLEU's significance tests score their resampled
//! sums (`np.array(stats, 'float32')[idxs].sum(0)` then `BLEU.compute_bleu`).

use crate::bleu::score::{py_sum, BleuParams, Smooth, Term};
use crate::error::CoreError;

/// `BLEU.compute_bleu` on a row of **float32** statistics under NumPy >= 2 (NEP 50), as
/// sacreBLEU's `_bootstrap_resample` and `_paired_bs_test` call it: `sys_len`/`ref_len` are
/// `int()`ed (so the brevity penalty is float64), but every precision is a NumPy float32
/// operation, because a Python float meeting a `np.float32` is converted to float32 first
/// (`100. * correct[n-1] / total[n-1]` rounds twice in float32). `math.log` then widens each
/// float32 precision to a double.
pub fn compute_bleu_f32(row: &[f32], p: &BleuParams) -> f64 {
    let n_ord = p.max_order;
    let (sys_len, ref_len) = (row[0] as i64, row[1] as i64);
    let (correct, total) = row[2..].split_at(n_ord);
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0 {
            (1.0 - ref_len as f64 / sys_len as f64).exp()
        } else {
            0.0
        };
    }
    if correct.iter().all(|&c| c == 0.0) {
        return 0.0;
    }
    let mut precisions = vec![0.0f32; n_ord];
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n_ord;
    for n in 1..=n_ord {
        let (mut c, mut t) = (correct[n - 1], total[n - 1]);
        if let Smooth::AddK(k) = p.smooth {
            if n > 1 {
                // `correct[n - 1] += smooth_value` on a float32 array element.
                c += k as f32;
                t += k as f32;
            }
        }
        if t == 0.0 {
            break;
        }
        if p.effective_order {
            eff_order = n;
        }
        if c == 0.0 {
            match p.smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0f32 / (smooth_mteval as f32 * t);
                }
                // `100. * smooth_value` is a Python float product, then one float32 division.
                Smooth::Floor(v) => precisions[n - 1] = (100.0 * v) as f32 / t,
                Smooth::None | Smooth::AddK(_) => {}
            }
        } else {
            precisions[n - 1] = 100.0f32 * c / t;
        }
    }
    let terms = precisions[..eff_order].iter().map(|&x| {
        if x == 0.0 {
            Term::Int(-9_999_999_999)
        } else {
            Term::Float(f64::from(x).ln())
        }
    });
    bp * (py_sum(terms, p.summation) / eff_order as f64).exp()
}

/// Scores of every row of float32 statistics (`n x (2 + 2N)`), see [`compute_bleu_f32`].
pub fn score_rows_f32(stats: &[f32], p: &BleuParams, out: &mut [f64]) -> Result<(), CoreError> {
    let row_len = 2 + 2 * p.max_order;
    if stats.len() != out.len() * row_len {
        return Err(CoreError::InvalidInput(format!(
            "statistics hold {} values, expected {} rows of {row_len}",
            stats.len(),
            out.len()
        )));
    }
    if let Some(v) = stats.iter().find(|v| !(v.is_finite() && **v >= 0.0)) {
        return Err(CoreError::InvalidInput(format!(
            "statistics must be non-negative finite counts, got {v}"
        )));
    }
    for (row, o) in stats.chunks_exact(row_len).zip(out.iter_mut()) {
        *o = compute_bleu_f32(row, p);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::score::{compute_bleu, Summation};

    #[test]
    fn f32_scores_equal_f64_where_precisions_are_exact() {
        let p = BleuParams {
            smooth: Smooth::Exp,
            effective_order: false,
            max_order: 4,
            summation: Summation::Plain,
        };
        let row = [4.0f32, 4.0, 4.0, 3.0, 2.0, 1.0, 4.0, 3.0, 2.0, 1.0];
        let exact = compute_bleu(&[4, 3, 2, 1], &[4, 3, 2, 1], 4, 4, &p).score;
        assert_eq!(compute_bleu_f32(&row, &p), exact);
    }
}
