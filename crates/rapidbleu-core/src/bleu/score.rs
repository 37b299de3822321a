//! Statistics to a BLEU score, with sacreBLEU's float operations in sacreBLEU's order
//! (`BLEU.compute_bleu`, sacreBLEU 2.6.0).

use crate::error::CoreError;

/// sacreBLEU's smoothing methods (`BLEU.SMOOTH_DEFAULTS`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smooth {
    /// No smoothing: a zero-match order gives precision 0 and score 0.
    None,
    /// `floor`: a zero-match order gets `100 * value / total` (default value 0.1).
    Floor(f64),
    /// `add-k`: adds `k` to correct and total of orders 2..N (default 1).
    AddK(f64),
    /// `exp` (NIST mteval-v13a): the k-th zero-match order gets `100 / (2^k * total)`.
    Exp,
}

/// The names accepted by [`Smooth::from_name`].
pub const SMOOTH_NAMES: [&str; 4] = ["none", "floor", "add-k", "exp"];

impl Smooth {
    /// Builds a method from its name and optional value (`None`: sacreBLEU's default).
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Self, CoreError> {
        if let Some(v) = value {
            if !v.is_finite() || v < 0.0 {
                return Err(CoreError::InvalidOption(format!(
                    "smooth_value must be a finite number >= 0, got {v}"
                )));
            }
        }
        Ok(match name {
            "none" => Smooth::None,
            "floor" => Smooth::Floor(value.unwrap_or(0.1)),
            "add-k" => Smooth::AddK(value.unwrap_or(1.0)),
            "exp" => Smooth::Exp,
            _ => {
                return Err(CoreError::InvalidOption(format!(
                    "unknown smooth_method {name:?}; allowed: {}",
                    SMOOTH_NAMES.join(", ")
                )))
            }
        })
    }
}

/// How the interpreter's `sum()` adds floats: CPython <= 3.11 adds left to right, 3.12+ uses
/// Neumaier compensation. The score must follow the interpreter sacreBLEU runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Summation {
    /// CPython <= 3.11.
    Plain,
    /// CPython >= 3.12.
    Neumaier,
}

/// Everything that turns statistics into a score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BleuParams {
    /// Smoothing method and value.
    pub smooth: Smooth,
    /// Truncate the geometric mean at the last order with a non-zero total.
    pub effective_order: bool,
    /// Number of orders N.
    pub max_order: usize,
    /// How `sum()` adds the log precisions.
    pub summation: Summation,
}

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

/// `BLEU.compute_bleu`. `correct` and `total` hold at least `max_order` values, none negative
/// (see [`check_counts`]).
pub fn compute_bleu(
    correct: &[i64],
    total: &[i64],
    sys_len: i64,
    ref_len: i64,
    p: &BleuParams,
) -> BleuOutcome {
    let mut precisions = vec![0.0f64; p.max_order];
    let (score, bp, addk_orders) = score_into(correct, total, sys_len, ref_len, p, &mut precisions);
    BleuOutcome {
        score,
        bp,
        precisions,
        addk_orders,
    }
}

/// The score alone, as [`compute_bleu`] computes it, without allocating for the usual orders:
/// the batched sentence paths call this once a segment.
pub fn bleu_score(
    correct: &[i64],
    total: &[i64],
    sys_len: i64,
    ref_len: i64,
    p: &BleuParams,
) -> f64 {
    let mut buf = [0.0f64; 8];
    match buf.get_mut(..p.max_order) {
        Some(precisions) => score_into(correct, total, sys_len, ref_len, p, precisions).0,
        None => compute_bleu(correct, total, sys_len, ref_len, p).score,
    }
}

