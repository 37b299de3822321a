//! Glue of `rapidbleu_core::ter::score`: sacreBLEU's float32 bootstrap sums
//! (`TerOptions.bootstrap_sums_f32`); the in-order totals are the generic `accumulate`.

use crate::arrays::{flat, to_2d};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::ter::options::PyTerOptions;
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

#[pymethods]
impl PyTerOptions {
    /// sacreBLEU's float32 bootstrap sums `np.array(stats, 'float32')[idxs[k]].sum(0)` for each
    /// resample `k`: an `(n_samples, 2)` float32 array `[edits, ref_length]`.
    #[pyo3(signature = (rows, idxs, num_threads = 0))]
    fn bootstrap_sums_f32<'py>(
        &self,
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
}
