//! rouge-score's scores of a statistics triple `[hits, prediction_count, target_count]`, in
//! its float64 operation order (`_score_ngrams`, `_score_lcs`, `_summary_level_lcs`,
//! `scoring.fmeasure`).

/// `(precision, recall, fmeasure)` of one triple.
///
/// `hits / max(count, 1)` is Python's `int / int` (correctly rounded), as is float64 division
/// of two exactly held integers; the LCS scorers' early `Score(0, 0, 0)` is the same value.
/// `fmeasure` is `2 * precision * recall / (precision + recall)`, left to right.
///
/// Example: `score(1, 2, 4) == (0.5, 0.25, 1.0 / 3.0)`.
pub fn score(hits: i64, prediction_count: i64, target_count: i64) -> (f64, f64, f64) {
    let precision = hits as f64 / prediction_count.max(1) as f64;
    let recall = hits as f64 / target_count.max(1) as f64;
    (precision, recall, fmeasure(precision, recall))
}

/// `scoring.fmeasure`.
pub fn fmeasure(precision: f64, recall: f64) -> f64 {
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_python() {
        assert_eq!(score(1, 2, 4), (0.5, 0.25, 2.0 * 0.5 * 0.25 / 0.75));
        assert_eq!(score(0, 0, 3), (0.0, 0.0, 0.0));
    }
}
