//! TER through the generic glue: its [`PyMetric`] and shared `_core` functions. Text is
//! lowercased with Python's `str.lower()` unless `case_sensitive` (ASCII text in Rust: the
//! same result).

use crate::metric::{metric_functions, PyMetric};
use crate::ter::options::PyTerOptions;
use crate::ter::score::width_error;
use rapidbleu_core::ter::TerParams;

impl PyMetric for TerParams {
    type Options = PyTerOptions;
    const CLASS: &'static str = "TerOptions";

    fn of(options: &PyTerOptions) -> Self {
        options.params
    }

    fn lowercase(&self) -> bool {
        !self.case_sensitive
    }

    fn width_error(&self, cols: usize) -> String {
        width_error(cols)
    }
}

metric_functions!(TerParams {
    statistics: ter_statistics,
});
