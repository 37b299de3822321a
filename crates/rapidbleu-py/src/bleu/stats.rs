//! Glue of `rapidbleu_core::bleu::stats`: statistics rows and fused sentence scores of text.

use crate::arrays::to_2d;
use crate::bleu::options::{flag_arg, options_arg};
use crate::corpus::{count_tokenized_periods, TextInput};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::stats;

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

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_sentence_scores, m)?)?;
    Ok(())
}
