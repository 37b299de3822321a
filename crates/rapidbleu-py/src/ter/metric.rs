//! TER through the generic glue: its [`PyMetric`] and the shared methods of `_core.TerOptions`
//! (its totals: `(num_edits, ref_length)`, the reference lengths summed in segment order). Text is
//! lowercased with Python's `str.lower()` unless `case_sensitive` (ASCII text in Rust: the
//! same result).

use crate::errors::{type_name, ErrorKind};
use crate::metric::{metric_methods, PyMetric};
use crate::ter::options::PyTerOptions;
use crate::ter::score::width_error;
use pyo3::prelude::*;
use rapidbleu_core::ter::TerOptions;

impl PyMetric for TerOptions {
    type Options = PyTerOptions;
    const CLASS: &'static str = "TerOptions";

    fn of(options: &PyTerOptions) -> Self {
        options.inner
    }

    fn lowercase(&self) -> bool {
        !self.case_sensitive
    }

    fn width_error(&self, cols: usize) -> String {
        width_error(cols)
    }

    fn totals_into_py<'py>(&self, py: Python<'py>, t: (i64, f64)) -> PyResult<Bound<'py, PyAny>> {
        Ok(t.into_pyobject(py)?.into_any())
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<(i64, f64)> {
        totals.extract().map_err(|_| {
            ErrorKind::Input.err(
                totals.py(),
                format!(
                    "TER totals must be (num_edits: int, ref_length: float), not {}",
                    type_name(totals)
                ),
            )
        })
    }
}

metric_methods!(PyTerOptions => TerOptions);
