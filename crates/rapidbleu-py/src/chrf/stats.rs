//! Glue of `rapidbleu_core::chrf::stats`: statistics rows and fused sentence scores of text.

use crate::arrays::to_2d;
use crate::bleu::options::flag_arg;
use crate::chrf::options::options_arg;
use crate::corpus::TextInput;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, OrRaise};
use crate::io::chunks::{
    chunk_arg, segment_groups, system_arrays, system_sums, LineViews, TextChunk,
};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use rapidbleu_core::chrf::{stats, ChrfOptions};
use rapidbleu_core::corpus::Corpus;
use rapidbleu_core::engine::parallel::Threads;

/// Per-segment statistics `(n, row_len)` of `hyps` against `refs` and sacreBLEU's `num_refs`.
/// `refs` is a list of reference streams (sacreBLEU's layout) or, with `per_segment`, one list
/// of references per hypothesis. Non-ASCII text is lowercased by Python's `str.lower()` when
/// the options say `lowercase`.
#[pyfunction]
#[pyo3(signature = (hyps, refs, options, num_threads = 0, per_segment = false))]
fn chrf_statistics<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
    #[pyo3(from_py_with = flag_arg)] per_segment: bool,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let input = TextInput::read(hyps, refs, options.lowercase_ascii(), per_segment)?;
        let (corpus, num_refs) = input.corpus(py)?;
        let rows = run_detached(py, || stats::corpus_stats(&corpus, &options, threads))?;
        Ok((to_2d(py, rows, options.row_len())?, num_refs))
    })
}

/// Sentence chrF of every hypothesis against its references, scored in the parallel pass (no
/// statistics array), and sacreBLEU's `num_refs`. Layouts as in `chrf_statistics`.
#[pyfunction]
#[pyo3(signature = (hyps, refs, options, num_threads = 0, per_segment = false))]
fn chrf_sentence_scores<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
    #[pyo3(from_py_with = flag_arg)] per_segment: bool,
) -> PyResult<(Bound<'py, PyArray1<f64>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let input = TextInput::read(hyps, refs, options.lowercase_ascii(), per_segment)?;
        let (corpus, num_refs) = input.corpus(py)?;
        let scores = run_detached(py, || stats::sentence_scores(&corpus, &options, threads))?;
        Ok((scores.into_pyarray(py), num_refs))
    })
}

/// Statistics rows (flat) of every system of a chunk read by `_core.ChunkReader`, counted where
/// the lines lie (no Python string per line, except non-ASCII lines with `lowercase`), and
/// sacreBLEU's `num_refs`.
fn chunk_rows(
    py: Python<'_>,
    chunk: &TextChunk,
    options: &ChrfOptions,
    threads: Threads,
) -> PyResult<(Vec<Vec<i64>>, i64)> {
    let chunk = chunk.chunk();
    let lower = options.lowercase_ascii();
    let ref_views = LineViews::all(py, &chunk.refs, lower)?;
    let refs = LineViews::texts(&ref_views, &chunk.refs);
    let mut out = Vec::with_capacity(chunk.systems.len());
    for system in &chunk.systems {
        let views = LineViews::new(py, system, lower)?;
        let groups = segment_groups(&refs, chunk.len());
        let corpus = Corpus::new(views.of(system), groups).or_raise(py)?;
        out.push(run_detached(py, || {
            stats::corpus_stats(&corpus, options, threads)
        })?);
    }
    Ok((out, chunk.refs.len() as i64))
}

/// Statistics rows of every system of a chunk (see `chunk_rows`), and sacreBLEU's `num_refs`.
#[pyfunction]
#[pyo3(signature = (chunk, options, num_threads = 0))]
fn chrf_chunk_statistics<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = chunk_arg)] chunk: Bound<'py, TextChunk>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<(Vec<Bound<'py, PyArray2<i64>>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (rows, num_refs) = chunk_rows(py, chunk.get(), &options, threads)?;
        Ok((system_arrays(py, rows, options.row_len())?, num_refs))
    })
}

/// Every system's statistics of a chunk summed over its segments (one list of ints per
/// system), and sacreBLEU's `num_refs`: a corpus score of a stream with no NumPy array made.
#[pyfunction]
#[pyo3(signature = (chunk, options, num_threads = 0))]
fn chrf_chunk_totals(
    py: Python<'_>,
    #[pyo3(from_py_with = chunk_arg)] chunk: Bound<'_, TextChunk>,
    #[pyo3(from_py_with = options_arg)] options: ChrfOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<(Vec<Vec<i64>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (rows, num_refs) = chunk_rows(py, chunk.get(), &options, threads)?;
        Ok((system_sums(py, &rows, options.row_len())?, num_refs))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_sentence_scores, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_chunk_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_chunk_totals, m)?)?;
    Ok(())
}
