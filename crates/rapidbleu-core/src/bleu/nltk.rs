//! NLTK's sentence BLEU (`nltk.translate.bleu_score.sentence_bleu`, nltk 3.10.4) from a
//! statistics row, float operations in NLTK's order, for the batched path.
//!
//! NLTK keeps precisions as `Fraction`s and converts them with `float()` only inside
//! `math.log`; a `Fraction`'s float is the correctly rounded quotient, which is what `f64`
//! division of two exactly representable integers gives. The sum is `math.fsum` ([`fsum`]),
//! `math.log`/`math.exp` are the C library's, as Rust's `ln`/`exp`. Smoothing methods 0-4 are
//! here; 5-7 (which need other n-gram orders or counts of the raw hypothesis) stay in Python.
//!
//! **Where Python and IEEE arithmetic part.** Python raises where IEEE floats go on quietly:
//! `1 / 0.0` is a `ZeroDivisionError`, `math.exp` of a large finite value an `OverflowError`,
//! `math.fsum` raises on an intermediate overflow or on `inf + -inf`, and converting a huge
//! `int` to a float raises. Rather than imitate each of these, a row whose computation meets a
//! non-finite value or a division by zero anywhere is *not scored here*: it is reported back
//! ([`Scored::Python`]) and the caller runs NLTK's own Python code on it, which gives NLTK's
//! value or raises NLTK's exception. Every row scored here only ever saw finite values, where
//! the two arithmetics agree bit for bit.

use crate::bleu::layout::{Row, RowLayout};
use crate::engine::parallel::{for_each_row, Threads};
use crate::error::{zeroed, CoreError};

/// The smoothing of `SmoothingFunction` and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NltkParams {
    /// `method0` .. `method4`.
    pub method: u8,
    /// `SmoothingFunction.epsilon` (method 1).
    pub epsilon: f64,
    /// `SmoothingFunction.k` (method 4).
    pub k: f64,
    /// `auto_reweigh`.
    pub auto_reweigh: bool,
}

impl NltkParams {
    /// Checks the method number.
    pub fn new(method: u8, epsilon: f64, k: f64, auto_reweigh: bool) -> Result<Self, CoreError> {
        if method > 4 {
            return Err(CoreError::InvalidOption(format!(
                "the batched NLTK scorer handles method0..method4, got method{method}"
            )));
        }
        Ok(NltkParams {
            method,
            epsilon,
            k,
            auto_reweigh,
        })
    }
}

/// `math.fsum`: the correctly rounded sum of finite values (CPython's `math_fsum`, Shewchuk's
/// partials and the half-way correction of its final step); `None` where CPython's differs
/// from these steps: a value that is not finite, or an intermediate overflow (which CPython
/// raises as `OverflowError`).
pub fn fsum(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut partials: Vec<f64> = Vec::with_capacity(8);
    for mut x in values {
        if !x.is_finite() {
            return None;
        }
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        if !x.is_finite() {
            // CPython: "intermediate overflow in fsum".
            return None;
        }
        partials.truncate(i);
        partials.push(x);
    }
    let mut n = partials.len();
    if n == 0 {
        return Some(0.0);
    }
    n -= 1;
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        let yr = hi - x;
        lo = y - yr;
        if lo != 0.0 {
            break;
        }
    }
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        let yr = x - hi;
        if y == yr {
            hi = x;
        }
    }
    Some(hi)
}

/// How a row was scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scored {
    /// Here, with finite values throughout (equal to NLTK's).
    Here,
    /// Not here: a value was not finite or a division was by zero, where Python raises or
    /// treats specials its own way; the caller runs NLTK's Python code on the row.
    Python,
}

