//! `_core.MeteorOptions`: the core's [`MeteorOptions`] as a frozen Python value, built once by
//! the METEOR metric: NLTK's `alpha`, `beta`, `gamma`, lowercasing, the stem stage, and the
//! WordNet folder (read once per process, with the GIL released), plus METEOR's own
//! entry points: statistics of token lists (NLTK's input) and finding WordNet.

use crate::args::{flag_arg, options_repr, repr, NewArgs};
use crate::arrays::to_2d;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, type_name, ErrorKind};
use crate::meteor::tokens::{for_each_item, Arena};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};
use rapidbleu_core::meteor::layout::ROW_LEN;
use rapidbleu_core::meteor::wordnet::locate;
use rapidbleu_core::meteor::MeteorOptions;
use std::path::PathBuf;

/// See the module documentation.
#[pyclass(frozen, eq, name = "MeteorOptions", module = "rapidbleu._core")]
#[derive(Clone, Debug)]
pub struct PyMeteorOptions {
    pub(crate) inner: MeteorOptions,
    wordnet: Option<String>,
}

impl PartialEq for PyMeteorOptions {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.inner, &other.inner);
        (a.alpha().to_bits(), a.beta().to_bits(), a.gamma().to_bits())
            == (b.alpha().to_bits(), b.beta().to_bits(), b.gamma().to_bits())
            && (a.lowercase(), a.stem()) == (b.lowercase(), b.stem())
            && self.wordnet == other.wordnet
    }
}

/// A real number option (an int or a float, not a bool), as NLTK's arithmetic uses it.
fn real_arg(obj: &Bound<'_, PyAny>) -> PyResult<f64> {
    if !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>())
    {
        if let Ok(v) = obj.extract::<f64>() {
            return Ok(v);
        }
    }
    Err(ErrorKind::InvalidOption.err(
        obj.py(),
        format!(
            "alpha, beta and gamma must be numbers (int or float), not {}",
            repr(obj)
        ),
    ))
}

