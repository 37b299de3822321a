//! Glue of `rapidbleu_core::ter::tokenizer`: sacreBLEU's `TercomTokenizer` on one line.

use crate::corpus::to_str;
use crate::errors::guard;
use crate::ter::options::{options_arg, PyTerOptions};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// `TercomTokenizer(...)(line)`: exactly sacreBLEU's string. Unless `case_sensitive`, a
/// non-ASCII `line` must already be lowercased with `str.lower()` (the Python class does it;
/// the core lowercases ASCII letters itself).
#[pyfunction]
#[pyo3(signature = (line, options))]
fn ter_tokenize(
    line: &Bound<'_, PyString>,
    #[pyo3(from_py_with = options_arg)] options: PyTerOptions,
) -> PyResult<String> {
    guard(|| {
        let text = to_str(line, "line", 0)?;
        let mut out = String::new();
        options.tokenizer().tokenize(text, &mut out);
        Ok(out)
    })
}

/// Adds the tokenizer to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_tokenize, m)?)?;
    Ok(())
}
