//! `_core.CiderDOptions` and `_core.CiderDocumentFrequency`: CIDEr-D as pycocoevalcap's
//! `Cider(n, sigma).compute_score` computes it (document frequencies of the scored images'
//! references), and as a reward: document frequencies built once from a training corpus (text
//! or token IDs), held in an `Arc` (the core's `Scorer` borrows them, so each call builds a
//! scorer over the shared frequencies) and reused for every batch.
//!
//! `np.log` crosses as a table (`np.log(np.arange(1, n + 1.0))`, NumPy's own values): see
//! `rapidbleu_core::caption::numeric::LogTable`.

use super::images::Images;
use crate::corpus::TextInput;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, type_name, ErrorKind, OrRaise};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use rapidbleu_core::caption::cider::doc_freq::Caption;
use rapidbleu_core::caption::cider::score::{corpus_scores, RefLen, Scorer};
use rapidbleu_core::caption::cider::{CiderD, DocumentFrequency};
use rapidbleu_core::caption::numeric::LogTable;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use std::sync::Arc;

/// See the module documentation.
#[pyclass(frozen, eq, name = "CiderDOptions", module = "rapidbleu._core")]
#[derive(Clone, Debug, PartialEq)]
pub struct PyCiderDOptions {
    pub(crate) inner: CiderD,
}

/// The table of logarithms of a NumPy array.
fn log_table(logs: &PyReadonlyArray1<'_, f64>) -> PyResult<LogTable> {
    Ok(LogTable::from_values(logs.as_slice()?.to_vec()))
}

/// Token-ID captions: a list of lists of non-negative ints below 2**32.
fn id_lists(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec<u32>>> {
    obj.extract().map_err(|_| {
        ErrorKind::InputType.err(
            obj.py(),
            format!(
                "{what} must be lists of token IDs (ints in 0..2**32), not {}",
                type_name(obj)
            ),
        )
    })
}

/// Token-ID references: per image, a list of lists of token IDs.
fn id_groups(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Vec<u32>>>> {
    obj.extract().map_err(|_| {
        ErrorKind::InputType.err(
            obj.py(),
            format!(
                "token-ID references must be, per image, a list of lists of token IDs (ints in \
                 0..2**32), not {}",
                type_name(obj)
            ),
        )
    })
}

fn borrow_groups(refs: &[Vec<Vec<u32>>]) -> Groups<&[u32]> {
    Groups::from_iter(refs.iter().map(|g| g.iter().map(Vec::as_slice)))
}

#[pymethods]
impl PyCiderDOptions {
    /// `Cider(n=4, sigma=6.0)`: `n` orders averaged (4 or more), the length penalty's `sigma`.
    #[new]
    #[pyo3(signature = (n = None, sigma = None))]
    fn new(
        py: Python<'_>,
        n: Option<&Bound<'_, PyAny>>,
        sigma: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = match n {
            None => 4,
            Some(v) => crate::args::as_i64(v)
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| {
                    ErrorKind::InvalidOption.err(
                        py,
                        format!("CIDEr-D's n must be an int, not {}", crate::args::repr(v)),
                    )
                })?,
        };
        let sigma = match sigma {
            None => 6.0,
            Some(s) => {
                let number = !s.is_instance_of::<PyBool>()
                    && (s.is_instance_of::<PyInt>() || s.is_instance_of::<PyFloat>());
                match s.extract::<f64>() {
                    Ok(v) if number => v,
                    _ => {
                        return Err(ErrorKind::InvalidOption.err(
                            py,
                            format!(
                                "CIDEr-D's sigma must be a number, not {}",
                                crate::args::repr(s)
                            ),
                        ))
                    }
                }
            }
        };
        Ok(PyCiderDOptions {
            inner: CiderD::new(n, sigma).or_raise(py)?,
        })
    }

    /// The number of orders averaged.
    #[getter]
    fn n(&self) -> usize {
        self.inner.n()
    }

    /// The length penalty's standard deviation.
    #[getter]
    fn sigma(&self) -> f64 {
        self.inner.sigma()
    }

    /// pycocoevalcap's `compute_score` of text captions: `hyps[i]` against `refs[i]` (a list
    /// of str), document frequencies of these references; `(np.mean of the scores, scores)`.
    /// `logs` is `np.log(np.arange(1, k + 1.0))` with `k` at least the number of images.
    #[pyo3(signature = (hyps, refs, logs, num_threads = 0))]
    fn compute<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        logs: PyReadonlyArray1<'py, f64>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<(f64, Bound<'py, PyArray1<f64>>)> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let input = TextInput::read(hyps, refs, false, true, t)?;
            self.scores(py, &input.corpus(py)?.0, &logs, t)
        })
    }

    /// `Cider(n, sigma).compute_score(gts, res)`: `(np.mean of the scores, scores)`, every
    /// image's in `gts`'s order, read and checked as pycocoevalcap does ([`Images`]). `logs` is
    /// as for [`PyCiderDOptions::compute`], with `k` at least `len(gts)`.
    #[pyo3(signature = (gts, res, logs, num_threads = 0))]
    fn compute_score<'py>(
        &self,
        py: Python<'py>,
        gts: &Bound<'py, PyAny>,
        res: &Bound<'py, PyAny>,
        logs: PyReadonlyArray1<'py, f64>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<(f64, Bound<'py, PyArray1<f64>>)> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let images = Images::read(gts, res, t)?;
            self.scores(py, &images.corpus(py)?, &logs, t)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "CiderDOptions(n={}, sigma={:?})",
            self.inner.n(),
            self.inner.sigma()
        )
    }

    /// The arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs__(&self) -> (usize, f64) {
        (self.inner.n(), self.inner.sigma())
    }
}

