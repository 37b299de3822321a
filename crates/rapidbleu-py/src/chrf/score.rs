//! Glue of `rapidbleu_core::chrf::score`: statistics rows to chrF scores, from int64 rows and
//! from the float32 rows of sacreBLEU's bootstrap.

use crate::arrays::flat;
use crate::chrf::options::options_arg;
use crate::errors::{guard, run_detached, ErrorKind};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::chrf::{score, ChrfOptions};

/// An error unless an array of statistics rows (`values` in all) has `options`' row width (an
/// array without rows has any).
fn check_width(py: Python<'_>, values: usize, cols: usize, options: &ChrfOptions) -> PyResult<()> {
    let row_len = options.row_len();
    if values > 0 && cols != row_len {
        return Err(ErrorKind::Input.err(
            py,
            format!(
                "statistics rows have {cols} columns but char_order {} and word_order {} need \
                 {row_len}",
                options.char_order(),
                options.word_order()
            ),
        ));
    }
    Ok(())
}

/// Sentence chrF of every row of a statistics array (`CHRF._compute_f_score`), as float64.
#[pyfunction]
#[pyo3(signature = (rows, options))]
fn chrf_score_rows<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let (flat, cols) = flat(&rows)?;
        check_width(py, flat.len(), cols, &options)?;
        let out = run_detached(py, || score::score_rows(&flat, &options))?;
        Ok(out.into_pyarray(py))
    })
}

/// Scores of float32 statistics rows as sacreBLEU computes them under NumPy 2, and whether
/// every score is a `np.float32` (then sacreBLEU's array of them is float32).
#[pyfunction]
#[pyo3(signature = (rows_f32, options))]
fn chrf_score_rows_f32<'py>(
    py: Python<'py>,
    rows_f32: PyReadonlyArray2<'py, f32>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
) -> PyResult<(Bound<'py, PyArray1<f64>>, bool)> {
    guard(|| {
        let (flat, cols) = flat(&rows_f32)?;
        check_width(py, flat.len(), cols, &options)?;
        let (out, all_f32) = run_detached(py, || score::score_rows_f32(&flat, &options))?;
        Ok((out.into_pyarray(py), all_f32))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_score_rows, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_score_rows_f32, m)?)?;
    Ok(())
}
