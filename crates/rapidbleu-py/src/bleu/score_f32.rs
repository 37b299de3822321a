//! Glue of `rapidbleu_core::bleu::score_f32`: BLEU of float32 rows (significance tests).

use crate::arrays::flat;
use crate::bleu::options::options_arg;
use crate::bleu::score::check_width;
use crate::errors::{guard, run_detached};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::score_f32;

/// Scores of float32 statistics rows with NumPy 2's float32 precisions.
#[pyfunction]
#[pyo3(signature = (rows_f32, options))]
fn bleu_score_rows_f32<'py>(
    py: Python<'py>,
    rows_f32: PyReadonlyArray2<'py, f32>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let (flat, cols) = flat(&rows_f32)?;
        check_width(py, flat.len(), cols, &options)?;
        let out = run_detached(py, || score_f32::score_rows_f32(&flat, &options))?;
        Ok(out.into_pyarray(py))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_score_rows_f32, m)?)?;
    Ok(())
}