/// The smoothed precisions of one row (`SmoothingFunction.methodK` applied to
/// `[Fraction(correct_n, max(1, total_n))]`), as the floats `math.log` would see; `0.0`
/// stands for a precision that is exactly zero (filtered out by `if p_i > 0`). `None` when a
/// value is not finite or a division is by zero (see the module documentation).
fn precisions(row: Row<'_, i64>, p: &NltkParams, out: &mut Vec<f64>) -> Option<()> {
    out.clear();
    let Row {
        hyp_len,
        correct,
        total,
        ..
    } = row;
    let mut incvnt = 1i32;
    for i in 0..correct.len() {
        let num = correct[i] as f64;
        // modified_precision: denominator = max(1, sum(counts.values())).
        let den = total[i].max(1) as f64;
        let zero = correct[i] == 0;
        let v = match p.method {
            // method0: sys.float_info.min for a zero numerator (a tiny non-zero score).
            0 if zero => f64::MIN_POSITIVE,
            // method1: (p_i.numerator + self.epsilon) / p_i.denominator.
            1 if zero => (num + p.epsilon) / den,
            // method2: Fraction(numerator + 1, denominator + 1), unigrams untouched.
            2 if i != 0 => (num + 1.0) / (den + 1.0),
            // method3: 1 / (2**incvnt * p_i.denominator), an int division in Python (correctly
            // rounded, however large the int). 2**-incvnt is exact (incvnt <= 1000), so
            // dividing it by the denominator is the same correctly rounded quotient, without
            // the float product overflowing.
            3 if zero => {
                let v = 0.5f64.powi(incvnt) / den;
                incvnt += 1;
                v
            }
            // method4: numerator = 1 / (2**incvnt * self.k / math.log(hyp_len)).
            4 if zero && hyp_len > 1 => {
                let scaled = 2f64.powi(incvnt) * p.k;
                if !scaled.is_finite() {
                    // Python: an int k overflows converting to float; a float k gives inf.
                    return None;
                }
                let d = scaled / (hyp_len as f64).ln();
                if d == 0.0 {
                    // Python: ZeroDivisionError (k = 0, or a k so small the quotient is 0).
                    return None;
                }
                incvnt += 1;
                (1.0 / d) / den
            }
            _ => num / den,
        };
        if !v.is_finite() {
            return None;
        }
        out.push(v);
    }
    Some(())
}

/// NLTK's `sentence_bleu` of one statistics row (its order is NLTK's `max_weight_length`) for
/// each weight vector of `weights` (`is_default[j]`: weight `j` equals `(0.25, 0.25, 0.25,
/// 0.25)`, for `auto_reweigh`), written into `out` (one score per weight vector), or
/// [`Scored::Python`] (and `out` is NaN) where NLTK's Python code must score the row.
pub fn sentence_bleu(
    row: Row<'_, i64>,
    weights: &[Vec<f64>],
    is_default: &[bool],
    p: &NltkParams,
    scratch: &mut Vec<f64>,
    out: &mut [f64],
) -> Scored {
    let scored = score_weights(row, weights, is_default, p, scratch, out);
    if scored.is_none() {
        out.fill(f64::NAN);
        return Scored::Python;
    }
    Scored::Here
}

fn score_weights(
    row: Row<'_, i64>,
    weights: &[Vec<f64>],
    is_default: &[bool],
    p: &NltkParams,
    scratch: &mut Vec<f64>,
    out: &mut [f64],
) -> Option<()> {
    let (hyp_len, ref_len) = (row.hyp_len, row.ref_len);
    // corpus_bleu: `if p_numerators[1] == 0: return 0`.
    if row.correct[0] == 0 {
        out.fill(0.0);
        return Some(());
    }
    // brevity_penalty(closest_ref_len, hyp_len); hyp_len > 0 here, so bp is in [0, 1].
    let bp = if hyp_len > ref_len {
        1.0
    } else {
        (1.0 - ref_len as f64 / hyp_len as f64).exp()
    };
    precisions(row, p, scratch)?;
    // auto_reweigh: `weight = (1 / hyp_lengths,) * hyp_lengths` (hyp_len is 1..3 here).
    let reweighed = [1.0 / hyp_len as f64; 3];
    for (j, weight) in weights.iter().enumerate() {
        let mut w: &[f64] = weight;
        if p.auto_reweigh && hyp_len < 4 && is_default[j] {
            w = &reweighed[..hyp_len as usize];
        }
        let terms = w
            .iter()
            .zip(scratch.iter())
            .filter(|&(_, &pi)| pi > 0.0)
            .map(|(&wi, &pi)| wi * pi.ln());
        // A non-finite term or sum, or `math.exp` overflowing (OverflowError in Python).
        let e = fsum(terms)?.exp();
        if !e.is_finite() {
            return None;
        }
        out[j] = bp * e;
    }
    Some(())
}

/// NLTK's sentence BLEU of every row: `(scores, rows)` where `scores` has
/// `weights.len()` scores per row, row-major, and `rows` lists (in order) the rows that
/// NLTK's Python code must score ([`Scored::Python`]; their scores are NaN here).
pub type RowScores = (Vec<f64>, Vec<u64>);

