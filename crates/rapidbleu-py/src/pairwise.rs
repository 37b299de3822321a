//! Glue for `rapidbleu_core::{pairwise, resample}`: sentence-BLEU matrices, self-BLEU and MBR
//! statistics, and the resampled sums of the significance tests.

use crate::errors::{rb_err, run_detached};
use crate::extract::{borrow_all, collect, Owned};
use crate::{bleu_params, stats_options};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rapidbleu_core::bleu::pairwise::{self, Bag};
use rapidbleu_core::bleu::score_f32;
use rapidbleu_core::bleu::stats::StatsOptions;
use rapidbleu_core::engine::parallel;
use rapidbleu_core::engine::rows as resample;
use std::borrow::Cow;

/// An int64 statistics matrix handed to NumPy.
type Stats2<'py> = Bound<'py, PyArray2<i64>>;

/// A C-contiguous view of a 2-d array (copied only if it is not contiguous).
fn flat<'a, T: numpy::Element + Copy>(a: &'a PyReadonlyArray2<'_, T>) -> (Cow<'a, [T]>, usize) {
    let view = a.as_array();
    let cols = view.ncols();
    match view.to_slice() {
        Some(s) => (Cow::Borrowed(s), cols),
        None => (Cow::Owned(view.iter().copied().collect()), cols),
    }
}

fn to_2d<'py, T: numpy::Element>(
    py: Python<'py>,
    data: Vec<T>,
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let rows = data.len().checked_div(cols).unwrap_or(0);
    data.into_pyarray(py).reshape([rows, cols])
}

/// `stats[idxs].sum(1)`: bootstrap sums of int64 statistics rows, exact.
#[pyfunction]
#[pyo3(signature = (stats, idxs, num_threads = 0))]
fn bootstrap_sums<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    idxs: PyReadonlyArray2<'py, i64>,
    num_threads: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let (s, row_len) = flat(&stats);
    let (ix, n_seg) = flat(&idxs);
    if n_seg * row_len != s.len() {
        return Err(rb_err(
            py,
            "InputError",
            format!(
                "the index matrix has {n_seg} columns but there are {} segments",
                s.len() / row_len.max(1)
            ),
        ));
    }
    let out = run_detached(py, || {
        resample::bootstrap_sums(&s, row_len, &ix, num_threads)
    })?;
    to_2d(py, out, row_len)
}

/// Approximate-randomisation sums `(pos @ baseline + neg @ system, neg @ baseline + pos @ system)`.
#[pyfunction]
#[pyo3(signature = (baseline, system, mask, num_threads = 0))]
fn ar_sums<'py>(
    py: Python<'py>,
    baseline: PyReadonlyArray2<'py, i64>,
    system: PyReadonlyArray2<'py, i64>,
    mask: PyReadonlyArray2<'py, bool>,
    num_threads: usize,
) -> PyResult<(Stats2<'py>, Stats2<'py>)> {
    let (bl, row_len) = flat(&baseline);
    let (sys, _) = flat(&system);
    let (m, n_seg) = flat(&mask);
    if n_seg * row_len.max(1) != bl.len() {
        return Err(rb_err(
            py,
            "InputError",
            format!(
                "the mask matrix has {n_seg} columns but there are {} segments",
                bl.len() / row_len.max(1)
            ),
        ));
    }
    let (a, b) = run_detached(py, || {
        resample::ar_sums(&bl, &sys, row_len, &m, num_threads)
    })?;
    Ok((to_2d(py, a, row_len)?, to_2d(py, b, row_len)?))
}

/// Scores of float32 statistics rows with NumPy 2's float32 precisions (`compute_bleu_f32`).
#[pyfunction]
#[pyo3(signature = (stats, smooth_method, smooth_value, effective_order, max_order, neumaier))]
fn score_rows_f32<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f32>,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    max_order: usize,
    neumaier: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let p = bleu_params(
        py,
        smooth_method,
        smooth_value,
        effective_order,
        max_order,
        neumaier,
    )?;
    let (s, cols) = flat(&stats);
    let n = s.len().checked_div(cols).unwrap_or(0);
    let out = run_detached(py, || {
        let mut out = vec![0f64; n];
        score_f32::score_rows_f32(&s, &p, &mut out).map(|()| out)
    })?;
    Ok(out.into_pyarray(py))
}

/// The sentences of a group (a list of str), collected for borrowing.
fn texts<'py>(seq: &Bound<'py, PyAny>, what: &str, lowercase: bool) -> PyResult<Owned<'py>> {
    collect(seq, what, false, lowercase)
}

