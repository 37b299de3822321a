//! The glue, generic over the core's [`Metric`] trait: a metric's options class, how its text
//! is lowercased, what its results carry and how its totals cross ([`PyMetric`]); the helpers
//! every metric shares, written once ([`stats`]: statistics, totals, sentence scores, chunks;
//! [`score`]: running totals, scores of rows, pairwise matrices, resampled scores); and
//! [`metric_methods!`], which gives a metric's options class all of them as methods.
//!
//! Adding a metric to `_core` is one `impl PyMetric` and one `metric_methods!` invocation in
//! its folder, plus its options class.

mod methods;
pub mod score;
pub mod stats;

use crate::errors::{type_name, ErrorKind};
use pyo3::prelude::*;
use pyo3::PyClass;
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::metric::Metric;

/// A core metric as `_core` exposes it.
pub trait PyMetric: Metric + Copy + Send + Sync + 'static {
    /// The `_core` options class that carries the metric's options.
    type Options: PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync;

    /// The class's name, for messages.
    const CLASS: &'static str;

    /// Whether the float32 scores come with whether every one is a `np.float32` (a pair), or
    /// alone (an array).
    const F32_FLAG: bool = true;

    /// The metric of an options object.
    fn of(options: &Self::Options) -> Self;

    /// Whether text is lowercased (non-ASCII text by Python's `str.lower()`, in the glue).
    fn lowercase(&self) -> bool;

    /// The message for statistics rows of `cols` columns, not [`Metric::row_len`].
    fn width_error(&self, cols: usize) -> String;

    /// What the statistics of a corpus of `hyps` carry after the rows and sacreBLEU's
    /// `num_refs`, if anything: what else the metric's Python side needs of the hypotheses.
    fn statistics_extra(_hyps: &[&str], _threads: Threads) -> Option<usize> {
        None
    }

    /// What a segment is called in messages ("segments"; "items" for ROUGE's per-item
    /// scores).
    const SEGMENTS: &'static str = "segments";

    /// The totals as Python sees them (a list of ints for additive rows).
    fn totals_into_py<'py>(
        &self,
        py: Python<'py>,
        totals: Self::Totals,
    ) -> PyResult<Bound<'py, PyAny>>;

    /// Totals from Python (what [`PyMetric::totals_into_py`] gives), checked against the
    /// options.
    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<Self::Totals>;
}

/// [`PyMetric::totals_into_py`] of a metric whose totals are the column sums of its rows.
pub fn sums_into_py<'py>(py: Python<'py>, sums: Vec<i64>) -> PyResult<Bound<'py, PyAny>> {
    Ok(sums.into_pyobject(py)?.into_any())
}

/// [`PyMetric::totals_from_py`] of a metric whose totals are the column sums of its rows: a
/// sequence of `row_len` ints.
pub fn sums_from_py(totals: &Bound<'_, PyAny>, row_len: usize) -> PyResult<Vec<i64>> {
    let py = totals.py();
    let bad = || {
        ErrorKind::Input.err(
            py,
            format!(
                "totals must be a sequence of {row_len} ints (what totals or accumulate gives), \
                 not {}",
                type_name(totals)
            ),
        )
    };
    let sums: Vec<i64> = totals.extract().map_err(|_| bad())?;
    if sums.len() != row_len {
        return Err(bad());
    }
    Ok(sums)
}

/// The metric of an options argument (another object is an `InputTypeError`, not PyO3's bare
/// `TypeError`: read with `from_py_with`).
pub fn metric_arg<M: PyMetric>(obj: &Bound<'_, PyAny>) -> PyResult<M> {
    match obj.cast::<M::Options>() {
        Ok(o) => Ok(M::of(o.get())),
        Err(_) => Err(ErrorKind::InputType.err(
            obj.py(),
            format!(
                "options must be a rapidbleu._core.{}, not {}",
                M::CLASS,
                type_name(obj)
            ),
        )),
    }
}

pub(crate) use methods::metric_methods;
