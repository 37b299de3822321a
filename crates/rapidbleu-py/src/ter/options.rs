//! `_core.TerOptions`: the core's [`TerOptions`] and its [`TercomTokenizer`] as a frozen Python
//! value, built once by the TER metric and passed to every TER function.

use crate::args::{flag_arg, options_repr, NewArgs};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rapidbleu_core::ter::TerOptions;

/// See the module documentation.
#[pyclass(frozen, eq, hash, name = "TerOptions", module = "rapidbleu._core")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyTerOptions {
    pub(crate) inner: TerOptions,
}

#[pymethods]
impl PyTerOptions {
    /// TER's options (defaults: sacreBLEU's `TER()`); flags are read by truth value (the
    /// metric checks that they are booleans).
    #[new]
    #[pyo3(signature = (*, normalized = false, no_punct = false, asian_support = false,
                        case_sensitive = false))]
    fn new(
        #[pyo3(from_py_with = flag_arg)] normalized: bool,
        #[pyo3(from_py_with = flag_arg)] no_punct: bool,
        #[pyo3(from_py_with = flag_arg)] asian_support: bool,
        #[pyo3(from_py_with = flag_arg)] case_sensitive: bool,
    ) -> Self {
        PyTerOptions {
            inner: TerOptions {
                normalized,
                no_punct,
                asian_support,
                case_sensitive,
            },
        }
    }

    /// Tercom's normalisation.
    #[getter]
    fn normalized(&self) -> bool {
        self.inner.normalized
    }

    /// Punctuation removal.
    #[getter]
    fn no_punct(&self) -> bool {
        self.inner.no_punct
    }

    /// The Asian rules (with `normalized` and/or `no_punct`).
    #[getter]
    fn asian_support(&self) -> bool {
        self.inner.asian_support
    }

    /// No lowercasing.
    #[getter]
    fn case_sensitive(&self) -> bool {
        self.inner.case_sensitive
    }

    /// Values per statistics row: `[num_edits, ref_len_sum, num_refs]`.
    #[getter]
    fn row_len(&self) -> usize {
        rapidbleu_core::ter::ROW_LEN
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        options_repr("TerOptions", &self.kwargs(py)?)
    }

    /// The keyword arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<NewArgs<'py>> {
        Ok((PyTuple::empty(py), self.kwargs(py)?))
    }
}

impl PyTerOptions {
    /// The keyword arguments that rebuild these options, in `__new__`'s order.
    fn kwargs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let kw = PyDict::new(py);
        kw.set_item("normalized", self.inner.normalized)?;
        kw.set_item("no_punct", self.inner.no_punct)?;
        kw.set_item("asian_support", self.inner.asian_support)?;
        kw.set_item("case_sensitive", self.inner.case_sensitive)?;
        Ok(kw)
    }
}
