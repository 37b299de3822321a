//! Glue of `rapidbleu_core::ter::score`: the in-order corpus totals of rows and sacreBLEU's
//! float32 bootstrap sums.

use crate::arrays::{flat, to_2d};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::ter::{score, ROW_LEN};

/// The message for TER statistics rows of `cols` columns.
pub fn width_error(cols: usize) -> String {
    format!("TER statistics rows have {ROW_LEN} columns, got {cols}")
}

/// Rows of TER's width, or an `InputError` naming the width found.
fn rows_of<'a>(rows: &'a PyReadonlyArray2<'_, i64>) -> PyResult<std::borrow::Cow<'a, [i64]>> {
    let (r, cols) = flat(rows)?;
    if cols != ROW_LEN {
        return Err(ErrorKind::Input.err(rows.py(), width_error(cols)));
    }
    Ok(r)
}

/// `(edits, ref_length)` after adding `rows` in order to the running totals `edits` and
/// `ref_length` (sacreBLEU's `sum_of_lists`: the float terms summed sequentially).
#[pyfunction]
#[pyo3(signature = (rows, edits = 0, ref_length = 0.0))]
fn ter_accumulate(
    py: Python<'_>,
    rows: PyReadonlyArray2<'_, i64>,
    edits: i64,
    ref_length: f64,
) -> PyResult<(i64, f64)> {
    guard(|| {
        let r = rows_of(&rows)?;
        run_detached(py, || score::accumulate(&r, edits, ref_length))
    })
}

/// sacreBLEU's float32 bootstrap sums `np.array(stats, 'float32')[idxs[k]].sum(0)` for each
/// resample `k`: an `(n_samples, 2)` float32 array `[edits, ref_length]`.
#[pyfunction]
#[pyo3(signature = (rows, idxs, num_threads = 0))]
fn ter_bootstrap_sums_f32<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    idxs: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let r = rows_of(&rows)?;
        let (ix, cols) = flat(&idxs)?;
        if cols != r.len() / ROW_LEN {
            return Err(ErrorKind::Input.err(
                py,
                format!(
                    "the index matrix has {cols} columns but there are {} segments",
                    r.len() / ROW_LEN
                ),
            ));
        }
        let sums = run_detached(py, || score::bootstrap_sums_f32(&r, &ix, threads))?;
        to_2d(py, sums.into_iter().flatten().collect(), 2)
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_accumulate, m)?)?;
    m.add_function(wrap_pyfunction!(ter_bootstrap_sums_f32, m)?)?;
    Ok(())
}
