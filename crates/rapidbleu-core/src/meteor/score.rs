//! Scores in NLTK's float order: `single_meteor_score` from a row, the best reference as
//! Python's `max` picks it, and the corpus mean as evaluate's `np.mean` of sentence scores.

use super::layout::{CHUNKS, HYP_LEN, MATCHES, REF_LEN};

/// `single_meteor_score`'s arithmetic on a row `[matches, chunks, hyp_len, ref_len]`, each
/// division that would raise `ZeroDivisionError` giving 0.0 as NLTK's `except` does.
///
/// Python's float `**` and Rust's `powf` are both C's `pow` here (a positive finite base).
/// Where Python raises `OverflowError` (`frag_frac ** beta` too large, only for beta < 0),
/// this gives an infinity.
pub fn sentence_score(row: &[i64], alpha: f64, beta: f64, gamma: f64) -> f64 {
    let (matches, translation_length, reference_length) = (
        row[MATCHES] as f64,
        row[HYP_LEN] as f64,
        row[REF_LEN] as f64,
    );
    if translation_length == 0.0 || reference_length == 0.0 {
        return 0.0;
    }
    let precision = matches / translation_length;
    let recall = matches / reference_length;
    let denominator = alpha * precision + (1.0 - alpha) * recall;
    if denominator == 0.0 {
        return 0.0;
    }
    let fmean = (precision * recall) / denominator;
    if matches == 0.0 {
        return 0.0; // `chunk_count / matches_count`
    }
    let frag_frac = row[CHUNKS] as f64 / matches;
    let penalty = gamma * frag_frac.powf(beta);
    (1.0 - penalty) * fmean
}

/// NumPy's `pairwise_sum` for float64 (`numpy/_core/src/umath/loops_utils.h.src`): fewer
/// than 8 values added in order; up to 128 in 8 interleaved sums combined as a tree; beyond,
/// split in two halves (the first a multiple of 8 long). `np.add.reduce` of a contiguous
/// float64 array is one such call over all values.
fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for (j, rj) in r.iter_mut().enumerate() {
                *rj += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[i..] {
            res += x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum(&a[..n2]) + pairwise_sum(&a[n2..])
    }
}

/// `np.mean(values)` of a list of Python floats (evaluate's `meteor` corpus value): the
/// pairwise sum (added to the reduction's identity, 0.0: all `-0.0` sum to `0.0`) divided by
/// the count; NaN for no value (NumPy warns and returns nan).
pub fn np_mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    (0.0 + pairwise_sum(values)) / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nltk_doctest() {
        // single_meteor_score(reference1, hypothesis1) of NLTK's doctest (12 matches in 6
        // chunks, 18 and 16 words): 0.6944444444444445.
        assert_eq!(
            sentence_score(&[12, 6, 18, 16], 0.9, 3.0, 0.5),
            0.6944444444444445
        );
        assert_eq!(sentence_score(&[0, 0, 3, 4], 0.9, 3.0, 0.5), 0.0);
        assert_eq!(sentence_score(&[0, 0, 0, 4], 0.9, 3.0, 0.5), 0.0);
    }

    #[test]
    fn mean_is_pairwise() {
        // np.mean([0.1] * 10) == 0.1 (pairwise); a serial sum gives 0.09999999999999999.
        assert_eq!(np_mean(&[0.1; 10]), 0.1);
        assert_eq!(np_mean(&[-0.0; 9]).to_bits(), 0.0f64.to_bits());
        assert!(np_mean(&[]).is_nan());
    }
}
