//! `_core.RougeOptions`: the core's [`RougeOptions`] as a frozen Python value, built once by
//! the ROUGE metric (which checks the rouge types there) and passed to every ROUGE function.

use crate::args::flag_arg;
use crate::errors::{ErrorKind, OrRaise};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::rouge::RougeOptions;

/// See the module documentation.
#[pyclass(frozen, eq, name = "RougeOptions", module = "rapidbleu._core")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyRougeOptions {
    pub(crate) inner: RougeOptions,
    names: Vec<String>,
}

#[pymethods]
impl PyRougeOptions {
    /// Options of rouge-score's `RougeScorer(rouge_types, use_stemmer)`.
    #[new]
    #[pyo3(signature = (rouge_types, use_stemmer = false))]
    fn new(
        py: Python<'_>,
        rouge_types: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = flag_arg)] use_stemmer: bool,
    ) -> PyResult<Self> {
        let bad = || {
            ErrorKind::InvalidOption.err(
                py,
                "rouge_types must be a list of str such as ['rouge1', 'rouge2', 'rougeL', \
                 'rougeLsum']",
            )
        };
        if rouge_types.is_instance_of::<PyString>() {
            return Err(bad());
        }
        let mut names: Vec<String> = Vec::new();
        for t in rouge_types.try_iter().map_err(|_| bad())? {
            let name = t?.extract::<String>().map_err(|_| bad())?;
            // A repeated type counts once (rouge-score's result is a dict), as in the core.
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let options = RougeOptions::new(&refs, use_stemmer).or_raise(py)?;
        Ok(PyRougeOptions {
            inner: options,
            names,
        })
    }

    /// The rouge types, as given (a repeated one once).
    #[getter]
    fn rouge_types(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Porter stemming of tokens longer than three letters.
    #[getter]
    fn use_stemmer(&self) -> bool {
        self.inner.stem
    }

    /// Values per statistics row: `[hits, prediction_count, target_count]` per rouge type.
    #[getter]
    fn row_len(&self) -> usize {
        self.inner.row_len()
    }

    /// Whether a rouge type needs sentences (`rougeLsum`).
    #[getter]
    fn needs_sentences(&self) -> bool {
        self.inner.needs_sentences()
    }

    /// Pickling: the arguments that rebuild these options.
    fn __getnewargs__(&self) -> (Vec<String>, bool) {
        (self.names.clone(), self.inner.stem)
    }

    fn __repr__(&self) -> String {
        format!(
            "RougeOptions(rouge_types={:?}, use_stemmer={})",
            self.names,
            if self.inner.stem { "True" } else { "False" }
        )
    }
}
