//! chrF and chrF++ through the generic glue: their [`PyMetric`] and the shared methods of
//! `_core.ChrfOptions`.
//! Non-ASCII text is lowercased by Python's `str.lower()` when the options say `lowercase`.

use crate::chrf::options::PyChrfOptions;
use crate::metric::{metric_methods, sums_from_py, sums_into_py, PyMetric};
use pyo3::prelude::*;
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

    fn totals_into_py<'py>(&self, py: Python<'py>, t: Vec<i64>) -> PyResult<Bound<'py, PyAny>> {
        sums_into_py(py, t)
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        sums_from_py(totals, self.row_len())
    }
}

metric_methods!(PyChrfOptions => ChrfOptions);
