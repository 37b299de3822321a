//! Statistics to a BLEU score, with sacreBLEU's float operations in sacreBLEU's order
//! (`BLEU.compute_bleu`, sacreBLEU 2.6.0).

use crate::bleu::layout::{Row, RowLayout};
use crate::bleu::options::{BleuOptions, Smooth, Summation};
use crate::error::CoreError;

/// A score and what went into it.
#[derive(Clone, Debug, PartialEq)]
pub struct BleuOutcome {
    /// BLEU on sacreBLEU's 0..100 scale.
    pub score: f64,
    /// Brevity penalty.
    pub bp: f64,
    /// Precision of each order, 0..100.
    pub precisions: Vec<f64>,
    /// Number of orders (counted from 2) to whose correct and total counts add-k added k;
    /// sacreBLEU mutates and reports those counts.
    pub addk_orders: usize,
}

/// `utils.my_log`: `-9999999999` (a Python int) for zero, else `math.log`.
#[derive(Clone, Copy)]
pub(crate) enum Term {
    Int(i64),
    Float(f64),
}

/// `sum(terms)` as CPython's `builtin_sum_impl` computes it: an exact integer prefix, then
/// floats (ints met after a float are added as doubles, uncompensated, also on 3.12).
pub(crate) fn py_sum(terms: impl IntoIterator<Item = Term>, mode: Summation) -> f64 {
    let mut terms = terms.into_iter();
    let mut i_result: i64 = 0;
    let first = loop {
        match terms.next() {
            None => return i_result as f64,
            Some(Term::Int(v)) => i_result += v,
            Some(t @ Term::Float(_)) => break t,
        }
    };
    let mut f = i_result as f64 + float_of(first);
    let mut c = 0.0f64;
    for t in terms {
        match t {
            Term::Float(x) => match mode {
                Summation::Plain => f += x,
                Summation::Neumaier => {
                    let s = f + x;
                    if f.abs() >= x.abs() {
                        c += (f - s) + x;
                    } else {
                        c += (x - s) + f;
                    }
                    f = s;
                }
            },
            Term::Int(v) => f += v as f64,
        }
    }
    if mode == Summation::Neumaier && c != 0.0 && c.is_finite() {
        f += c;
    }
    f
}

fn float_of(t: Term) -> f64 {
    match t {
        Term::Int(v) => v as f64,
        Term::Float(x) => x,
    }
}

/// `BLEU.compute_bleu` of one row. Its `correct` and `total` hold at least `max_order` values,
/// none negative (see [`check_counts`]).
pub fn compute_bleu(row: Row<'_, i64>, opts: &BleuOptions) -> BleuOutcome {
    let mut precisions = vec![0.0f64; opts.max_order()];
    let (score, bp, addk_orders) = score_into(row, opts, &mut precisions);
    BleuOutcome {
        score,
        bp,
        precisions,
        addk_orders,
    }
}

/// The score alone, as [`compute_bleu`] computes it, without allocating for the usual orders:
/// the batched sentence paths call this once a segment.
pub fn bleu_score(row: Row<'_, i64>, opts: &BleuOptions) -> f64 {
    let mut buf = [0.0f64; 8];
    match buf.get_mut(..opts.max_order()) {
        Some(precisions) => score_into(row, opts, precisions).0,
        None => compute_bleu(row, opts).score,
    }
}

/// The body of `BLEU.compute_bleu`: fills `precisions` (`max_order` zeros on entry) and returns
/// the score, the brevity penalty and how many orders add-k changed.
fn score_into(row: Row<'_, i64>, opts: &BleuOptions, precisions: &mut [f64]) -> (f64, f64, usize) {
    let Row {
        hyp_len: sys_len,
        ref_len,
        correct,
        total,
    } = row;
    let n_ord = opts.max_order();
    let bp = brevity_penalty(sys_len, ref_len);
    // Early stop if there are no matches (sacreBLEU #141), before add-k touches anything. Like
    // sacreBLEU's `any(correct)` this looks at every value given, even beyond `max_order`.
    if correct.iter().all(|&c| c == 0) {
        return (0.0, bp, 0);
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n_ord;
    let mut addk_orders = 0;
    for n in 1..=n_ord {
        let (mut c, mut t) = (correct[n - 1] as f64, total[n - 1] as f64);
        if let Smooth::AddK(k) = opts.smooth() {
            if n > 1 {
                c += k;
                t += k;
                addk_orders += 1;
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
                    precisions[n - 1] = 100.0 / (smooth_mteval * t);
                }
                Smooth::Floor(v) => precisions[n - 1] = 100.0 * v / t,
                Smooth::None | Smooth::AddK(_) => {}
            }
        } else {
            precisions[n - 1] = 100.0 * c / t;
        }
    }
    let terms = log_terms(&precisions[..eff_order]);
    let score = bp * (py_sum(terms, opts.summation()) / eff_order as f64).exp();
    (score, bp, addk_orders)
}

/// sacreBLEU's brevity penalty: `exp(1 - ref_len / sys_len)` below the reference length (0 for
/// an empty hypothesis), else 1.
#[inline]
pub(crate) fn brevity_penalty(sys_len: i64, ref_len: i64) -> f64 {
    if sys_len >= ref_len {
        1.0
    } else if sys_len > 0 {
        (1.0 - ref_len as f64 / sys_len as f64).exp()
    } else {
        0.0
    }
}

