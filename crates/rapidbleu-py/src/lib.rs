//! PyO3 glue: the extension module `rapidbleu._core`.
//!
//! Only glue lives here: Python objects are extracted with the GIL held, the core runs with
//! the GIL released (`py.detach`), and results are built after. Statistics leave as NumPy
//! arrays that own the Rust buffer (no copy, no per-segment Python object). Validation of
//! options that Python decides (defaults, signatures) stays in Python.

mod errors;
mod extract;
mod ids;
mod items;
mod mecab;
mod pairwise;
mod read;
mod spm;

use errors::{rb_err, run_detached};
use extract::{borrow_all, collect, to_str, Owned};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::score::{self, BleuParams, Smooth, Summation};
use rapidbleu_core::stats::{self, RefCache, RefSets, StatsOptions};
use rapidbleu_core::tokenize::{TokBuf, Tokenizer};

pub(crate) fn stats_options(
    py: Python<'_>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> PyResult<StatsOptions> {
    let tok = Tokenizer::from_name(tokenizer).map_err(|e| errors::core_err(py, e))?;
    StatsOptions::new(tok, lowercase, max_order).map_err(|e| errors::core_err(py, e))
}

/// Reference streams -> owned strings per stream, checked against `n_hyps` when given.
fn collect_streams<'py>(
    refs: &Bound<'py, PyAny>,
    n_hyps: Option<usize>,
    lowercase: bool,
) -> PyResult<Vec<Owned<'py>>> {
    let py = refs.py();
    let iter = refs.try_iter().map_err(|_| {
        rb_err(
            py,
            "InputTypeError",
            "references must be a sequence of reference streams (sequences of str)",
        )
    })?;
    let mut streams = Vec::new();
    for (k, stream) in iter.enumerate() {
        let stream = stream?;
        if stream.is_instance_of::<PyString>() {
            return Err(rb_err(
                py,
                "InputTypeError",
                format!(
                    "references[{k}] is a str; references must be a list of reference streams, \
                     each a list with one str per segment, e.g. [[ref1_seg1, ref1_seg2, ...]]"
                ),
            ));
        }
        let s = collect(&stream, &format!("references[{k}]"), true, lowercase)?;
        let expected =
            n_hyps.unwrap_or_else(|| streams.first().map_or(s.len(), |f: &Owned<'py>| f.len()));
        if s.len() != expected {
            let against = if n_hyps.is_some() {
                "hypotheses"
            } else {
                "segments in references[0]"
            };
            return Err(rb_err(
                py,
                "LengthMismatchError",
                format!(
                    "references[{k}] has {} segments but there are {expected} {against}; every \
                     reference stream needs exactly one entry (str, or None for a missing \
                     reference) per hypothesis",
                    s.len()
                ),
            ));
        }
        streams.push(s);
    }
    if streams.is_empty() {
        return Err(rb_err(
            py,
            "EmptyInputError",
            "no reference streams given; pass at least one, e.g. [[ref_seg1, ref_seg2, ...]]",
        ));
    }
    Ok(streams)
}

/// The references of each segment (an iterator per segment over its entries, `None` for a
/// missing one) as [`RefSets`], and sacreBLEU's `num_refs` (-1 when it varies: `nrefs:var`).
fn ref_sets<'a, 'py: 'a, I>(segments: impl Iterator<Item = I>) -> (RefSets<'a>, i64)
where
    I: Iterator<Item = &'a Option<Bound<'py, PyString>>>,
{
    let mut sets = RefSets::new();
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    for seg in segments {
        let mut count = 0;
        for text in seg.flatten() {
            sets.push_ref(extract::text(text));
            count += 1;
        }
        sets.end_segment();
        lo = lo.min(count);
        hi = hi.max(count);
    }
    let num_refs = if lo == hi || sets.is_empty() {
        hi as i64
    } else {
        -1
    };
    (sets, num_refs)
}

/// References given per segment (`refs[i]` is the list of references of hypothesis `i`).
fn collect_segments<'py>(
    refs: &Bound<'py, PyAny>,
    n_hyps: usize,
    lowercase: bool,
) -> PyResult<Vec<Owned<'py>>> {
    let py = refs.py();
    let segs = collect_any(refs, "references")?;
    if segs.len() != n_hyps {
        return Err(rb_err(
            py,
            "LengthMismatchError",
            format!(
                "{n_hyps} candidates but {} reference lists; each candidate needs its own list",
                segs.len()
            ),
        ));
    }
    segs.iter()
        .enumerate()
        .map(|(i, seg)| {
            if seg.is_instance_of::<PyString>() {
                return Err(rb_err(
                    py,
                    "InputTypeError",
                    format!(
                        "references[{i}] is a str; each item's references must be a list of str"
                    ),
                ));
            }
            collect(seg, format_args!("references[{i}]"), true, lowercase)
        })
        .collect()
}

