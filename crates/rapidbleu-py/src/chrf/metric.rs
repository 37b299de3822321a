//! chrF and chrF++ through the generic glue: their [`PyMetric`] and shared `_core` functions.
//! Non-ASCII text is lowercased by Python's `str.lower()` when the options say `lowercase`.

use crate::chrf::options::PyChrfOptions;
use crate::metric::{metric_functions, PyMetric};
use rapidbleu_core::chrf::ChrfOptions;

impl PyMetric for ChrfOptions {
    type Options = PyChrfOptions;
    const CLASS: &'static str = "ChrfOptions";

    fn of(options: &PyChrfOptions) -> Self {
        options.inner
    }

    fn lowercase(&self) -> bool {
        self.lowercase_ascii()
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but char_order {} and word_order {} need {}",
            self.char_order(),
            self.word_order(),
            self.row_len()
        )
    }
}

metric_functions!(ChrfOptions {
    statistics: chrf_statistics,
    totals: chrf_totals,
    sentence_scores: chrf_sentence_scores,
    chunk_statistics: chrf_chunk_statistics,
    chunk_totals: chrf_chunk_totals,
    score_rows: chrf_score_rows,
    score_rows_f32: chrf_score_rows_f32,
    pairwise_matrices: chrf_pairwise_matrices,
});