/// `utils.my_log` of each precision: `-9999999999` for zero, else `math.log` of it widened to
/// a double (precisions are float32 in [`crate::bleu::score_f32`]).
pub(crate) fn log_terms<P: Copy + Into<f64>>(precisions: &[P]) -> impl Iterator<Item = Term> + '_ {
    precisions.iter().map(|&x| {
        let x: f64 = x.into();
        if x == 0.0 {
            Term::Int(-9_999_999_999)
        } else {
            Term::Float(x.ln())
        }
    })
}

/// Statistics are counts: a negative one (which sacreBLEU would turn into a math domain error
/// or a NaN) is rejected.
pub fn check_counts(values: &[i64]) -> Result<(), CoreError> {
    match values.iter().find(|&&v| v < 0) {
        Some(v) => Err(CoreError::InvalidInput(format!(
            "statistics must be non-negative counts, got {v}"
        ))),
        None => Ok(()),
    }
}

/// The row of separate lists, as `BLEU.compute_bleu` takes them: `correct` and `total` hold at
/// least `layout`'s N counts each (sacreBLEU indexes them up to N), and no count is negative.
pub fn checked_row<'a>(
    correct: &'a [i64],
    total: &'a [i64],
    hyp_len: i64,
    ref_len: i64,
    layout: RowLayout,
) -> Result<Row<'a, i64>, CoreError> {
    let n = layout.max_order();
    if correct.len() < n || total.len() < n {
        return Err(CoreError::InvalidInput(format!(
            "correct and total need max_ngram_order = {n} values, got {} and {}",
            correct.len(),
            total.len()
        )));
    }
    for part in [correct, total, &[hyp_len, ref_len]] {
        check_counts(part)?;
    }
    Ok(Row {
        hyp_len,
        ref_len,
        correct,
        total,
    })
}

/// Sentence scores of every row of a statistics matrix (`n x (2 + 2N)`, N = `max_order`).
pub fn score_rows(stats: &[i64], opts: &BleuOptions) -> Result<Vec<f64>, CoreError> {
    let layout = opts.layout();
    let n = layout.n_rows(stats.len())?;
    check_counts(stats)?;
    let mut out = crate::error::zeroed(n, 1)?;
    for (row, o) in layout.rows(stats).zip(out.iter_mut()) {
        *o = bleu_score(row, opts);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::layout::RowLayout;
    use crate::text::tokenize::Tokenizer;

    fn options(smooth: Smooth, eff: bool, max_order: i64) -> BleuOptions {
        BleuOptions::new(
            Tokenizer::T13a,
            false,
            max_order,
            smooth,
            eff,
            Summation::Plain,
        )
        .expect("valid options")
    }

    fn score(stats: &[i64], smooth: Smooth, eff: bool) -> BleuOutcome {
        let layout = RowLayout::of_row_len(stats.len()).expect("one row");
        compute_bleu(
            layout.row(stats),
            &options(smooth, eff, layout.max_order() as i64),
        )
    }

    #[test]
    fn perfect_match_is_not_exactly_100() {
        let o = score(&[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], Smooth::Exp, false);
        assert_eq!(o.score, 100.00000000000004);
    }

    #[test]
    fn missing_order_without_effective_order_scores_zero() {
        let row = [3, 3, 3, 2, 1, 0, 3, 2, 1, 0];
        assert_eq!(score(&row, Smooth::Exp, false).score, 0.0);
        assert_eq!(score(&row, Smooth::Exp, true).score, 100.00000000000004);
    }

    #[test]
    fn addk_gives_missing_orders_precision_100() {
        let o = score(&[1, 1, 1, 0, 0, 0, 1, 0, 0, 0], Smooth::AddK(1.0), false);
        assert_eq!(o.precisions, vec![100.0; 4]);
        assert_eq!(o.addk_orders, 3);
    }

    #[test]
    fn score_alone_equals_compute_bleu() {
        for max_order in [1, 4, 8, 9, 12] {
            for smooth in [
                Smooth::None,
                Smooth::Exp,
                Smooth::Floor(0.1),
                Smooth::AddK(1.0),
            ] {
                let opts = options(smooth, true, max_order);
                let correct: Vec<i64> = (0..max_order).map(|n| (7 - n).max(0)).collect();
                let total: Vec<i64> = (0..max_order).map(|n| 9 - n).collect();
                let row = Row {
                    hyp_len: 9,
                    ref_len: 11,
                    correct: &correct,
                    total: &total,
                };
                let full = compute_bleu(row, &opts).score;
                assert_eq!(bleu_score(row, &opts).to_bits(), full.to_bits());
                if total.iter().all(|&t| t >= 0) {
                    let stats = [&[9, 11][..], &correct, &total].concat().repeat(2);
                    assert_eq!(score_rows(&stats, &opts), Ok(vec![full; 2]));
                }
            }
        }
        assert!(score_rows(&[1, 2, 3], &options(Smooth::Exp, false, 4)).is_err());
        assert!(score_rows(&[-1; 10], &options(Smooth::Exp, false, 4)).is_err());
    }
}