/// [`sentence_bleu`] of every row of `stats` (rows of `layout`), `weights.len()` scores per
/// row, row-major.
pub fn sentence_bleu_rows(
    stats: &[i64],
    layout: RowLayout,
    weights: &[Vec<f64>],
    is_default: &[bool],
    p: &NltkParams,
    threads: Threads,
) -> Result<RowScores, CoreError> {
    let n = layout.n_rows(stats.len())?;
    let nw = weights.len();
    if nw == 0 || is_default.len() != nw {
        return Err(CoreError::InvalidInput(
            "statistics and weights do not fit together".to_string(),
        ));
    }
    let mut out = zeroed(n, nw)?;
    let row_len = layout.row_len();
    for_each_row(&mut out, nw, threads, Vec::new, |scratch, i, o| {
        let row = layout.row(&stats[i * row_len..(i + 1) * row_len]);
        // The marker is the NaN itself: `sentence_bleu` writes NaN only for such rows.
        sentence_bleu(row, weights, is_default, p, scratch, o);
    });
    let python = out
        .chunks(nw)
        .enumerate()
        .filter(|(_, o)| o.iter().any(|v| v.is_nan()))
        .map(|(i, _)| i as u64)
        .collect();
    Ok((out, python))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fsum_is_correctly_rounded() {
        assert_eq!(fsum([0.1; 10]), Some(1.0));
        assert_eq!(
            fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
            Some(1e-100)
        );
        assert_eq!(fsum([]), Some(0.0));
        assert_eq!(fsum([1.0, 1e-16, 1e-16]), Some(1.0000000000000002));
        // CPython raises on these (or treats specials apart): not summed here.
        assert_eq!(fsum([1e308, 1e308]), None);
        assert_eq!(fsum([1.0, f64::INFINITY]), None);
        assert_eq!(fsum([f64::NAN]), None);
    }

    #[test]
    fn nltk_values() {
        // Expected: nltk 3.10.4 sentence_bleu on the token lists in the comments.
        let score = |row: &[i64], method: u8| {
            let p = NltkParams::new(method, 0.1, 5.0, false).unwrap();
            let mut out = [0.0];
            let scored = sentence_bleu(
                RowLayout::new(4).unwrap().row(row),
                &[vec![0.25; 4]],
                &[true],
                &p,
                &mut Vec::new(),
                &mut out,
            );
            assert_eq!(scored, Scored::Here);
            out[0]
        };
        // [[1, 2, 3, 4]] vs [1, 2, 3, 4]
        assert_eq!(score(&[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], 0), 1.0);
        // [[1, 2, 3, 5]] vs [1, 2, 3, 4]: method0's tiny non-zero result
        assert_eq!(
            score(&[4, 4, 3, 2, 1, 0, 4, 3, 2, 1], 0),
            8.636168555094496e-78
        );
        // [[1, 2, 3, 5, 6]] vs [1, 2, 3, 4], methods 3 and 4
        let row = [4, 5, 3, 2, 1, 0, 4, 3, 2, 1];
        assert_eq!(score(&row, 3), 0.4630777161991027);
        assert_eq!(score(&row, 4), 0.33602782883534926);
        assert!(NltkParams::new(5, 0.1, 5.0, false).is_err());
    }

    #[test]
    fn non_finite_rows_go_to_python() {
        // [[1, 2, 3, 5, 6]] vs [1, 2, 3, 4]: zero 4-gram matches.
        let row = [4, 5, 3, 2, 1, 0, 4, 3, 2, 1];
        let layout = RowLayout::new(4).unwrap();
        let run = |w: Vec<f64>, method: u8, k: f64| {
            let p = NltkParams::new(method, 0.1, k, false).unwrap();
            let mut out = [0.0];
            let s = sentence_bleu(
                layout.row(&row),
                &[w],
                &[false],
                &p,
                &mut Vec::new(),
                &mut out,
            );
            (s, out[0])
        };
        // k = 0: NLTK's `1 / 0.0` (ZeroDivisionError).
        assert_eq!(run(vec![0.25; 4], 4, 0.0).0, Scored::Python);
        // k = 1e-320: 1 / subnormal is inf in Python, and its log inf.
        assert_eq!(run(vec![0.25; 4], 4, 1e-320).0, Scored::Python);
        // inf * log(1) is NaN; huge weights overflow a term or exp.
        assert_eq!(run(vec![f64::INFINITY, 0.25], 1, 5.0).0, Scored::Python);
        assert_eq!(run(vec![-1e308; 4], 1, 5.0).0, Scored::Python);
        assert_eq!(run(vec![-1000.0; 4], 1, 5.0).0, Scored::Python);
        // Huge but finite all the way (exp underflows to 0, as in nltk).
        assert_eq!(run(vec![1e308, 1e308], 1, 5.0), (Scored::Here, 0.0));
        // Finite everywhere: scored here (nltk 3.10.4 gives the same).
        assert_eq!(
            run(vec![-1.0, -1.0], 1, 5.0),
            (Scored::Here, 1.5576015661428098)
        );
        let (rows, python) = sentence_bleu_rows(
            &[row, [4, 4, 4, 3, 2, 1, 4, 3, 2, 1]].concat(),
            layout,
            &[vec![f64::INFINITY, 0.25]],
            &[false],
            &NltkParams::new(1, 0.1, 5.0, false).unwrap(),
            Threads::new(1).unwrap(),
        )
        .unwrap();
        assert_eq!(python, vec![0, 1]);
        assert!(rows.iter().all(|v| v.is_nan()));
    }
}