/// `groups` is a list of `(hypotheses, references)` pairs; returns their bags, built in
/// parallel over groups with the GIL released.
fn group_bags(
    py: Python<'_>,
    groups: &Bound<'_, PyList>,
    opts: &StatsOptions,
    num_threads: usize,
) -> PyResult<Vec<(Vec<Bag>, Vec<Bag>)>> {
    let mut owned = Vec::with_capacity(groups.len());
    for (g, item) in groups.iter().enumerate() {
        let (h, r): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract().map_err(|_| {
            rb_err(
                py,
                "InputTypeError",
                format!("groups[{g}] must be a (hypotheses, references) pair of lists of str"),
            )
        })?;
        let hs = texts(&h, &format!("hypotheses[{g}]"), opts.lowercase_ascii)?;
        let rs = texts(&r, &format!("references[{g}]"), opts.lowercase_ascii)?;
        owned.push((hs, rs));
    }
    let borrowed: Vec<(Vec<&str>, Vec<&str>)> = owned
        .iter()
        .map(|(h, r)| (borrow_all(h), borrow_all(r)))
        .collect();
    run_detached(py, || {
        Ok(parallel::map_collect(
            borrowed.len(),
            num_threads,
            || (),
            |_, g| {
                let (h, r) = &borrowed[g];
                // One id table per group: its hypotheses and references share it.
                let all: Vec<&str> = h.iter().chain(r.iter()).copied().collect();
                let mut bags = pairwise::bags(&all, opts);
                let refs = bags.split_off(h.len());
                (bags, refs)
            },
        ))
    })
}

/// Sentence-BLEU matrices, one `N_g x M_g` float64 array per `(hypotheses, references)` group.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (groups, tokenizer, lowercase, max_order, num_threads, smooth_method, smooth_value, effective_order, neumaier))]
fn pairwise_matrices<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    num_threads: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    neumaier: bool,
) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
    let opts = stats_options(py, tokenizer, lowercase, max_order)?;
    let p = bleu_params(
        py,
        smooth_method,
        smooth_value,
        effective_order,
        max_order,
        neumaier,
    )?;
    let bags = group_bags(py, groups, &opts, num_threads)?;
    // A single group parallelises over its rows; many groups over the groups.
    let inner = if bags.len() == 1 { num_threads } else { 1 };
    let mats = run_detached(py, || {
        let out = parallel::map_collect(
            bags.len(),
            num_threads,
            || (),
            |_, g| pairwise::matrix(&bags[g].0, &bags[g].1, &p, inner),
        );
        out.into_iter().collect::<Result<Vec<_>, _>>()
    })?;
    mats.into_iter()
        .zip(&bags)
        .map(|(m, (_, r))| to_2d(py, m, r.len()))
        .collect()
}

/// Self-BLEU statistics of `samples` (each against all the others), `n x (2 + 2N)` int64.
#[pyfunction]
#[pyo3(signature = (samples, tokenizer, lowercase, max_order))]
fn self_statistics<'py>(
    py: Python<'py>,
    samples: &Bound<'py, PyAny>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let opts = stats_options(py, tokenizer, lowercase, max_order)?;
    let owned = texts(samples, "samples", lowercase)?;
    let strs = borrow_all(&owned);
    let out = run_detached(py, || {
        let bags = pairwise::bags(&strs, &opts);
        pairwise::self_stats(&bags, max_order)
    })?;
    to_2d(py, out, opts.row_len())
}

/// Linear-time MBR statistics per `(hypotheses, pseudo_references)` group (see
/// `pairwise::aggregate_stats`), one `N_g x (2 + 2N)` int64 array each.
#[pyfunction]
#[pyo3(signature = (groups, tokenizer, lowercase, max_order, num_threads = 0))]
fn aggregate_statistics<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyList>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    num_threads: usize,
) -> PyResult<Vec<Bound<'py, PyArray2<i64>>>> {
    let opts = stats_options(py, tokenizer, lowercase, max_order)?;
    let bags = group_bags(py, groups, &opts, num_threads)?;
    let rows = run_detached(py, || {
        parallel::map_collect(
            bags.len(),
            num_threads,
            || (),
            |_, g| pairwise::aggregate_stats(&bags[g].0, &bags[g].1, max_order),
        )
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
    })?;
    rows.into_iter()
        .map(|r| to_2d(py, r, opts.row_len()))
        .collect()
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bootstrap_sums, m)?)?;
    m.add_function(wrap_pyfunction!(ar_sums, m)?)?;
    m.add_function(wrap_pyfunction!(score_rows_f32, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_matrices, m)?)?;
    m.add_function(wrap_pyfunction!(self_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate_statistics, m)?)?;
    Ok(())
}
