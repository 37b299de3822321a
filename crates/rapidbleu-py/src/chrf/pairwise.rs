//! Glue of `rapidbleu_core::chrf::pairwise`: sentence-chrF matrices (MBR's utility matrix).

use crate::chrf::options::options_arg;
use crate::engine::parallel::int_arg;
use crate::errors::guard;
use crate::groups::group_matrices;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rapidbleu_core::chrf::{pairwise, ChrfOptions};

/// Sentence-chrF matrices, one `N_g x M_g` float64 array per `(hypotheses, references)` group.
#[pyfunction]
#[pyo3(signature = (groups, options, num_threads = 0))]
fn chrf_pairwise_matrices<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    guard(|| {
        group_matrices(
            py,
            groups,
            options.lowercase_ascii(),
            num_threads,
            |h, r, t| pairwise::matrices(h, r, &options, t),
        )
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_pairwise_matrices, m)?)?;
    Ok(())
}
