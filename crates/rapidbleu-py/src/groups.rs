//! `(hypotheses, references)` groups from Python, for any metric's pairwise matrices and MBR
//! statistics: read once with the GIL, borrowed while the core runs without it.

use crate::arrays::to_2d;
use crate::corpus::{borrow_all, collect, Owned};
use crate::engine::parallel::threads;
use crate::errors::{run_detached, ErrorKind};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rapidbleu_core::corpus::Groups;
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::CoreError;

/// The strings of `groups`, a list of `(hypotheses, references)` pairs of lists of str.
pub(crate) fn read_groups<'py>(
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
pub(crate) fn borrow_groups<'a>(
    owned: &'a [(Owned<'_>, Owned<'_>)],
) -> (Groups<&'a str>, Groups<&'a str>) {
    let hyps = owned.iter().map(|(h, _)| borrow_all(h)).collect();
    let refs = owned.iter().map(|(_, r)| borrow_all(r)).collect();
    (hyps, refs)
}

/// One `N_g x M_g` float64 matrix per group: `compute` (a metric's core `matrices`) runs with
/// the GIL released on the groups read from `groups`.
pub(crate) fn group_matrices<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    lowercase: bool,
    num_threads: i64,
    compute: impl for<'a> FnOnce(
            &Groups<&'a str>,
            &Groups<&'a str>,
            Threads,
        ) -> Result<Vec<Vec<f64>>, CoreError>
        + Send,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    let threads = threads(py, num_threads)?;
    let owned = read_groups(groups, lowercase)?;
    let (hyps, refs) = borrow_groups(&owned);
    let mats = run_detached(py, || compute(&hyps, &refs, threads))?;
    mats.into_iter()
        .zip(refs.iter())
        .map(|(m, r)| to_2d(py, m, r.len()))
        .collect()
}