fn collect_any<'py>(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let iter = seq.try_iter().map_err(|_| {
        rb_err(
            seq.py(),
            "InputTypeError",
            format!("{what} must be a sequence"),
        )
    })?;
    iter.collect()
}

/// How many hypotheses end in `" ."` (sacreBLEU warns about tokenized input from 100 on).
fn count_tokenized_periods(hyps: &[&str]) -> usize {
    hyps.iter().filter(|h| h.ends_with(" .")).count()
}

fn new_stats<'py>(
    py: Python<'py>,
    data: Vec<i64>,
    row_len: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let n = data.len() / row_len;
    data.into_pyarray(py).reshape([n, row_len])
}

/// `_core.tokenize(name, line)`: exactly the output of sacreBLEU's tokenizer `name`.
#[pyfunction]
fn tokenize(py: Python<'_>, name: &str, line: &Bound<'_, PyString>) -> PyResult<String> {
    let tok = Tokenizer::from_name(name).map_err(|e| errors::core_err(py, e))?;
    let text = to_str(line, "line", 0)?;
    let mut buf = TokBuf::default();
    Ok(tok.tokenize(text, &mut buf, true).to_string())
}

/// Extracts `hyps` and `refs` (reference streams, or with `per_segment` one list of references
/// per hypothesis) and runs `f` on the borrowed text and sacreBLEU's `num_refs`.
fn with_corpus<'py, R>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    lowercase: bool,
    per_segment: bool,
    f: impl FnOnce(&[&str], &RefSets<'_>, i64) -> PyResult<R>,
) -> PyResult<R> {
    let hyps_owned = collect(hyps, "hypotheses", false, lowercase)?;
    let groups = if per_segment {
        collect_segments(refs, hyps_owned.len(), lowercase)?
    } else {
        collect_streams(refs, Some(hyps_owned.len()), lowercase)?
    };
    let hyp_strs = borrow_all(&hyps_owned);
    let (sets, num_refs) = if per_segment {
        ref_sets(groups.iter().map(|seg| seg.iter()))
    } else {
        let n = groups.first().map_or(0, Vec::len);
        ref_sets((0..n).map(|i| groups.iter().map(move |stream| &stream[i])))
    };
    f(&hyp_strs, &sets, num_refs)
}

/// Per-segment statistics `(n, 2 + 2N)` of `hyps` against `refs`, sacreBLEU's `num_refs`, and
/// the number of hypotheses ending in `" ."`. `refs` is a list of reference streams (sacreBLEU's
/// layout) or, with `per_segment`, one list of references per hypothesis.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (hyps, refs, tokenizer, lowercase, max_order, num_threads = 0, per_segment = false))]
fn corpus_statistics<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    num_threads: usize,
    per_segment: bool,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64, usize)> {
    let opts = stats_options(py, tokenizer, lowercase, max_order)?;
    with_corpus(
        hyps,
        refs,
        lowercase,
        per_segment,
        |hyp_strs, sets, num_refs| {
            let periods = count_tokenized_periods(hyp_strs);
            let row_len = opts.row_len();
            let data = run_detached(py, || {
                let mut out = vec![0i64; hyp_strs.len() * row_len];
                stats::corpus_stats(hyp_strs, sets, &opts, num_threads, &mut out).map(|()| out)
            })?;
            Ok((new_stats(py, data, row_len)?, num_refs, periods))
        },
    )
}

/// Sentence BLEU of every hypothesis against its references, scored in the parallel pass
/// (no statistics array), and sacreBLEU's `num_refs`. Layouts as in `corpus_statistics`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (hyps, refs, tokenizer, lowercase, max_order, num_threads, per_segment, smooth_method, smooth_value, effective_order, neumaier))]
fn sentence_scores<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    num_threads: usize,
    per_segment: bool,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    neumaier: bool,
) -> PyResult<(Bound<'py, PyArray1<f64>>, i64)> {
    let opts = stats_options(py, tokenizer, lowercase, max_order)?;
    let p = bleu_params(
        py,
        smooth_method,
        smooth_value,
        effective_order,
        max_order,
        neumaier,
    )?;
    with_corpus(
        hyps,
        refs,
        lowercase,
        per_segment,
        |hyp_strs, sets, num_refs| {
            let scores = run_detached(py, || {
                let mut out = vec![0f64; hyp_strs.len()];
                stats::sentence_scores(hyp_strs, sets, &opts, &p, num_threads, &mut out)
                    .map(|()| out)
            })?;
            Ok((scores.into_pyarray(py), num_refs))
        },
    )
}

/// References tokenized and counted once, for scoring many hypothesis sets.
#[pyclass(frozen, module = "rapidbleu._core")]
struct ReferenceCache {
    inner: RefCache,
    num_refs: i64,
}

