//! Glue of `rapidbleu_core::bleu::pairwise`: self-BLEU and MBR statistics (sentence-BLEU
//! matrices are the generic glue's, `crate::metric`).

use crate::arrays::to_2d;
use crate::bleu::options::PyBleuOptions;
use crate::corpus::{borrow_all, collect};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached};
use crate::groups::{borrow_groups, read_groups};
use crate::metric::PyMetric;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::pairwise;

#[pymethods]
impl PyBleuOptions {
    /// Self-BLEU statistics of `samples` (each against all the others), `n x row_len` int64.
    #[pyo3(signature = (samples))]
    fn self_statistics<'py>(
        &self,
        py: Python<'py>,
        samples: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let options = <BleuOptions as PyMetric>::of(self);
        guard(|| {
            let owned = collect(samples, "samples", false, options.lowercase())?;
            let strs = borrow_all(&owned);
            let rows = run_detached(py, || pairwise::self_stats(&strs, &options))?;
            to_2d(py, rows, options.layout().row_len())
        })
    }
}

#[pymethods]
impl PyBleuOptions {
    /// Linear-time MBR statistics per `(hypotheses, pseudo_references)` group (see
    /// `pairwise::aggregate_stats`), one `N_g x row_len` int64 array each.
    #[pyo3(signature = (groups, num_threads = 0))]
    fn aggregate_statistics<'py>(
        &self,
        py: Python<'py>,
        groups: &Bound<'py, PyList>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Vec<Bound<'py, PyArray2<i64>>>> {
        let options = <BleuOptions as PyMetric>::of(self);
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
}
