//! ROUGE through the generic glue: its [`PyMetric`] and the shared methods of
//! `_core.RougeOptions` (statistics of text with the default tokenizer, sentence scores, the
//! command's chunks, scores of rows, pairwise matrices), on its float totals: `(count, sums)`,
//! the items' precision, recall and F-measure of each rouge type added item after item (the
//! in-order mean of the items' scores).
//!
//! Float32 row scores are not ROUGE's: its corpus value is not a function of summed rows.

use crate::metric::{metric_methods, PyMetric};
use crate::rouge::options::PyRougeOptions;
use crate::rouge::totals;
use pyo3::prelude::*;
use rapidbleu_core::metric::Metric;
use rapidbleu_core::rouge::metric::RougeTotals;
use rapidbleu_core::rouge::RougeOptions;

impl PyMetric for RougeOptions {
    type Options = PyRougeOptions;
    const CLASS: &'static str = "RougeOptions";
    const SEGMENTS: &'static str = "items";

    fn of(options: &PyRougeOptions) -> Self {
        options.inner
    }

    /// The core's tokenizer lowercases as Python's `str.lower()` does (see
    /// `rapidbleu_core::rouge::tokenize`), so the glue never does.
    fn lowercase(&self) -> bool {
        false
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but {} rouge types need {}",
            self.types().len(),
            self.row_len()
        )
    }

    /// `(count, sums)`: a float64 array of `3 x types` sums.
    fn totals_into_py<'py>(&self, py: Python<'py>, t: RougeTotals) -> PyResult<Bound<'py, PyAny>> {
        totals::into_py(py, t)
    }

    fn totals_from_py(&self, t: &Bound<'_, PyAny>) -> PyResult<RougeTotals> {
        let zero = self.zero_totals();
        totals::from_py(t, zero, "ROUGE", self.types().len(), "rouge types")
    }
}

metric_methods!(PyRougeOptions => RougeOptions);
