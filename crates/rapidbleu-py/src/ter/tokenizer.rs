//! Glue of `rapidbleu_core::ter::tokenizer`: sacreBLEU's `TercomTokenizer` on one line.

use crate::corpus::to_str;
use crate::errors::guard;
use crate::metric::PyMetric;
use crate::ter::options::PyTerOptions;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::ter::{TerOptions, TercomTokenizer};

#[pymethods]
impl PyTerOptions {
    /// `TercomTokenizer(...)(line)`: exactly sacreBLEU's string. Unless `case_sensitive`, a
    /// non-ASCII `line` must already be lowercased with `str.lower()` (the Python class does it;
    /// the core lowercases ASCII letters itself).
    #[pyo3(signature = (line))]
    fn tokenize(&self, line: &Bound<'_, PyString>) -> PyResult<String> {
        let options = <TerOptions as PyMetric>::of(self);
        guard(|| {
            let text = to_str(line, "line", 0)?;
            let mut out = String::new();
            TercomTokenizer::new(options).tokenize(text, &mut out);
            Ok(out)
        })
    }
}