/// The body of `BLEU.compute_bleu`: fills `precisions` (`max_order` zeros on entry) and returns
/// the score, the brevity penalty and how many orders add-k changed.
fn score_into(
    correct: &[i64],
    total: &[i64],
    sys_len: i64,
    ref_len: i64,
    p: &BleuParams,
    precisions: &mut [f64],
) -> (f64, f64, usize) {
    let n_ord = p.max_order;
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0 {
            (1.0 - ref_len as f64 / sys_len as f64).exp()
        } else {
            0.0
        };
    }
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
        if let Smooth::AddK(k) = p.smooth {
            if n > 1 {
                c += k;
                t += k;
                addk_orders += 1;
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
                    precisions[n - 1] = 100.0 / (smooth_mteval * t);
                }
                Smooth::Floor(v) => precisions[n - 1] = 100.0 * v / t,
                Smooth::None | Smooth::AddK(_) => {}
            }
        } else {
            precisions[n - 1] = 100.0 * c / t;
        }
    }
    let terms = precisions[..eff_order].iter().map(|&x| {
        if x == 0.0 {
            Term::Int(-9_999_999_999)
        } else {
            Term::Float(x.ln())
        }
    });
    let score = bp * (py_sum(terms, p.summation) / eff_order as f64).exp();
    (score, bp, addk_orders)
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

/// Sentence scores of every row of a statistics matrix (`n x (2 + 2N)`).
pub fn score_rows(stats: &[i64], p: &BleuParams, out: &mut [f64]) -> Result<(), CoreError> {
    let row_len = 2 + 2 * p.max_order;
    if stats.len() != out.len() * row_len {
        return Err(CoreError::InvalidInput(format!(
            "statistics hold {} values, expected {} rows of {row_len}",
            stats.len(),
            out.len()
        )));
    }
    check_counts(stats)?;
    for (row, o) in stats.chunks_exact(row_len).zip(out.iter_mut()) {
        let (c, t) = row[2..].split_at(p.max_order);
        *o = bleu_score(c, t, row[0], row[1], p);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(smooth: Smooth, eff: bool) -> BleuParams {
        BleuParams {
            smooth,
            effective_order: eff,
            max_order: 4,
            summation: Summation::Plain,
        }
    }

    #[test]
    fn perfect_match_is_not_exactly_100() {
        let o = compute_bleu(
            &[4, 3, 2, 1],
            &[4, 3, 2, 1],
            4,
            4,
            &params(Smooth::Exp, false),
        );
        assert_eq!(o.score, 100.00000000000004);
    }

    #[test]
    fn missing_order_without_effective_order_scores_zero() {
        let o = compute_bleu(
            &[3, 2, 1, 0],
            &[3, 2, 1, 0],
            3,
            3,
            &params(Smooth::Exp, false),
        );
        assert_eq!(o.score, 0.0);
        let o = compute_bleu(
            &[3, 2, 1, 0],
            &[3, 2, 1, 0],
            3,
            3,
            &params(Smooth::Exp, true),
        );
        assert_eq!(o.score, 100.00000000000004);
    }

    #[test]
    fn addk_gives_missing_orders_precision_100() {
        let o = compute_bleu(
            &[1, 0, 0, 0],
            &[1, 0, 0, 0],
            1,
            1,
            &params(Smooth::AddK(1.0), false),
        );
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
                let p = BleuParams {
                    max_order,
                    ..params(smooth, true)
                };
                let correct: Vec<i64> = (0..max_order as i64).map(|n| (7 - n).max(0)).collect();
                let total: Vec<i64> = (0..max_order as i64).map(|n| 9 - n).collect();
                let full = compute_bleu(&correct, &total, 9, 11, &p).score;
                assert_eq!(
                    bleu_score(&correct, &total, 9, 11, &p).to_bits(),
                    full.to_bits()
                );
            }
        }
    }

    #[test]
    fn bad_smoothing() {
        assert!(Smooth::from_name("expo", None).is_err());
        assert!(Smooth::from_name("floor", Some(-1.0)).is_err());
        assert_eq!(Smooth::from_name("floor", None), Ok(Smooth::Floor(0.1)));
    }
}
