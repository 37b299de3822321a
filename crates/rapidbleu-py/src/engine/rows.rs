//! Glue of `rapidbleu_core::engine::rows`: the resampled sums of the significance tests, for
//! statistics rows of any width. A metric's options class gives them vectorised for its own
//! row widths (`metric_methods!`); the free functions here serve rows of a metric without a
//! core (a general loop, the same sums).

use crate::arrays::{flat, to_2d};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::engine::rows;
use rapidbleu_core::engine::rows::Width;

/// An int64 statistics matrix handed to NumPy.
type Stats2<'py> = Bound<'py, PyArray2<i64>>;

/// `rows[idxs].sum(1)`: bootstrap sums of int64 statistics rows, exact.
#[pyfunction]
#[pyo3(signature = (rows, idxs, num_threads = 0))]
fn bootstrap_sums<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    idxs: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<Stats2<'py>> {
    bootstrap_sums_of(py, rows, idxs, num_threads, &[])
}

/// [`bootstrap_sums`] with vectorised kernels for the row widths `widths`.
pub fn bootstrap_sums_of<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    idxs: PyReadonlyArray2<'py, i64>,
    num_threads: i64,
    widths: &[&[Width]],
) -> PyResult<Stats2<'py>> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (s, row_len) = flat(&rows)?;
        let (ix, n_seg) = flat(&idxs)?;
        if n_seg * row_len != s.len() {
            return Err(ErrorKind::Input.err(
                py,
                format!(
                    "the index matrix has {n_seg} columns but there are {} segments",
                    s.len() / row_len.max(1)
                ),
            ));
        }
        let out = run_detached(py, || {
            rows::bootstrap_sums(&s, row_len, &ix, threads, widths)
        })?;
        to_2d(py, out, row_len)
    })
}

/// Approximate-randomisation sums `(mask @ baseline + ~mask @ system, ~mask @ baseline + mask
/// @ system)`.
#[pyfunction]
#[pyo3(signature = (baseline, system, mask, num_threads = 0))]
fn ar_sums<'py>(
    py: Python<'py>,
    baseline: PyReadonlyArray2<'py, i64>,
    system: PyReadonlyArray2<'py, i64>,
    mask: PyReadonlyArray2<'py, bool>,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<(Stats2<'py>, Stats2<'py>)> {
    ar_sums_of(py, (baseline, system, mask), num_threads, &[])
}

/// The matrices of [`ar_sums`]: `(baseline, system, mask)`.
pub type ArInput<'py> = (
    PyReadonlyArray2<'py, i64>,
    PyReadonlyArray2<'py, i64>,
    PyReadonlyArray2<'py, bool>,
);

/// [`ar_sums`] with vectorised kernels for the row widths `widths`.
pub fn ar_sums_of<'py>(
    py: Python<'py>,
    (baseline, system, mask): ArInput<'py>,
    num_threads: i64,
    widths: &[&[Width]],
) -> PyResult<(Stats2<'py>, Stats2<'py>)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (bl, row_len) = flat(&baseline)?;
        let (sys, _) = flat(&system)?;
        let (m, n_seg) = flat(&mask)?;
        if n_seg * row_len.max(1) != bl.len() {
            return Err(ErrorKind::Input.err(
                py,
                format!(
                    "the mask matrix has {n_seg} columns but there are {} segments",
                    bl.len() / row_len.max(1)
                ),
            ));
        }
        let (a, b) = run_detached(py, || {
            rows::ar_sums(&bl, &sys, row_len, &m, threads, widths)
        })?;
        Ok((to_2d(py, a, row_len)?, to_2d(py, b, row_len)?))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bootstrap_sums, m)?)?;
    m.add_function(wrap_pyfunction!(ar_sums, m)?)?;
    Ok(())
}