#[pymethods]
impl PyMeteorOptions {
    /// Checks and stores METEOR's options (defaults: NLTK's `meteor_score`); `wordnet` is the
    /// folder of WordNet 3.0's files (`None`: no synonym stage).
    #[new]
    #[pyo3(signature = (*, alpha = None, beta = None, gamma = None, lowercase = true, stem = true, wordnet = None))]
    fn new(
        py: Python<'_>,
        alpha: Option<&Bound<'_, PyAny>>,
        beta: Option<&Bound<'_, PyAny>>,
        gamma: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = flag_arg)] lowercase: bool,
        #[pyo3(from_py_with = flag_arg)] stem: bool,
        wordnet: Option<String>,
    ) -> PyResult<Self> {
        guard(|| {
            let num = |v: Option<&Bound<'_, PyAny>>, default: f64| v.map_or(Ok(default), real_arg);
            let (alpha, beta, gamma) = (num(alpha, 0.9)?, num(beta, 3.0)?, num(gamma, 0.5)?);
            let wn = match &wordnet {
                Some(dir) => {
                    let dir = PathBuf::from(dir);
                    Some(run_detached(py, move || locate::shared(&dir))?)
                }
                None => None,
            };
            let inner = MeteorOptions::new(alpha, beta, gamma, lowercase, stem, wn);
            Ok(PyMeteorOptions { inner, wordnet })
        })
    }

    /// The first of `roots` (NLTK data folders: `nltk.data.path`; a root may be WordNet's
    /// folder itself), then with `defaults` of the core's default places (`$NLTK_DATA`,
    /// `~/nltk_data`, `/usr/share/nltk_data`, ..., Debian's `/usr/share/wordnet`), that holds
    /// WordNet: its folder. `MissingDependencyError` when none does, saying where it looked
    /// and how to get WordNet.
    #[staticmethod]
    #[pyo3(signature = (roots, defaults = true))]
    fn find_wordnet(roots: Vec<String>, defaults: bool) -> PyResult<String> {
        Python::attach(|py| {
            let mut all: Vec<PathBuf> = roots.into_iter().map(PathBuf::from).collect();
            if defaults {
                all.extend(locate::default_roots());
            }
            run_detached(py, move || locate::find(&all)).map(|p| p.display().to_string())
        })
    }

    /// Statistics rows `(n, 4)` of token lists: `hyps[i]` (a list of str) against `refs[i]`
    /// (a list of such lists), `[matches, chunks, hyp_len, ref_len]` of the reference that
    /// `meteor_score`'s `max` keeps.
    #[pyo3(signature = (hyps, refs, num_threads = 0))]
    fn tokens_statistics<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let not_list = |obj: &Bound<'py, PyAny>, what: &str| {
                ErrorKind::InputType
                    .err(py, format!("{what} must be a list, not {}", type_name(obj)))
            };
            let items = |obj: &Bound<'py, PyAny>,
                         what: &str,
                         f: &mut dyn FnMut(Bound<'py, PyAny>) -> PyResult<()>|
             -> PyResult<()> {
                if obj.is_instance_of::<PyString>() {
                    return Err(not_list(obj, what));
                }
                for_each_item(obj, |_, item| f(item))
                    .map_err(|e| e.unwrap_or_else(|| not_list(obj, what)))
            };
            // The texts are copied into flat arenas (see `tokens`): no per-list vector, no
            // reference kept per string.
            let mut hyp_arena = Arena::default();
            items(hyps, "hypotheses", &mut |h| {
                hyp_arena.push(&h, "a hypothesis")
            })?;
            let mut ref_arena = Arena::default();
            let mut group_ends = Vec::new();
            items(refs, "references", &mut |group| {
                items(&group, "each hypothesis's references", &mut |r| {
                    ref_arena.push(&r, "a reference")
                })?;
                group_ends.push(ref_arena.len());
                Ok(())
            })?;
            let (hyp_tokens, ref_tokens) = (hyp_arena.tokens(), ref_arena.tokens());
            let hyps: Vec<&[&str]> = (0..hyp_arena.len())
                .map(|k| hyp_arena.list(&hyp_tokens, k))
                .collect();
            let ref_lists: Vec<&[&str]> = (0..ref_arena.len())
                .map(|k| ref_arena.list(&ref_tokens, k))
                .collect();
            let mut start = 0;
            let refs: Vec<&[&[&str]]> = group_ends
                .iter()
                .map(|&end| {
                    let g = &ref_lists[start..end];
                    start = end;
                    g
                })
                .collect();
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
            let m = self.inner;
            let rows = run_detached(py, move || m.tokens_rows(&hyps, &refs, t))?;
            to_2d(py, rows, ROW_LEN)
        })
    }

    /// `alpha`: the weight of precision against recall.
    #[getter]
    fn alpha(&self) -> f64 {
        self.inner.alpha()
    }

    /// `beta`: the exponent of the fragmentation penalty.
    #[getter]
    fn beta(&self) -> f64 {
        self.inner.beta()
    }

    /// `gamma`: the weight of the fragmentation penalty.
    #[getter]
    fn gamma(&self) -> f64 {
        self.inner.gamma()
    }

    /// Whether tokens are lowercased (`preprocess=str.lower`).
    #[getter]
    fn lowercase(&self) -> bool {
        self.inner.lowercase()
    }

    /// Whether the Porter stem stage runs.
    #[getter]
    fn stem(&self) -> bool {
        self.inner.stem()
    }

    /// The WordNet folder of the synonym stage (`None`: no synonym stage).
    #[getter]
    fn wordnet(&self) -> Option<String> {
        self.wordnet.clone()
    }

    /// Values per statistics row: 4.
    #[getter]
    fn row_len(&self) -> usize {
        ROW_LEN
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        options_repr("MeteorOptions", &self.kwargs(py)?)
    }

    /// The keyword arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<NewArgs<'py>> {
        Ok((PyTuple::empty(py), self.kwargs(py)?))
    }
}

impl PyMeteorOptions {
    /// The keyword arguments that rebuild these options, in `__new__`'s order.
    fn kwargs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let kw = PyDict::new(py);
        kw.set_item("alpha", self.alpha())?;
        kw.set_item("beta", self.beta())?;
        kw.set_item("gamma", self.gamma())?;
        kw.set_item("lowercase", self.lowercase())?;
        kw.set_item("stem", self.stem())?;
        kw.set_item("wordnet", self.wordnet())?;
        Ok(kw)
    }
}