impl PyCiderDOptions {
    /// `(np.mean of the scores, scores)` of `corpus` on `t` threads, the GIL released.
    fn scores<'py>(
        &self,
        py: Python<'py>,
        corpus: &Corpus<&str>,
        logs: &PyReadonlyArray1<'py, f64>,
        t: Threads,
    ) -> PyResult<(f64, Bound<'py, PyArray1<f64>>)> {
        let log = log_table(logs)?;
        let opts = self.inner;
        let (mean, scores) = run_detached(py, || corpus_scores(opts, corpus, &log, t))?;
        Ok((mean, scores.into_pyarray(py)))
    }
}

/// CIDEr-D's document frequencies of a reference corpus, built once and shared (see the module
/// documentation).
#[pyclass(frozen, name = "CiderDocumentFrequency", module = "rapidbleu._core")]
pub struct PyCiderDocumentFrequency {
    df: Arc<DocumentFrequency>,
}

/// `ref_len="corpus"` or `"batch"`.
fn ref_len_arg(obj: &Bound<'_, PyAny>) -> PyResult<RefLen> {
    match obj.cast::<PyString>().ok().and_then(|s| s.to_str().ok()) {
        Some("corpus") => Ok(RefLen::Corpus),
        Some("batch") => Ok(RefLen::Batch),
        _ => Err(ErrorKind::InvalidOption.err(
            obj.py(),
            format!(
                "ref_len must be 'corpus' (the log of the frequencies' image count) or 'batch' \
                 (of the scored images, as CiderScorer.compute_cider takes it), not {}",
                crate::args::repr(obj)
            ),
        )),
    }
}

impl PyCiderDocumentFrequency {
    /// The scores of a batch of captions of kind `C` (GIL released).
    fn batch_scores<'a, C: Caption<'a>>(
        &self,
        py: Python<'_>,
        opts: CiderD,
        batch: &Corpus<C>,
        log: &LogTable,
        ref_len: RefLen,
        t: Threads,
    ) -> PyResult<Vec<f64>> {
        let df = Arc::clone(&self.df);
        run_detached(py, move || {
            Scorer::for_batch(opts, &df, log, ref_len, batch.len())?.scores(batch, t)
        })
    }
}

