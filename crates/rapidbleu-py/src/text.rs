//! Glue of `rapidbleu_core::text`: sacreBLEU's tokenizers, and its test for tokenized input.

use crate::corpus::to_str;
use crate::errors::{guard, OrRaise};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::text::tokenize::{TokBuf, Tokenizer, TOKENIZER_NAMES};

/// `_core.tokenize(name, line)`: exactly the output of sacreBLEU's tokenizer `name`.
#[pyfunction]
fn tokenize(py: Python<'_>, name: &str, line: &Bound<'_, PyString>) -> PyResult<String> {
    guard(|| {
        let tok = Tokenizer::from_name(name).or_raise(py)?;
        let text = to_str(line, "line", 0)?;
        let mut buf = TokBuf::default();
        Ok(tok.tokenize(text, &mut buf, true).to_string())
    })
}

/// `_core.count_tokenized(hypotheses)`: how many items are a `str` ending in `" ."` (sacreBLEU's
/// test for tokenized input), as `sum(isinstance(h, str) and h.endswith(" .") for h in
/// hypotheses)` counts them, without a Python call per line.
#[pyfunction]
fn count_tokenized(hypotheses: &Bound<'_, PyAny>) -> PyResult<usize> {
    guard(|| {
        let mut n = 0;
        for item in hypotheses.try_iter()? {
            let item = item?;
            let Ok(s) = item.cast::<PyString>() else {
                continue;
            };
            n += usize::from(match s.to_str() {
                Ok(text) => text.ends_with(" ."),
                // Not valid Unicode (a lone surrogate): Python's own `endswith` takes it.
                Err(_) => s.call_method1("endswith", (" .",))?.extract()?,
            });
        }
        Ok(n)
    })
}

/// Adds the tokenizers to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(count_tokenized, m)?)?;
    m.add("TOKENIZERS", TOKENIZER_NAMES.to_vec())?;
    Ok(())
}
