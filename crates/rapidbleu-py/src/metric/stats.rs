//! Statistics of text for any [`PyMetric`]: rows of a corpus, fused sentence scores, and the
//! rows (or their sums) of every system of a chunk read by `_core.ChunkReader`.

use super::PyMetric;
use crate::arrays::to_2d;
use crate::corpus::TextInput;
use crate::engine::parallel::threads;
use crate::errors::{guard, run_detached};
use crate::io::chunks::{segment_groups, system_arrays, LineViews, TextChunk};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rapidbleu_core::corpus::Corpus;
use rapidbleu_core::engine::parallel::Threads;

/// The text arguments of a statistics function: `(hyps, refs, per_segment)`.
pub type Text<'a, 'py> = (&'a Bound<'py, PyAny>, &'a Bound<'py, PyAny>, bool);

/// `f(corpus, num_refs, threads)` on the corpus of `text`, read with the GIL and lowercased as
/// the metric wants.
fn on_corpus<'py, M: PyMetric, T>(
    py: Python<'py>,
    (hyps, refs, per_segment): Text<'_, 'py>,
    metric: &M,
    num_threads: i64,
    f: impl FnOnce(&Corpus<&str>, i64, Threads) -> PyResult<T>,
) -> PyResult<T> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let input = TextInput::read(hyps, refs, metric.lowercase(), per_segment, threads)?;
        let (corpus, num_refs) = input.corpus(py)?;
        f(&corpus, num_refs, threads)
    })
}

/// The statistics rows of a corpus (see `metric_methods!`), GIL released while counting.
pub fn statistics<'py, M: PyMetric>(
    py: Python<'py>,
    text: Text<'_, 'py>,
    metric: &M,
    num_threads: i64,
) -> PyResult<Bound<'py, PyTuple>> {
    on_corpus(
        py,
        text,
        metric,
        num_threads,
        |corpus, num_refs, threads| {
            let rows = run_detached(py, || metric.corpus_stats(corpus, threads))?;
            let rows = to_2d(py, rows, metric.row_len())?.into_any();
            counted::<M>(py, rows, num_refs, corpus, threads)
        },
    )
}

/// The corpus totals of a corpus (as [`PyMetric::totals_into_py`] gives them; for additive
/// rows a list of ints), as `statistics` returns its rows: a corpus score with no NumPy array
/// made (so `import numpy`, a third of a short script's time, is never paid for one).
pub fn totals<'py, M: PyMetric>(
    py: Python<'py>,
    text: Text<'_, 'py>,
    metric: &M,
    num_threads: i64,
) -> PyResult<Bound<'py, PyTuple>> {
    on_corpus(
        py,
        text,
        metric,
        num_threads,
        |corpus, num_refs, threads| {
            let totals = run_detached(py, || {
                let rows = metric.corpus_stats(corpus, threads)?;
                metric.corpus_totals(&rows, threads)
            })?;
            counted::<M>(
                py,
                metric.totals_into_py(py, totals)?,
                num_refs,
                corpus,
                threads,
            )
        },
    )
}

/// `(rows, num_refs[, extra])` of a corpus's statistics rows (see [`PyMetric`]).
fn counted<'py, M: PyMetric>(
    py: Python<'py>,
    rows: Bound<'py, PyAny>,
    num_refs: i64,
    corpus: &Corpus<&str>,
    threads: Threads,
) -> PyResult<Bound<'py, PyTuple>> {
    match M::statistics_extra(corpus.hyps(), threads) {
        Some(extra) => (rows, num_refs, extra).into_pyobject(py),
        None => (rows, num_refs).into_pyobject(py),
    }
}

/// The sentence score of every hypothesis, and sacreBLEU's `num_refs`.
pub fn sentence_scores<'py, M: PyMetric>(
    py: Python<'py>,
    text: Text<'_, 'py>,
    metric: &M,
    num_threads: i64,
) -> PyResult<(Bound<'py, PyArray1<f64>>, i64)> {
    on_corpus(
        py,
        text,
        metric,
        num_threads,
        |corpus, num_refs, threads| {
            let scores = run_detached(py, || metric.sentence_scores(corpus, threads))?;
            Ok((scores.into_pyarray(py), num_refs))
        },
    )
}

/// Statistics rows (flat) of every system of `chunk`, counted where the lines lie (no Python
/// string per line, except non-ASCII lines when lowercasing), and sacreBLEU's `num_refs`.
fn chunk_rows<M: PyMetric>(
    py: Python<'_>,
    chunk: &TextChunk,
    metric: &M,
    num_threads: i64,
) -> PyResult<(Vec<Vec<i64>>, i64)> {
    let threads = threads(py, num_threads)?;
    let chunk = chunk.chunk();
    let lower = metric.lowercase();
    let ref_views = LineViews::all(py, &chunk.refs, lower)?;
    let refs = LineViews::texts(&ref_views, &chunk.refs, threads);
    let groups = segment_groups(refs, chunk.len(), threads);
    let views = LineViews::all(py, &chunk.systems, lower)?;
    let systems = LineViews::texts(&views, &chunk.systems, threads);
    let rows = run_detached(py, || metric.systems_stats(&systems, &groups, threads))?;
    Ok((rows, chunk.refs.len() as i64))
}

/// Statistics rows of every system of `chunk` as arrays, and sacreBLEU's `num_refs`.
pub fn chunk_statistics<'py, M: PyMetric>(
    py: Python<'py>,
    chunk: &TextChunk,
    metric: &M,
    num_threads: i64,
) -> PyResult<(Vec<Bound<'py, PyArray2<i64>>>, i64)> {
    guard(|| {
        let (rows, num_refs) = chunk_rows(py, chunk, metric, num_threads)?;
        Ok((system_arrays(py, rows, metric.row_len())?, num_refs))
    })
}

/// Every system's corpus totals of `chunk` (as [`totals`] gives them), and sacreBLEU's
/// `num_refs`.
pub fn chunk_totals<'py, M: PyMetric>(
    py: Python<'py>,
    chunk: &TextChunk,
    metric: &M,
    num_threads: i64,
) -> PyResult<(Vec<Bound<'py, PyAny>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let (rows, num_refs) = chunk_rows(py, chunk, metric, num_threads)?;
        let totals = run_detached(py, || {
            rows.iter()
                .map(|r| metric.corpus_totals(r, threads))
                .collect::<Result<Vec<_>, _>>()
        })?;
        let totals = totals
            .into_iter()
            .map(|t| metric.totals_into_py(py, t))
            .collect::<PyResult<_>>()?;
        Ok((totals, num_refs))
    })
}
