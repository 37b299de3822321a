//! Glue of `rapidbleu_core::bleu::pairwise`: sentence-BLEU matrices, self-BLEU and MBR
//! statistics.

use crate::arrays::to_2d;
use crate::bleu::options::options_arg;
use crate::corpus::{borrow_all, collect, Owned};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::pairwise;
use rapidbleu_core::corpus::Groups;

/// The strings of `groups`, a list of `(hypotheses, references)` pairs of lists of str.
fn read_groups<'py>(
    groups: &Bound<'py, PyList>,
    lowercase: bool,
) -> PyResult<Vec<(Owned<'py>, Owned<'py>)>> {
    let py = groups.py();
    groups
        .iter()
        .enumerate()
        .map(|(g, item)| {
            let (h, r): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract().map_err(|_| {
                ErrorKind::InputType.err(
                    py,
                    format!("groups[{g}] must be a (hypotheses, references) pair of lists of str"),
                )
            })?;
            let hs = collect(&h, &format!("hypotheses[{g}]"), false, lowercase)?;
            let rs = collect(&r, &format!("references[{g}]"), false, lowercase)?;
            Ok((hs, rs))
        })
        .collect()
}

/// The hypotheses and the references of every group, borrowed.
fn borrow_groups<'a>(owned: &'a [(Owned<'_>, Owned<'_>)]) -> (Groups<&'a str>, Groups<&'a str>) {
    let hyps = owned.iter().map(|(h, _)| borrow_all(h)).collect();
    let refs = owned.iter().map(|(_, r)| borrow_all(r)).collect();
    (hyps, refs)
}

/// Sentence-BLEU matrices, one `N_g x M_g` float64 array per `(hypotheses, references)` group.
#[pyfunction]
#[pyo3(signature = (groups, options, num_threads = 0))]
fn bleu_pairwise_matrices<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let owned = read_groups(groups, options.lowercase())?;
        let (hyps, refs) = borrow_groups(&owned);
        let mats = run_detached(py, || pairwise::matrices(&hyps, &refs, &options, threads))?;
        mats.into_iter()
            .zip(refs.iter())
            .map(|(m, r)| to_2d(py, m, r.len()))
            .collect()
    })
}

/// Self-BLEU statistics of `samples` (each against all the others), `n x row_len` int64.
#[pyfunction]
#[pyo3(signature = (samples, options))]
fn bleu_self_statistics<'py>(
    py: Python<'py>,
    samples: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    guard(|| {
        let owned = collect(samples, "samples", false, options.lowercase())?;
        let strs = borrow_all(&owned);
        let rows = run_detached(py, || pairwise::self_stats(&strs, &options))?;
        to_2d(py, rows, options.layout().row_len())
    })
}

/// Linear-time MBR statistics per `(hypotheses, pseudo_references)` group (see
/// `pairwise::aggregate_stats`), one `N_g x row_len` int64 array each.
#[pyfunction]
#[pyo3(signature = (groups, options, num_threads = 0))]
fn bleu_aggregate_statistics<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<Vec<Bound<'py, PyArray2<i64>>>> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let owned = read_groups(groups, options.lowercase())?;
        let (hyps, refs) = borrow_groups(&owned);
        let all = run_detached(py, || {
            pairwise::aggregate_groups(&hyps, &refs, &options, threads)
        })?;
        all.into_iter()
            .map(|rows| to_2d(py, rows, options.layout().row_len()))
            .collect()
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_pairwise_matrices, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_self_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_aggregate_statistics, m)?)?;
    Ok(())
}
