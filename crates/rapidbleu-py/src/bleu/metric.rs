//! BLEU (sacreBLEU's dialect) through the generic glue: its [`PyMetric`] and its shared
//! `_core` functions.

use crate::bleu::options::PyBleuOptions;
use crate::corpus::count_tokenized_periods;
use crate::metric::{metric_functions, PyMetric};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;

impl PyMetric for BleuOptions {
    type Options = PyBleuOptions;
    const CLASS: &'static str = "BleuOptions";
    /// Rows, `num_refs` and the number of hypotheses ending in `" ."` (the metric's hint
    /// about tokenized input).
    type Statistics<'py> = (Bound<'py, PyArray2<i64>>, i64, usize);
    /// BLEU of float32 sums is always a Python float.
    type ScoresF32<'py> = Bound<'py, PyArray1<f64>>;

    fn of(options: &PyBleuOptions) -> Self {
        options.inner
    }

    fn lowercase(&self) -> bool {
        BleuOptions::lowercase(self)
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but max_order {} needs {}",
            self.max_order(),
            self.layout().row_len()
        )
    }

    fn statistics<'py>(
        rows: Bound<'py, PyArray2<i64>>,
        num_refs: i64,
        hyps: &[&str],
    ) -> Self::Statistics<'py> {
        (rows, num_refs, count_tokenized_periods(hyps))
    }

    fn scores_f32<'py>(scores: Bound<'py, PyArray1<f64>>, _: bool) -> Self::ScoresF32<'py> {
        scores
    }
}

metric_functions!(BleuOptions {
    statistics: bleu_statistics,
    sentence_scores: bleu_sentence_scores,
    chunk_statistics: bleu_chunk_statistics,
    chunk_totals: bleu_chunk_totals,
    score_rows: bleu_score_rows,
    score_rows_f32: bleu_score_rows_f32,
    pairwise_matrices: bleu_pairwise_matrices,
});
