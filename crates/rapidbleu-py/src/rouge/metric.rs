//! ROUGE through the generic glue: its [`PyMetric`] and shared `_core` functions (statistics
//! of text with the default tokenizer, sentence scores, the command's chunks, scores of rows,
//! pairwise matrices), and its own functions on its float totals (the in-order mean of the
//! items' scores): `rouge_accumulate` and `rouge_bootstrap_scores`.
//!
//! The generic column sums (`totals`, `chunk_totals`) and float32 row scores are not ROUGE's:
//! its corpus value is not a function of summed rows.

use crate::arrays::flat;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::metric::score::check_width;
use crate::metric::{metric_arg, metric_functions, PyMetric};
use crate::rouge::options::PyRougeOptions;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::metric::Metric;
use rapidbleu_core::rouge::RougeOptions;

impl PyMetric for RougeOptions {
    type Options = PyRougeOptions;
    const CLASS: &'static str = "RougeOptions";

    fn of(options: &PyRougeOptions) -> Self {
        options.options
    }

    /// The core's tokenizer lowercases as Python's `str.lower()` does (see
    /// `rapidbleu_core::rouge::tokenize`), so the glue never does.
    fn lowercase(&self) -> bool {
        false
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but {} rouge types need {}",
            self.types().len(),
            self.row_len()
        )
    }
}

metric_functions!(RougeOptions {
    statistics: rouge_statistics,
    sentence_scores: rouge_sentence_scores,
    chunk_statistics: rouge_chunk_statistics,
    score_rows: rouge_score_rows,
    pairwise_matrices: rouge_pairwise_matrices,
});

/// `(count, sums)` after adding `rows` in order to the running totals: `count` items and, per
/// rouge type, their precision, recall and F-measure summed item after item (`3 x types`
/// floats; empty before the first rows).
#[pyfunction]
#[pyo3(signature = (rows, options, count = 0, sums = None))]
fn rouge_accumulate<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = metric_arg::<RougeOptions>)] options: RougeOptions,
    count: i64,
    sums: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<(i64, Bound<'py, PyArray1<f64>>)> {
    guard(|| {
        let (r, cols) = flat(&rows)?;
        check_width(py, &options, r.len(), cols)?;
        let mut totals = options.zero_totals();
        totals.0 = count;
        if let Some(s) = sums {
            let s = s.as_slice()?;
            if s.len() != totals.1.len() {
                return Err(ErrorKind::Input.err(
                    py,
                    format!(
                        "sums hold {} values but {} rouge types need {}",
                        s.len(),
                        options.types().len(),
                        totals.1.len()
                    ),
                ));
            }
            totals.1.copy_from_slice(s);
        }
        run_detached(py, || options.add_rows(&mut totals, &r))?;
        Ok((totals.0, totals.1.into_pyarray(py)))
    })
}

/// The corpus score of each bootstrap resample: row `k` of `idxs` (`n_samples x n`) picks
/// the items whose scores are added, in index order, and averaged (the corpus score of the
/// resampled items).
#[pyfunction]
#[pyo3(signature = (rows, idxs, options, num_threads = 0))]
fn rouge_bootstrap_scores<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    idxs: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = metric_arg::<RougeOptions>)] options: RougeOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (r, cols) = flat(&rows)?;
        check_width(py, &options, r.len(), cols)?;
        let (ix, n) = flat(&idxs)?;
        if n != r.len() / options.row_len() {
            return Err(ErrorKind::Input.err(
                py,
                format!(
                    "the index matrix has {n} columns but there are {} items",
                    r.len() / options.row_len()
                ),
            ));
        }
        let scores = run_detached(py, || options.bootstrap_scores(&r, &ix, threads))?;
        Ok(scores.into_pyarray(py))
    })
}

/// Adds ROUGE's template functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_functions(m)?;
    m.add_function(wrap_pyfunction!(rouge_accumulate, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_bootstrap_scores, m)?)?;
    Ok(())
}
