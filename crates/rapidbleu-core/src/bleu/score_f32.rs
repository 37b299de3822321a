//! BLEU of float32 statistics rows, as sacreBLEU's significance tests score their resampled
//! sums (`np.array(stats, 'float32')[idxs].sum(0)` then `BLEU.compute_bleu`).

use crate::bleu::layout::Row;
use crate::bleu::options::{BleuOptions, Smooth};
use crate::bleu::score::{brevity_penalty, log_terms, py_sum};
use crate::error::CoreError;

/// `BLEU.compute_bleu` on a row of **float32** statistics under NumPy >= 2 (NEP 50), as
/// sacreBLEU's `_bootstrap_resample` and `_paired_bs_test` call it: `sys_len`/`ref_len` are
/// `int()`ed (so the brevity penalty is float64), but every precision is a NumPy float32
/// operation, because a Python float meeting a `np.float32` is converted to float32 first
/// (`100. * correct[n-1] / total[n-1]` rounds twice in float32). `math.log` then widens each
/// float32 precision to a double.
pub fn compute_bleu_f32(row: Row<'_, f32>, opts: &BleuOptions) -> f64 {
    let n_ord = opts.max_order();
    let Row { correct, total, .. } = row;
    let bp = brevity_penalty(row.hyp_len as i64, row.ref_len as i64);
    if correct.iter().all(|&c| c == 0.0) {
        return 0.0;
    }
    let mut precisions = vec![0.0f32; n_ord];
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n_ord;
    for n in 1..=n_ord {
        let (mut c, mut t) = (correct[n - 1], total[n - 1]);
        if let Smooth::AddK(k) = opts.smooth() {
            if n > 1 {
                // `correct[n - 1] += smooth_value` on a float32 array element.
                c += k as f32;
                t += k as f32;
            }
        }
        if t == 0.0 {
            break;
        }
        if opts.effective_order() {
            eff_order = n;
        }
        if c == 0.0 {
            match opts.smooth() {
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
    let terms = log_terms(&precisions[..eff_order]);
    bp * (py_sum(terms, opts.summation()) / eff_order as f64).exp()
}

/// Scores of every row of float32 statistics (`n x (2 + 2N)`), see [`compute_bleu_f32`].
pub fn score_rows_f32(stats: &[f32], opts: &BleuOptions) -> Result<Vec<f64>, CoreError> {
    let layout = opts.layout();
    let n = layout.n_rows(stats.len())?;
    if let Some(v) = stats.iter().find(|v| !(v.is_finite() && **v >= 0.0)) {
        return Err(CoreError::InvalidInput(format!(
            "statistics must be non-negative finite counts, got {v}"
        )));
    }
    let mut out = crate::error::zeroed(n, 1)?;
    for (row, o) in layout.rows(stats).zip(out.iter_mut()) {
        *o = compute_bleu_f32(row, opts);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::layout::RowLayout;
    use crate::bleu::options::Summation;
    use crate::bleu::score::compute_bleu;
    use crate::text::tokenize::Tokenizer;

    #[test]
    fn f32_scores_equal_f64_where_precisions_are_exact() {
        let opts = BleuOptions::new(
            Tokenizer::T13a,
            false,
            4,
            Smooth::Exp,
            false,
            Summation::Plain,
        )
        .expect("valid options");
        let l = RowLayout::new(4).expect("order 4");
        let row = [4.0f32, 4.0, 4.0, 3.0, 2.0, 1.0, 4.0, 3.0, 2.0, 1.0];
        let exact = compute_bleu(l.row(&[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]), &opts).score;
        assert_eq!(compute_bleu_f32(l.row(&row), &opts), exact);
        assert_eq!(score_rows_f32(&row, &opts), Ok(vec![exact]));
        assert!(score_rows_f32(&row[1..], &opts).is_err());
        assert!(score_rows_f32(&[f32::NAN; 10], &opts).is_err());
    }
}
