//! Glue of `rapidbleu_core::bleu::stats`: statistics rows and fused sentence scores of text.

use crate::arrays::to_2d;
use crate::bleu::options::{flag_arg, options_arg};
use crate::corpus::{count_tokenized_periods, text, TextInput};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, OrRaise};
use crate::io::chunks::TextChunk;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::ref_cache::RefCache;
use rapidbleu_core::bleu::stats;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::io::Lines;

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

/// A chunk's lines as the core sees them: with lowercasing, non-ASCII lines are lowercased by
/// Python's `str.lower()` (the interpreter's Unicode version, as in sacreBLEU) and ASCII lines
/// later in Rust, as for lists of `str` (`corpus::collect`).
struct Views<'py> {
    lowered: Vec<Option<Bound<'py, PyString>>>,
}

impl<'py> Views<'py> {
    fn new(py: Python<'py>, lines: &Lines, lowercase: bool) -> PyResult<Self> {
        let mut lowered = Vec::new();
        if lowercase {
            lowered.reserve(lines.len());
            for line in lines.iter() {
                lowered.push(if line.is_ascii() {
                    None
                } else {
                    let s = PyString::new(py, line).call_method0("lower")?;
                    Some(s.cast_into::<PyString>().map_err(PyErr::from)?)
                });
            }
        }
        Ok(Views { lowered })
    }

    fn of<'a>(&'a self, lines: &'a Lines) -> Vec<&'a str> {
        if self.lowered.is_empty() {
            return lines.iter().collect();
        }
        lines
            .iter()
            .zip(&self.lowered)
            .map(|(line, low)| low.as_ref().map_or(line, text))
            .collect()
    }
}

/// Statistics rows of every system of a chunk read by `_core.ChunkReader`, counted where the
/// lines lie (no Python string per line), and sacreBLEU's `num_refs`. With several systems the
/// chunk's references are tokenized once, as `BleuReferenceCache` does for a whole corpus.
#[pyfunction]
#[pyo3(signature = (chunk, options, num_threads = 0))]
fn bleu_chunk_statistics<'py>(
    py: Python<'py>,
    chunk: &Bound<'py, TextChunk>,
    #[pyo3(from_py_with = options_arg)] options: BleuOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
) -> PyResult<(Vec<Bound<'py, PyArray2<i64>>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let chunk = chunk.get().chunk();
        let lower = options.lowercase();
        let row_len = options.layout().row_len();
        let ref_views = chunk
            .refs
            .iter()
            .map(|r| Views::new(py, r, lower))
            .collect::<PyResult<Vec<_>>>()?;
        let refs: Vec<Vec<&str>> = ref_views
            .iter()
            .zip(&chunk.refs)
            .map(|(v, r)| v.of(r))
            .collect();
        let groups: Groups<&str> = (0..chunk.len())
            .map(|i| refs.iter().map(move |r| r[i]))
            .collect();
        let num_refs = chunk.refs.len() as i64;
        let mut out = Vec::with_capacity(chunk.systems.len());
        if let [system] = chunk.systems.as_slice() {
            let views = Views::new(py, system, lower)?;
            let corpus = Corpus::new(views.of(system), groups).or_raise(py)?;
            let rows = run_detached(py, || stats::corpus_stats(&corpus, &options, threads))?;
            out.push(to_2d(py, rows, row_len)?);
        } else {
            let cache = run_detached(py, || RefCache::new(&groups, options, threads))?;
            for system in &chunk.systems {
                let views = Views::new(py, system, lower)?;
                let hyps = views.of(system);
                let rows = run_detached(py, || cache.stats(&hyps, threads))?;
                out.push(to_2d(py, rows, row_len)?);
            }
        }
        Ok((out, num_refs))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_sentence_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_chunk_statistics, m)?)?;
    Ok(())
}
