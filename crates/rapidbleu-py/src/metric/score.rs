//! Totals and scores for any [`PyMetric`]: running totals of rows, scores of statistics rows
//! (int64, and the float32 rows of the significance tests), pairwise matrices of
//! `(hypotheses, references)` groups, and the scores of bootstrap resamples.

use super::PyMetric;
use crate::arrays::flat;
use crate::engine::parallel::threads;
use crate::errors::{guard, run_detached, ErrorKind};
use crate::groups::group_matrices;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// An error unless an array of statistics rows (`values` in all) has the metric's row width
/// (an array without rows has any).
pub fn check_width<M: PyMetric>(
    py: Python<'_>,
    metric: &M,
    values: usize,
    cols: usize,
) -> PyResult<()> {
    if values > 0 && cols != metric.row_len() {
        return Err(ErrorKind::Input.err(py, metric.width_error(cols)));
    }
    Ok(())
}

/// The sentence score of every row of `rows`, as float64.
pub fn score_rows<'py, M: PyMetric>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    metric: &M,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let (flat, cols) = flat(&rows)?;
        check_width(py, metric, flat.len(), cols)?;
        let out = run_detached(py, || metric.score_rows(&flat))?;
        Ok(out.into_pyarray(py))
    })
}

/// The scores of float32 rows, with whether every one is a `np.float32` if the metric's
/// Python side wants it ([`PyMetric::F32_FLAG`]).
pub fn score_rows_f32<'py, M: PyMetric>(
    py: Python<'py>,
    rows_f32: PyReadonlyArray2<'py, f32>,
    metric: &M,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let (flat, cols) = flat(&rows_f32)?;
        check_width(py, metric, flat.len(), cols)?;
        let (out, all_f32) = run_detached(py, || metric.score_rows_f32(&flat))?;
        let scores = out.into_pyarray(py);
        if M::F32_FLAG {
            Ok((scores, all_f32).into_pyobject(py)?.into_any())
        } else {
            Ok(scores.into_any())
        }
    })
}

/// One `N_g x M_g` float64 matrix of sentence scores per `(hypotheses, references)` group.
pub fn pairwise_matrices<'py, M: PyMetric>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    metric: &M,
    num_threads: i64,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    guard(|| {
        group_matrices(py, groups, metric.lowercase(), num_threads, |h, r, t| {
            metric.pairwise(h, r, t)
        })
    })
}

/// `totals` (`None`: the totals of no segment) after adding `rows` in order.
pub fn accumulate<'py, M: PyMetric>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    totals: Option<&Bound<'py, PyAny>>,
    metric: &M,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let (r, cols) = flat(&rows)?;
        check_width(py, metric, r.len(), cols)?;
        let mut t = match totals {
            Some(t) if !t.is_none() => metric.totals_from_py(t)?,
            _ => metric.zero_totals(),
        };
        run_detached(py, || metric.add_rows(&mut t, &r))?;
        metric.totals_into_py(py, t)
    })
}

/// The corpus score of each bootstrap resample (row `k` of `idxs` picks the segments whose
/// rows are added, in index order).
pub fn bootstrap_scores<'py, M: PyMetric>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, i64>,
    idxs: PyReadonlyArray2<'py, i64>,
    metric: &M,
    num_threads: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (r, cols) = flat(&rows)?;
        check_width(py, metric, r.len(), cols)?;
        let (ix, n) = flat(&idxs)?;
        let segments = r.len() / metric.row_len();
        if n != segments {
            return Err(ErrorKind::Input.err(
                py,
                format!(
                    "the index matrix has {n} columns but there are {segments} {}",
                    M::SEGMENTS
                ),
            ));
        }
        let scores = run_detached(py, || metric.bootstrap_scores(&r, &ix, threads))?;
        Ok(scores.into_pyarray(py))
    })
}
