//! METEOR through the generic glue: its [`PyMetric`] and the shared methods of
//! `_core.MeteorOptions` (text split on whitespace), on its float totals: the sentence scores
//! in segment order, whose NumPy mean is the corpus value (evaluate's `meteor`).
//!
//! Float32 row scores are not METEOR's: no oracle computes it from summed rows.

use crate::errors::{type_name, ErrorKind};
use crate::meteor::options::PyMeteorOptions;
use crate::metric::{metric_methods, PyMetric};
use pyo3::prelude::*;
use rapidbleu_core::meteor::MeteorOptions;
use rapidbleu_core::metric::Metric;

impl PyMetric for MeteorOptions {
    type Options = PyMeteorOptions;
    const CLASS: &'static str = "MeteorOptions";

    fn of(options: &PyMeteorOptions) -> Self {
        options.inner
    }

    /// The core lowercases each token as Python's `str.lower()` does
    /// (`rapidbleu_core::meteor::lower`), so the glue never does.
    fn lowercase(&self) -> bool {
        false
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but METEOR's [matches, chunks, hyp_len, \
             ref_len] has {}",
            self.row_len()
        )
    }

    /// The sentence scores, a list of floats.
    fn totals_into_py<'py>(&self, py: Python<'py>, t: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        Ok(t.into_pyobject(py)?.into_any())
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        totals.extract().map_err(|_| {
            ErrorKind::Input.err(
                totals.py(),
                format!(
                    "METEOR totals must be a list of floats (the sentence scores), not {}",
                    type_name(totals)
                ),
            )
        })
    }
}

metric_methods!(PyMeteorOptions => MeteorOptions);
