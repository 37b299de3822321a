//! Glue of `rapidbleu_core::bleu::stats`: statistics rows and fused sentence scores of text.

use crate::arrays::to_2d;
use crate::bleu::options::{flag_arg, options_arg};
use crate::corpus::{count_tokenized_periods, TextInput};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, OrRaise};
use crate::io::chunks::{
    chunk_arg, segment_groups, system_arrays, system_sums, LineViews, TextChunk,
};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::ref_cache::RefCache;
use rapidbleu_core::bleu::stats;
use rapidbleu_core::corpus::Corpus;
use rapidbleu_core::engine::parallel::Threads;

/// Per-segment statistics `(n, row_len)` of `hyps` against `refs`, sacreBLEU's `num_refs`, and
/// the number of hypotheses ending in `" ."`. `refs` is a list of reference streams
/// (sacreBLEU's layout) or, with `per_segment`, one list of references per hypothesis.
#[pyfunction]
#[pyo3(signature = (hyps, refs, options, num_threads = 0, per_segment = false))]
fn bleu_statistics<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
    #[pyo3(from_py_with = flag_arg)] per_segment: bool,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64, usize)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let input = TextInput::read(hyps, refs, options.lowercase(), per_segment)?;
        let (corpus, num_refs) = input.corpus(py)?;
        let periods = count_tokenized_periods(corpus.hyps());
        let rows = run_detached(py, || stats::corpus_stats(&corpus, &options, threads))?;
        Ok((
            to_2d(py, rows, options.layout().row_len())?,
            num_refs,
            periods,
        ))
    })
}

/// Sentence BLEU of every hypothesis against its references, scored in the parallel pass
/// (no statistics array), and sacreBLEU's `num_refs`. Layouts as in `bleu_statistics`.
#[pyfunction]
#[pyo3(signature = (hyps, refs, options, num_threads = 0, per_segment = false))]
fn bleu_sentence_scores<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
    #[pyo3(from_py_with = flag_arg)] per_segment: bool,
) -> PyResult<(Bound<'py, PyArray1<f64>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let input = TextInput::read(hyps, refs, options.lowercase(), per_segment)?;
        let (corpus, num_refs) = input.corpus(py)?;
        let scores = run_detached(py, || stats::sentence_scores(&corpus, &options, threads))?;
        Ok((scores.into_pyarray(py), num_refs))
    })
}

/// Statistics rows (flat, `row_len` wide) of every system of a chunk read by
/// `_core.ChunkReader`, counted where the lines lie (no Python string per line), and
/// sacreBLEU's `num_refs`. With several systems the chunk's references are tokenized once, as
/// `BleuReferenceCache` does for a whole corpus.
fn chunk_rows(
    py: Python<'_>,
    chunk: &TextChunk,
    options: &BleuOptions,
    threads: Threads,
) -> PyResult<(Vec<Vec<i64>>, i64)> {
    let chunk = chunk.chunk();
    let lower = options.lowercase();
    let ref_views = LineViews::all(py, &chunk.refs, lower)?;
    let refs = LineViews::texts(&ref_views, &chunk.refs);
    let groups = segment_groups(&refs, chunk.len());
    let num_refs = chunk.refs.len() as i64;
    let mut out = Vec::with_capacity(chunk.systems.len());
    if let [system] = chunk.systems.as_slice() {
        let views = LineViews::new(py, system, lower)?;
        let corpus = Corpus::new(views.of(system), groups).or_raise(py)?;
        out.push(run_detached(py, || {
            stats::corpus_stats(&corpus, options, threads)
        })?);
    } else {
        let cache = run_detached(py, || RefCache::new(&groups, *options, threads))?;
        for system in &chunk.systems {
            let views = LineViews::new(py, system, lower)?;
            let hyps = views.of(system);
            out.push(run_detached(py, || cache.stats(&hyps, threads))?);
        }
    }
    Ok((out, num_refs))
}

/// Statistics rows of every system of a chunk read by `_core.ChunkReader` (see `chunk_rows`),
/// and sacreBLEU's `num_refs`.
#[pyfunction]
#[pyo3(signature = (chunk, options, num_threads = 0))]
fn bleu_chunk_statistics<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = chunk_arg)] chunk: Bound<'py, TextChunk>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<(Vec<Bound<'py, PyArray2<i64>>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (rows, num_refs) = chunk_rows(py, chunk.get(), &options, threads)?;
        Ok((
            system_arrays(py, rows, options.layout().row_len())?,
            num_refs,
        ))
    })
}

/// Every system's statistics of a chunk summed over its segments (one list of ints per
/// system; see `chunk_rows`), and sacreBLEU's `num_refs`: what a corpus score of a stream
/// needs, with no NumPy array made (the command's corpus path never imports NumPy).
#[pyfunction]
#[pyo3(signature = (chunk, options, num_threads = 0))]
fn bleu_chunk_totals(
    py: Python<'_>,
    #[pyo3(from_py_with = chunk_arg)] chunk: Bound<'_, TextChunk>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<(Vec<Vec<i64>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (rows, num_refs) = chunk_rows(py, chunk.get(), &options, threads)?;
        Ok((
            system_sums(py, &rows, options.layout().row_len())?,
            num_refs,
        ))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_sentence_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_chunk_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_chunk_totals, m)?)?;
    Ok(())
}
