//! BLEU (sacreBLEU's dialect) through the generic glue: its [`PyMetric`] and the shared
//! methods of `_core.BleuOptions`.

use crate::bleu::options::PyBleuOptions;
use crate::corpus::count_tokenized_periods;
use crate::metric::{metric_methods, sums_from_py, sums_into_py, PyMetric};
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::engine::parallel::Threads;

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
    fn statistics_extra(hyps: &[&str], threads: Threads) -> Option<usize> {
        Some(count_tokenized_periods(hyps, threads))
    }

    fn totals_into_py<'py>(&self, py: Python<'py>, t: Vec<i64>) -> PyResult<Bound<'py, PyAny>> {
        sums_into_py(py, t)
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        sums_from_py(totals, self.layout().row_len())
    }
}

metric_methods!(PyBleuOptions => BleuOptions);
