//! ROUGE through the generic glue: its [`PyMetric`] and the shared methods of
//! `_core.RougeOptions` (statistics of text with the default tokenizer, sentence scores, the
//! command's chunks, scores of rows, pairwise matrices), on its float totals: `(count, sums)`,
//! the items' precision, recall and F-measure of each rouge type added item after item (the
//! in-order mean of the items' scores).
//!
//! Float32 row scores are not ROUGE's: its corpus value is not a function of summed rows.

use crate::errors::{type_name, ErrorKind};
use crate::metric::{metric_methods, PyMetric};
use crate::rouge::options::PyRougeOptions;
use numpy::{IntoPyArray, PyReadonlyArray1};
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
        Ok((t.0, t.1.into_pyarray(py)).into_pyobject(py)?.into_any())
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<RougeTotals> {
        let py = totals.py();
        let (count, sums): (i64, Option<PyReadonlyArray1<'_, f64>>) =
            totals.extract().map_err(|_| {
                ErrorKind::Input.err(
                    py,
                    format!(
                        "ROUGE totals must be (count: int, sums: float64 array or None), not {}",
                        type_name(totals)
                    ),
                )
            })?;
        let mut t = self.zero_totals();
        t.0 = count;
        if let Some(s) = sums {
            let s = s.as_slice()?;
            if s.len() != t.1.len() {
                return Err(ErrorKind::Input.err(
                    py,
                    format!(
                        "sums hold {} values but {} rouge types need {}",
                        s.len(),
                        self.types().len(),
                        t.1.len()
                    ),
                ));
            }
            t.1.copy_from_slice(s);
        }
        Ok(t)
    }
}

metric_methods!(PyRougeOptions => RougeOptions);
