//! Glue of `rapidbleu_core::ter::tokenizer`: sacreBLEU's `TercomTokenizer` on one line.

use crate::corpus::to_str;
use crate::errors::guard;
use crate::metric::metric_arg;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::ter::{TerParams, TercomTokenizer};

/// `TercomTokenizer(...)(line)`: exactly sacreBLEU's string. Unless `case_sensitive`, a
/// non-ASCII `line` must already be lowercased with `str.lower()` (the Python class does it;
/// the core lowercases ASCII letters itself).
#[pyfunction]
#[pyo3(signature = (line, options))]
fn ter_tokenize(
    line: &Bound<'_, PyString>,
    #[pyo3(from_py_with = metric_arg::<TerParams>)] options: TerParams,
) -> PyResult<String> {
    guard(|| {
        let text = to_str(line, "line", 0)?;
        let mut out = String::new();
        TercomTokenizer::new(options).tokenize(text, &mut out);
        Ok(out)
    })
}

/// Adds the tokenizer to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_tokenize, m)?)?;
    Ok(())
}
