//! Glue of `rapidbleu_core::ter::stats`: statistics rows of text, in parallel with the GIL
//! released.

use crate::arrays::to_2d;
use crate::bleu::options::flag_arg;
use crate::corpus::TextInput;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached};
use crate::ter::options::{options_arg, PyTerOptions};
use numpy::PyArray2;
use pyo3::prelude::*;
use rapidbleu_core::ter::{stats, ROW_LEN};

/// Per-segment statistics `(n, 3)` (`[num_edits, ref_len_sum, num_refs]`) of `hyps` against
/// `refs`, and sacreBLEU's `num_refs`. `refs` is a list of reference streams (sacreBLEU's
/// layout) or, with `per_segment`, one list of references per hypothesis. Text is lowercased
/// with Python's `str.lower()` unless `case_sensitive` (ASCII text in Rust: the same result).
#[pyfunction]
#[pyo3(signature = (hyps, refs, options, num_threads = 0, per_segment = false))]
fn ter_statistics<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = options_arg)] options: PyTerOptions,
    #[pyo3(from_py_with = int_arg)] num_threads: i64,
    #[pyo3(from_py_with = flag_arg)] per_segment: bool,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64)> {
    guard(|| {
        let threads = threads(py, num_threads)?;
        let lowercase = !options.params.case_sensitive;
        let input = TextInput::read(hyps, refs, lowercase, per_segment)?;
        let (corpus, num_refs) = input.corpus(py)?;
        let tokenizer = options.tokenizer();
        let rows = run_detached(py, || stats::corpus_stats(&corpus, &tokenizer, threads))?;
        Ok((to_2d(py, rows, ROW_LEN)?, num_refs))
    })
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_statistics, m)?)?;
    Ok(())
}
