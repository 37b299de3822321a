//! Glue of `rapidbleu_core::chrf::pairwise`: sentence-chrF matrices (MBR's utility matrix).

use crate::arrays::to_2d;
use crate::bleu::pairwise::{borrow_groups, read_groups};
use crate::chrf::options::options_arg;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached};
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
        let threads = threads(py, num_threads)?;
        let owned = read_groups(groups, options.lowercase_ascii())?;
        let (hyps, refs) = borrow_groups(&owned);
        let mats = run_detached(py, || pairwise::matrices(&hyps, &refs, &options, threads))?;
        mats.into_iter()
            .zip(refs.iter())
            .map(|(m, r)| to_2d(py, m, r.len()))
            .collect()
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_pairwise_matrices, m)?)?;
    Ok(())
}
