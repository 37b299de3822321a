//! Glue of `rapidbleu_core::bleu::score`: statistics to BLEU scores.

use crate::arrays::flat;
use crate::bleu::options::options_arg;
use crate::errors::{guard, run_detached, ErrorKind, OrRaise};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::score;

/// An error unless an array of statistics rows (`values` in all) has `options`' row width (an
/// array without rows has any).
pub fn check_width(
    py: Python<'_>,
    values: usize,
    cols: usize,
    options: &BleuOptions,
) -> PyResult<()> {
    let row_len = options.layout().row_len();
    if values > 0 && cols != row_len {
        return Err(ErrorKind::Input.err(
            py,
            format!(
                "statistics rows have {cols} columns but max_order {} needs {row_len}",
                options.max_order()
            ),
        ));
    }
    Ok(())
}

/// `BLEU.compute_bleu` -> `(score, precisions, bp, addk_orders)`.
#[pyfunction]
#[pyo3(signature = (correct, total, sys_len, ref_len, options))]
fn bleu_compute(
    py: Python<'_>,
    correct: Vec<i64>,
    total: Vec<i64>,
    sys_len: i64,
    ref_len: i64,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
) -> PyResult<(f64, Vec<f64>, f64, usize)> {
    guard(|| {
        let row = score::checked_row(&correct, &total, sys_len, ref_len, options.layout());
        let o = score::compute_bleu(row.or_raise(py)?, &options);
        Ok((o.score, o.precisions, o.bp, o.addk_orders))
    })
}

/// Sentence BLEU of every row of a statistics array, as float64.
#[pyfunction]
#[pyo3(signature = (rows, options))]
fn bleu_score_rows<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let (flat, cols) = flat(&rows)?;
        check_width(py, flat.len(), cols, &options)?;
        let out = run_detached(py, || score::score_rows(&flat, &options))?;
        Ok(out.into_pyarray(py))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_compute, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_score_rows, m)?)?;
    Ok(())
}
