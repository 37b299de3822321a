//! BLEU (sacreBLEU's dialect) through the generic glue: its [`PyMetric`] and its shared
//! `_core` functions.

use crate::bleu::options::PyBleuOptions;
use crate::corpus::count_tokenized_periods;
use crate::metric::{metric_functions, PyMetric};
use rapidbleu_core::bleu::options::BleuOptions;

impl PyMetric for BleuOptions {
    type Options = PyBleuOptions;
    const CLASS: &'static str = "BleuOptions";
    /// BLEU of float32 sums is always a Python float.
    const F32_FLAG: bool = false;

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

    /// The number of hypotheses ending in `" ."` (the metric's hint about tokenized input).
    fn statistics_extra(hyps: &[&str]) -> Option<usize> {
        Some(count_tokenized_periods(hyps))
    }
}

metric_functions!(BleuOptions {
    statistics: bleu_statistics,
    totals: bleu_totals,
    sentence_scores: bleu_sentence_scores,
    chunk_statistics: bleu_chunk_statistics,
    chunk_totals: bleu_chunk_totals,
    score_rows: bleu_score_rows,
    score_rows_f32: bleu_score_rows_f32,
    pairwise_matrices: bleu_pairwise_matrices,
});
