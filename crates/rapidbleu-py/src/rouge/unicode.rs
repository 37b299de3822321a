//! rapidbleu's Unicode tokenizer for ROUGE (`rapidbleu_core::rouge::dialects::unicode`) on
//! `_core.RougeOptions`: statistics rows of text read by it, and the tokenizer on its own.

use super::items::{item_strings, item_text};
use super::text::utf8;
use crate::arrays::to_2d;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, type_name, ErrorKind};
use crate::metric::PyMetric;
use crate::rouge::options::PyRougeOptions;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::rouge::dialects::unicode;
use rapidbleu_core::rouge::RougeOptions;

#[pymethods]
impl PyRougeOptions {
    /// Statistics rows `(n, 3 x types)` of `predictions[i]` against its targets `targets[i]`
    /// (a list of str, at least one), read by rapidbleu's Unicode tokenizer (`use_stemmer`:
    /// Porter on ASCII tokens), each type's triple from the best target.
    #[pyo3(signature = (predictions, targets, num_threads = 0))]
    fn unicode_statistics<'py>(
        &self,
        py: Python<'py>,
        predictions: &Bound<'py, PyAny>,
        targets: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let options = <RougeOptions as PyMetric>::of(self);
        guard(|| {
            let threads = threads(py, num_threads)?;
            let (preds, tgts) = item_strings(predictions, targets)?;
            let (pred_text, tgt_text) = item_text(&preds, &tgts)?;
            let items: Vec<(&str, Vec<&str>)> = pred_text
                .iter()
                .zip(&tgt_text)
                .map(|(p, t)| (p.as_ref(), t.iter().map(|s| s.as_ref()).collect()))
                .collect();
            let opts = &options;
            let rows = run_detached(py, || unicode::rows(opts, &items, threads))?;
            to_2d(py, rows, opts.row_len())
        })
    }

    /// The tokens of `text` by rapidbleu's Unicode tokenizer (before stemming).
    #[staticmethod]
    fn unicode_tokenize(text: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let s = text.cast::<PyString>().map_err(|_| {
            ErrorKind::InputType.err(
                text.py(),
                format!("text must be a str, not {}", type_name(text)),
            )
        })?;
        Ok(unicode::tokenize(&utf8(s)?))
    }
}
