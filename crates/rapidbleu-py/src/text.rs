//! Glue of `rapidbleu_core::text`: sacreBLEU's tokenizers.

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

/// Adds the tokenizers to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add("TOKENIZERS", TOKENIZER_NAMES.to_vec())?;
    Ok(())
}
