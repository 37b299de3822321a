//! Glue of `rapidbleu_core::bleu::ref_cache`: `_core.BleuReferenceCache`.

use crate::arrays::to_2d;
use crate::corpus::{
    borrow_all, collect_on, collect_streams, count_tokenized_periods, stream_groups,
};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::metric::metric_arg;
use numpy::PyArray2;
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::ref_cache::RefCache;

/// References tokenized once, for scoring many hypothesis sets.
#[pyclass(frozen, module = "rapidbleu._core")]
pub struct BleuReferenceCache {
    inner: RefCache,
    num_refs: i64,
}

#[pymethods]
impl BleuReferenceCache {
    #[new]
    #[pyo3(signature = (refs, options, num_threads = 0))]
    fn new(
        py: Python<'_>,
        refs: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = metric_arg::<BleuOptions>)] options: BleuOptions,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Self> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let streams = collect_streams(refs, None, options.lowercase(), threads)?;
            let (groups, num_refs) = stream_groups(&streams);
            let inner = run_detached(py, || RefCache::new(&groups, options, threads))?;
            Ok(BleuReferenceCache { inner, num_refs })
        })
    }

    /// sacreBLEU's `num_refs` of the cached references (-1: variable).
    #[getter]
    fn num_refs(&self) -> i64 {
        self.num_refs
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Statistics of `hyps` against the cached references, and the `" ."` count.
    #[pyo3(signature = (hyps, num_threads = 0))]
    fn statistics<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<(Bound<'py, PyArray2<i64>>, usize)> {
        let (rows, periods) = self.rows(py, hyps, num_threads)?;
        Ok((
            to_2d(py, rows, self.inner.options().layout().row_len())?,
            periods,
        ))
    }

    /// The corpus statistics of `hyps` against the cached references (their rows summed, as
    /// `bleu_totals` gives them: no row array), and the `" ."` count.
    #[pyo3(signature = (hyps, num_threads = 0))]
    fn totals(
        &self,
        py: Python<'_>,
        hyps: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<(Vec<i64>, usize)> {
        let (rows, periods) = self.rows(py, hyps, num_threads)?;
        let width = self.inner.options().layout().row_len();
        let mut sums = vec![0i64; width];
        for row in rows.chunks_exact(width) {
            for (sum, v) in sums.iter_mut().zip(row) {
                *sum += v;
            }
        }
        Ok((sums, periods))
    }
}

impl BleuReferenceCache {
    /// The rows of `hyps` (one after another) and their `" ."` count.
    fn rows(
        &self,
        py: Python<'_>,
        hyps: &Bound<'_, PyAny>,
        num_threads: i64,
    ) -> PyResult<(Vec<i64>, usize)> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let opts = self.inner.options();
            let owned = collect_on(hyps, "hypotheses", false, opts.lowercase(), threads)?;
            if owned.len() != self.inner.len() {
                return Err(ErrorKind::LengthMismatch.err(
                    py,
                    format!(
                        "{} hypotheses but the cached references have {} segments; they must \
                         be equal",
                        owned.len(),
                        self.inner.len()
                    ),
                ));
            }
            let hyp_strs = borrow_all(&owned);
            let periods = count_tokenized_periods(&hyp_strs, threads);
            let rows = run_detached(py, || self.inner.stats(&hyp_strs, threads))?;
            Ok((rows, periods))
        })
    }
}
