//! TER through the generic glue: its [`PyMetric`] and shared `_core` functions. Text is
//! lowercased with Python's `str.lower()` unless `case_sensitive` (ASCII text in Rust: the
//! same result).

use crate::metric::{metric_functions, PyMetric};
use crate::ter::options::PyTerOptions;
use crate::ter::score::width_error;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use rapidbleu_core::ter::TerParams;

impl PyMetric for TerParams {
    type Options = PyTerOptions;
    const CLASS: &'static str = "TerOptions";
    type Statistics<'py> = (Bound<'py, PyArray2<i64>>, i64);
    type ScoresF32<'py> = (Bound<'py, PyArray1<f64>>, bool);

    fn of(options: &PyTerOptions) -> Self {
        options.params
    }

    fn lowercase(&self) -> bool {
        !self.case_sensitive
    }

    fn width_error(&self, cols: usize) -> String {
        width_error(cols)
    }

    fn statistics<'py>(
        rows: Bound<'py, PyArray2<i64>>,
        num_refs: i64,
        _: &[&str],
    ) -> Self::Statistics<'py> {
        (rows, num_refs)
    }

    fn scores_f32<'py>(scores: Bound<'py, PyArray1<f64>>, all_f32: bool) -> Self::ScoresF32<'py> {
        (scores, all_f32)
    }
}

metric_functions!(TerParams {
    statistics: ter_statistics,
});
