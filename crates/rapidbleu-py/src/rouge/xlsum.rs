//! XL-Sum's multilingual ROUGE read in the core (`rapidbleu_core::rouge::dialects::xlsum`) on
//! `_core.RougeOptions`: the rows of the items the core tokenizes as the package does, and
//! which items it leaves to the package's own tokenizers in Python.

use super::items::{item_strings, item_text};
use super::jieba::PyJiebaDict;
use crate::arrays::to_2d;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::metric::PyMetric;
use crate::rouge::options::PyRougeOptions;
use numpy::PyArray2;
use pyo3::prelude::*;
use rapidbleu_core::rouge::dialects::xlsum::{self, Reading};
use rapidbleu_core::rouge::RougeOptions;

#[pymethods]
impl PyRougeOptions {
    /// `(rows, unread)`: statistics rows `(n, 3 x types)` of `predictions[i]` against its one
    /// target `targets[i][0]`, tokenized as `multilingual-rouge`'s scorer does for a language
    /// without a tokenizer of its own (`porter`: its Porter stemmer) or, given `jieba`, for
    /// Chinese; and the indices of the items the core cannot read (rows of zeros, for the
    /// caller to fill).
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
            let (preds, tgts) = item_strings(predictions, targets)?;
            let (pred_text, tgt_text) = item_text(&preds, &tgts)?;
            let mut items = Vec::with_capacity(pred_text.len());
            for (i, (p, t)) in pred_text.iter().zip(&tgt_text).enumerate() {
                let [t] = t.as_slice() else {
                    return Err(ErrorKind::InvalidOption.err(
                        py,
                        format!(
                            "targets[{i}] has {} targets; XL-Sum's score takes one",
                            t.len()
                        ),
                    ));
                };
                items.push((p.as_ref(), t.as_ref()));
            }
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