#[pymethods]
impl ReferenceCache {
    #[new]
    #[pyo3(signature = (refs, tokenizer, lowercase, max_order, num_threads = 0))]
    fn new(
        py: Python<'_>,
        refs: &Bound<'_, PyAny>,
        tokenizer: &str,
        lowercase: bool,
        max_order: usize,
        num_threads: usize,
    ) -> PyResult<Self> {
        let opts = stats_options(py, tokenizer, lowercase, max_order)?;
        let streams = collect_streams(refs, None, lowercase)?;
        let n = streams.first().map_or(0, Vec::len);
        let (sets, num_refs) = ref_sets((0..n).map(|i| streams.iter().map(move |s| &s[i])));
        let inner = run_detached(py, || RefCache::new(&sets, opts, num_threads))?;
        Ok(ReferenceCache { inner, num_refs })
    }

    /// sacreBLEU's `num_refs` of the cached references (-1: variable).
    #[getter]
    fn num_refs(&self) -> i64 {
        self.num_refs
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Statistics of `hyps` against the cached references.
    #[pyo3(signature = (hyps, num_threads = 0))]
    fn statistics<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        num_threads: usize,
    ) -> PyResult<(Bound<'py, PyArray2<i64>>, usize)> {
        let opts = *self.inner.options();
        let hyps_owned = collect(hyps, "hypotheses", false, opts.lowercase_ascii)?;
        if hyps_owned.len() != self.inner.len() {
            return Err(rb_err(
                py,
                "LengthMismatchError",
                format!(
                    "{} hypotheses but the cached references have {} segments; they must be equal",
                    hyps_owned.len(),
                    self.inner.len()
                ),
            ));
        }
        let hyp_strs = borrow_all(&hyps_owned);
        let periods = count_tokenized_periods(&hyp_strs);
        let row_len = opts.row_len();
        let data = run_detached(py, || {
            let mut out = vec![0i64; hyp_strs.len() * row_len];
            self.inner
                .stats(&hyp_strs, num_threads, &mut out)
                .map(|()| out)
        })?;
        Ok((new_stats(py, data, row_len)?, periods))
    }
}

pub(crate) fn bleu_params(
    py: Python<'_>,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    max_order: usize,
    neumaier: bool,
) -> PyResult<BleuParams> {
    let smooth =
        Smooth::from_name(smooth_method, smooth_value).map_err(|e| errors::core_err(py, e))?;
    if max_order < 1 {
        return Err(rb_err(
            py,
            "InvalidOptionError",
            format!("max_ngram_order must be a positive integer, got {max_order}"),
        ));
    }
    let summation = if neumaier {
        Summation::Neumaier
    } else {
        Summation::Plain
    };
    Ok(BleuParams {
        smooth,
        effective_order,
        max_order,
        summation,
    })
}

/// `BLEU.compute_bleu` -> `(score, precisions, bp, addk_orders)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (correct, total, sys_len, ref_len, smooth_method, smooth_value, effective_order, max_order, neumaier))]
fn compute_bleu(
    py: Python<'_>,
    correct: Vec<i64>,
    total: Vec<i64>,
    sys_len: i64,
    ref_len: i64,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    max_order: usize,
    neumaier: bool,
) -> PyResult<(f64, Vec<f64>, f64, usize)> {
    let p = bleu_params(
        py,
        smooth_method,
        smooth_value,
        effective_order,
        max_order,
        neumaier,
    )?;
    if correct.len() < max_order || total.len() < max_order {
        return Err(rb_err(
            py,
            "InputError",
            format!(
                "correct and total need max_ngram_order = {max_order} values, got {} and {}",
                correct.len(),
                total.len()
            ),
        ));
    }
    let counts = [&correct[..], &total[..], &[sys_len, ref_len]].concat();
    score::check_counts(&counts).map_err(|e| errors::core_err(py, e))?;
    let o = score::compute_bleu(&correct, &total, sys_len, ref_len, &p);
    Ok((o.score, o.precisions, o.bp, o.addk_orders))
}

/// Sentence BLEU of every row of a statistics array, as float64.
#[pyfunction]
#[pyo3(signature = (stats, smooth_method, smooth_value, effective_order, max_order, neumaier))]
fn score_rows<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
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
    let view = stats.as_array();
    let n = view.nrows();
    let flat: std::borrow::Cow<'_, [i64]> = match view.as_slice() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(view.iter().copied().collect()),
    };
    let out = run_detached(py, || {
        let mut out = vec![0f64; n];
        score::score_rows(&flat, &p, &mut out).map(|()| out)
    })?;
    Ok(out.into_pyarray(py))
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(corpus_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(compute_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(score_rows, m)?)?;
    m.add_function(wrap_pyfunction!(sentence_scores, m)?)?;
    m.add_function(wrap_pyfunction!(items::split_items, m)?)?;
    m.add_class::<ReferenceCache>()?;
    ids::register(m)?;
    pairwise::register(m)?;
    mecab::register(m)?;
    spm::register(m)?;
    m.add(
        "TOKENIZERS",
        rapidbleu_core::tokenize::TOKENIZER_NAMES.to_vec(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
