//! XL-Sum's multilingual ROUGE read in the core (`rapidbleu_core::rouge::dialects::xlsum`) on
//! `_core.RougeOptions`: the rows of the items the core tokenizes as the package does, and
//! which items it leaves to the package's own tokenizers in Python.

use super::items::check_len;
use super::jieba::PyJiebaDict;
use super::text::strings;
use crate::arrays::to_2d;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::metric::PyMetric;
use crate::rouge::options::PyRougeOptions;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::rouge::dialects::xlsum::{self, Reading};
use rapidbleu_core::rouge::RougeOptions;

#[pymethods]
impl PyRougeOptions {
    /// `(rows, unread)`: statistics rows `(n, 3 x types)` of `predictions[i]` against its one
    /// target `targets[i]` (a `str`: XL-Sum's score takes one), tokenized as
    /// `multilingual-rouge`'s scorer does for a language without a tokenizer of its own
    /// (`porter`: its Porter stemmer) or, given `jieba`, for Chinese; and the indices of the
    /// items the core cannot read (rows of zeros, for the caller to fill).
    #[pyo3(signature = (predictions, targets, porter, num_threads = 0, jieba = None))]
    fn xlsum_statistics<'py>(
        &self,
        py: Python<'py>,
        predictions: &Bound<'py, PyAny>,
        targets: &Bound<'py, PyAny>,
        porter: bool,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
        jieba: Option<PyRef<'py, PyJiebaDict>>,
    ) -> PyResult<(Bound<'py, PyArray2<i64>>, Vec<usize>)> {
        let options = <RougeOptions as PyMetric>::of(self);
        guard(|| {
            let threads = threads(py, num_threads)?;
            let preds = strings(predictions, "predictions")?;
            let tgts = strings(targets, "targets")?;
            check_len(py, "targets", tgts.len(), preds.len())?;
            let pred_text = preds.iter().map(strict).collect::<PyResult<Vec<_>>>()?;
            let tgt_text = tgts.iter().map(strict).collect::<PyResult<Vec<_>>>()?;
            let items: Vec<(&str, &str)> = pred_text.into_iter().zip(tgt_text).collect();
            let opts = &options;
            let jieba = jieba.map(|j| j.jieba.clone());
            let reading = match &jieba {
                Some(j) => Reading::Chinese(j),
                None => Reading::Words { porter },
            };
            let (rows, unread) = run_detached(py, || xlsum::rows(opts, reading, &items, threads))?;
            Ok((to_2d(py, rows, opts.row_len())?, unread))
        })
    }
}

/// The UTF-8 text of `s`, strictly: the package's `_clean_text` removes a lone surrogate
/// (`Cs`), joining its neighbours, where rouge-score's reading (`utf8`'s `?`) would split
/// there; such a text is the package's to tokenize.
fn strict<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    s.to_str().map_err(|_| {
        ErrorKind::InvalidText.err(s.py(), "a text holds a lone surrogate (no UTF-8 form)")
    })
}
