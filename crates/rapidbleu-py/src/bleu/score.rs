//! Glue of `rapidbleu_core::bleu::score`: `BLEU.compute_bleu` of separate counts (scores of
//! statistics rows are the generic glue's, `crate::metric`).

use crate::errors::{guard, OrRaise};
use crate::metric::metric_arg;
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::score;

/// `BLEU.compute_bleu` -> `(score, precisions, bp, addk_orders)`.
#[pyfunction]
#[pyo3(signature = (correct, total, sys_len, ref_len, options))]
fn bleu_compute(
    py: Python<'_>,
    correct: Vec<i64>,
    total: Vec<i64>,
    sys_len: i64,
    ref_len: i64,
    #[pyo3(from_py_with = metric_arg::<BleuOptions>)] options: BleuOptions,
) -> PyResult<(f64, Vec<f64>, f64, usize)> {
    guard(|| {
        let row = score::checked_row(&correct, &total, sys_len, ref_len, options.layout());
        let o = score::compute_bleu(row.or_raise(py)?, &options);
        Ok((o.score, o.precisions, o.bp, o.addk_orders))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_compute, m)?)?;
    Ok(())
}
