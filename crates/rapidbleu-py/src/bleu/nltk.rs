//! Glue of `rapidbleu_core::bleu::nltk`: NLTK's sentence BLEU of statistics rows
//! (`BleuOptions.nltk_sentence_scores`, a static method: NLTK's options are its own).

use crate::arrays::{flat, to_2d};
use crate::bleu::options::PyBleuOptions;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, OrRaise};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::bleu::layout::RowLayout;
use rapidbleu_core::bleu::nltk::{sentence_bleu_rows, NltkParams};

/// Scores (one column per weight vector) and the rows left to Python.
type Scores<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<u64>>);

#[pymethods]
impl PyBleuOptions {
    #[staticmethod]
    /// NLTK's `sentence_bleu` (smoothing `method0`..`method4`) of every statistics row, one
    /// column per weight vector, and the rows left to NLTK's Python code (a value that is not
    /// finite, or a division by zero, where Python raises or differs; NaN in the scores).
    // The Python signature is the API (eight parameters, unchanged).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (stats, weights, is_default, method, epsilon, k, auto_reweigh, num_threads = 0))]
    fn nltk_sentence_scores<'py>(
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, i64>,
        weights: Vec<Vec<f64>>,
        is_default: Vec<bool>,
        method: u8,
        epsilon: f64,
        k: f64,
        auto_reweigh: bool,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Scores<'py>> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let p = NltkParams::new(method, epsilon, k, auto_reweigh).or_raise(py)?;
            let (rows, cols) = flat(&stats)?;
            let layout = RowLayout::of_row_len(cols).or_raise(py)?;
            let (out, python) = run_detached(py, || {
                sentence_bleu_rows(&rows, layout, &weights, &is_default, &p, threads)
            })?;
            Ok((to_2d(py, out, weights.len())?, python.into_pyarray(py)))
        })
    }
}