#[pymethods]
impl PyCiderDocumentFrequency {
    /// The document frequencies of text references: `refs[i]` (a list of str, `split()`
    /// tokens) are image `i`'s.
    #[staticmethod]
    fn from_texts(py: Python<'_>, refs: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| {
            let n = refs.len().map_err(|_| {
                ErrorKind::InputType.err(
                    py,
                    format!(
                        "references must be a list (per image) of lists of str, not {}",
                        type_name(refs)
                    ),
                )
            })?;
            let empty = PyString::new(py, "");
            let hyps = pyo3::types::PyList::new(py, std::iter::repeat_n(empty, n))?;
            let input = TextInput::read(hyps.as_any(), refs, false, true, Threads::ONE)?;
            let (corpus, _) = input.corpus(py)?;
            let df = run_detached(py, || DocumentFrequency::from_texts(corpus.references()))?;
            Ok(PyCiderDocumentFrequency { df: Arc::new(df) })
        })
    }

    /// The document frequencies of token-ID references: `refs[i]` (a list of lists of int)
    /// are image `i`'s.
    #[staticmethod]
    fn from_ids(py: Python<'_>, refs: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| {
            let refs = id_groups(refs)?;
            if let Some(i) = refs.iter().position(Vec::is_empty) {
                return Err(ErrorKind::MissingReference
                    .err(py, format!("image {i} has no reference caption")));
            }
            let groups = borrow_groups(&refs);
            let df = run_detached(py, || DocumentFrequency::from_ids(&groups))?;
            Ok(PyCiderDocumentFrequency { df: Arc::new(df) })
        })
    }

    /// The number of images the frequencies were counted over.
    #[getter]
    fn images(&self) -> usize {
        self.df.images()
    }

    /// Whether they were counted over token IDs.
    #[getter]
    fn is_ids(&self) -> bool {
        self.df.is_ids()
    }

    /// The largest document frequency.
    #[getter]
    fn max_count(&self) -> u32 {
        self.df.max_count()
    }

    /// The document frequency of a text n-gram (1 to 4 words) when it is 2 or more; 0 or 1
    /// otherwise (CIDEr-D counts both as 1).
    fn of_words(&self, words: Vec<String>) -> u32 {
        let w: Vec<&str> = words.iter().map(String::as_str).collect();
        self.df.of_words(&w)
    }

    /// CIDEr-D of text captions `hyps[i]` against `refs[i]` (a list of str) under these
    /// frequencies; `ref_len` "corpus" or "batch"; `logs` as in `CiderDOptions.compute`,
    /// covering the number of images `ref_len` takes.
    #[pyo3(signature = (options, hyps, refs, logs, ref_len, num_threads = 0))]
    #[allow(clippy::too_many_arguments)]
    fn scores<'py>(
        &self,
        py: Python<'py>,
        options: &Bound<'py, PyCiderDOptions>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        logs: PyReadonlyArray1<'py, f64>,
        #[pyo3(from_py_with = ref_len_arg)] ref_len: RefLen,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let log = log_table(&logs)?;
            let input = TextInput::read(hyps, refs, false, true, t)?;
            let (corpus, _) = input.corpus(py)?;
            let opts = options.get().inner;
            let s = self.batch_scores(py, opts, &corpus, &log, ref_len, t)?;
            Ok(s.into_pyarray(py))
        })
    }

    /// CIDEr-D of token-ID captions `hyps[i]` (a list of int) against `refs[i]` (a list of
    /// such lists); as `scores` otherwise.
    #[pyo3(signature = (options, hyps, refs, logs, ref_len, num_threads = 0))]
    #[allow(clippy::too_many_arguments)]
    fn id_scores<'py>(
        &self,
        py: Python<'py>,
        options: &Bound<'py, PyCiderDOptions>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        logs: PyReadonlyArray1<'py, f64>,
        #[pyo3(from_py_with = ref_len_arg)] ref_len: RefLen,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let log = log_table(&logs)?;
            let hyps = id_lists(hyps, "hypotheses")?;
            let refs = id_groups(refs)?;
            if hyps.len() != refs.len() {
                return Err(ErrorKind::LengthMismatch.err(
                    py,
                    format!(
                        "{} hypotheses but {} lists of references",
                        hyps.len(),
                        refs.len()
                    ),
                ));
            }
            if let Some(i) = refs.iter().position(Vec::is_empty) {
                return Err(ErrorKind::MissingReference
                    .err(py, format!("image {i} has no reference caption")));
            }
            let batch = Corpus::new(
                hyps.iter().map(Vec::as_slice).collect(),
                borrow_groups(&refs),
            )
            .or_raise(py)?;
            let opts = options.get().inner;
            let s = self.batch_scores(py, opts, &batch, &log, ref_len, t)?;
            Ok(s.into_pyarray(py))
        })
    }

    fn __len__(&self) -> usize {
        self.df.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "CiderDocumentFrequency(images={}, {})",
            self.df.images(),
            if self.df.is_ids() {
                "token IDs"
            } else {
                "text"
            }
        )
    }
}
