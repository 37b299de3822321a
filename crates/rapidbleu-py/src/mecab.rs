//! Glue for `rapidbleu_core::text::mecab`: the class `_core.MecabModel`.
//!
//! Python finds the MeCab library and builds the argument vector (see
//! `rapidbleu/tokenizers/mecab.py`); this file only loads, checks and runs, with the GIL
//! released while MeCab works.

use crate::corpus::{borrow_all, collect};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use pyo3::prelude::*;
use rapidbleu_core::text::mecab::{MecabError, MecabModel};
use std::path::PathBuf;

/// A MeCab error as the `rapidbleu.errors` exception that says what to do about it.
pub(crate) fn mecab_err(py: Python<'_>, e: MecabError) -> PyErr {
    let kind = match &e {
        MecabError::Library(_) | MecabError::Model(_) => ErrorKind::MissingDependency,
        MecabError::Argument(_) => ErrorKind::InvalidOption,
        MecabError::Parse { .. } => ErrorKind::Input,
    };
    kind.err(py, e.to_string())
}

/// A MeCab model (dictionary) of a given MeCab library, shared by the threads that tokenize.
#[pyclass(frozen, module = "rapidbleu._core", name = "MecabModel")]
pub(crate) struct PyMecabModel {
    inner: MecabModel,
}

impl PyMecabModel {
    /// The core's model.
    pub(crate) fn model(&self) -> &MecabModel {
        &self.inner
    }
}

#[pymethods]
impl PyMecabModel {
    /// Loads `library` and opens a model with MeCab's argument vector `args`.
    #[new]
    fn new(py: Python<'_>, library: PathBuf, args: Vec<String>) -> PyResult<Self> {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        // Opening maps the dictionary files: no Python object is touched meanwhile.
        guard(|| {
            run_detached(py, || Ok(MecabModel::open(&library, &argv)))?
                .map(|inner| PyMecabModel { inner })
                .map_err(|e| mecab_err(py, e))
        })
    }

    /// MeCab's version string (`mecab_version()`).
    #[getter]
    fn version(&self) -> String {
        self.inner.version()
    }

    /// The loaded dictionaries, system first: `(filename, charset, size, kind)` each.
    fn dictionaries(&self) -> Vec<(String, String, u32, i32)> {
        self.inner
            .dictionaries()
            .into_iter()
            .map(|d| (d.filename, d.charset, d.size, d.kind))
            .collect()
    }

    /// `parse(line.strip()).strip()` of every line, on `num_threads` threads (0: all cores).
    #[pyo3(signature = (lines, num_threads = 0))]
    fn tokenize(
        &self,
        py: Python<'_>,
        lines: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Vec<String>> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let owned = collect(lines, "lines", false, false)?;
            let strs = borrow_all(&owned);
            run_detached(py, || Ok(self.inner.tokenize::<String>(&strs, threads)))?
                .map_err(|e| mecab_err(py, e))
        })
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMecabModel>()
}
