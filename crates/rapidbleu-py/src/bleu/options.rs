//! `_core.BleuOptions`: the core's [`BleuOptions`] as a frozen Python value, built once by
//! the BLEU metric and passed to every BLEU function.
//!
//! Option values are checked by the core (`BleuOptions::new` and the parsers it uses); the
//! glue only reads Python objects into Rust types, raising the core's own messages (with the
//! value as Python's `repr()` spells it) for objects of the wrong type.

use crate::args::{as_i64, flag_arg, options_repr, repr, NewArgs};
use crate::errors::{guard, raise, ErrorKind, OrRaise};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};
use rapidbleu_core::bleu::layout::invalid_max_order;
use rapidbleu_core::bleu::options::{
    invalid_smooth_value, unknown_smooth_method, BleuOptions, Smooth, Summation,
};
use rapidbleu_core::text::tokenize::{unknown_tokenizer, Tokenizer};
use rapidbleu_core::CoreError;
use std::hash::{Hash, Hasher};

/// See the module documentation.
#[pyclass(frozen, eq, hash, name = "BleuOptions", module = "rapidbleu._core")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PyBleuOptions {
    pub(crate) inner: BleuOptions,
}

impl Hash for PyBleuOptions {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let o = &self.inner;
        o.tokenizer().hash(state);
        o.lowercase().hash(state);
        o.max_order().hash(state);
        o.smooth().name().hash(state);
        // Values are finite (checked), so equal values have equal bits (but for 0.0 and
        // -0.0, which compare equal: normalised).
        o.smooth().value().map(|v| (v + 0.0).to_bits()).hash(state);
        o.effective_order().hash(state);
        o.summation().hash(state);
    }
}

/// A core message for an object of the wrong type, as an `InvalidOptionError`.
fn invalid(py: Python<'_>, e: CoreError) -> PyErr {
    ErrorKind::InvalidOption.err(py, e.to_string())
}

/// `tokenizer`: the name of a Rust tokenizer, parsed here once.
fn tokenizer_arg(obj: &Bound<'_, PyAny>) -> PyResult<Tokenizer> {
    match obj.cast::<PyString>().map(|s| s.to_str()) {
        Ok(Ok(name)) => Tokenizer::from_name(name).or_raise(obj.py()),
        _ => Err(invalid(obj.py(), unknown_tokenizer(repr(obj)))),
    }
}

/// `smooth_method`: a name, checked with the value by `Smooth::from_name`.
fn smooth_method_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    match obj.cast::<PyString>().map(|s| s.to_str()) {
        Ok(Ok(name)) => Ok(name.to_string()),
        _ => Err(invalid(obj.py(), unknown_smooth_method(repr(obj)))),
    }
}

/// `smooth_value`: `None`, or an int or float (not a bool) as a float.
fn smooth_value_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
    if obj.is_none() {
        return Ok(None);
    }
    let number = !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>());
    match obj.extract::<f64>() {
        Ok(v) if number => Ok(Some(v)),
        _ => Err(invalid(obj.py(), invalid_smooth_value(repr(obj)))),
    }
}

/// `max_order`: an integer (an int or a NumPy integer, not a bool); beyond 64 bits it is out
/// of bounds either way.
pub fn max_order_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Some(n) = as_i64(obj) {
        return Ok(n);
    }
    let integer = !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyInt>() || obj.call_method0("__index__").is_ok());
    let too_large = integer && obj.gt(0).unwrap_or(false);
    Err(invalid(obj.py(), invalid_max_order(repr(obj), too_large)))
}

#[pymethods]
impl PyBleuOptions {
    /// Checks and stores BLEU's options (defaults: sacreBLEU's `BLEU()`).
    #[new]
    #[pyo3(signature = (
        *,
        tokenizer = BleuOptions::DEFAULT.tokenizer(),
        lowercase = false,
        max_order = BleuOptions::DEFAULT.max_order() as i64,
        smooth_method = BleuOptions::DEFAULT.smooth().name().to_string(),
        smooth_value = None,
        effective_order = false,
        neumaier = false,
    ))]
    fn new(
        #[pyo3(from_py_with = tokenizer_arg)] tokenizer: Tokenizer,
        #[pyo3(from_py_with = flag_arg)] lowercase: bool,
        #[pyo3(from_py_with = max_order_arg)] max_order: i64,
        #[pyo3(from_py_with = smooth_method_arg)] smooth_method: String,
        #[pyo3(from_py_with = smooth_value_arg)] smooth_value: Option<f64>,
        #[pyo3(from_py_with = flag_arg)] effective_order: bool,
        #[pyo3(from_py_with = flag_arg)] neumaier: bool,
    ) -> PyResult<Self> {
        guard(|| {
            let smooth = Smooth::from_name(&smooth_method, smooth_value).map_err(raise)?;
            let summation = if neumaier {
                Summation::Neumaier
            } else {
                Summation::Plain
            };
            let inner = BleuOptions::new(
                tokenizer,
                lowercase,
                max_order,
                smooth,
                effective_order,
                summation,
            )
            .map_err(raise)?;
            Ok(PyBleuOptions { inner })
        })
    }

    /// The Rust tokenizer's name.
    #[getter]
    fn tokenizer(&self) -> &'static str {
        self.inner.tokenizer().name()
    }

    /// Whether text is lowercased.
    #[getter]
    fn lowercase(&self) -> bool {
        self.inner.lowercase()
    }

    /// The highest n-gram order N.
    #[getter]
    fn max_order(&self) -> usize {
        self.inner.max_order()
    }

    /// The smoothing method.
    #[getter]
    fn smooth_method(&self) -> &'static str {
        self.inner.smooth().name()
    }

    /// The smoothing value, defaults applied (`None` for `none` and `exp`).
    #[getter]
    fn smooth_value(&self) -> Option<f64> {
        self.inner.smooth().value()
    }

    /// Whether the geometric mean stops at the last order with hypothesis n-grams.
    #[getter]
    fn effective_order(&self) -> bool {
        self.inner.effective_order()
    }

    /// Whether `sum()` is compensated (CPython >= 3.12).
    #[getter]
    fn neumaier(&self) -> bool {
        self.inner.summation() == Summation::Neumaier
    }

    /// Values per statistics row: `2 + 2 * max_order`.
    #[getter]
    fn row_len(&self) -> usize {
        self.inner.layout().row_len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        options_repr("BleuOptions", &self.kwargs(py)?)
    }

    /// The keyword arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<NewArgs<'py>> {
        Ok((PyTuple::empty(py), self.kwargs(py)?))
    }
}

impl PyBleuOptions {
    /// The keyword arguments that rebuild these options, in `__new__`'s order.
    fn kwargs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let kw = PyDict::new(py);
        kw.set_item("tokenizer", self.tokenizer())?;
        kw.set_item("lowercase", self.lowercase())?;
        kw.set_item("max_order", self.max_order())?;
        kw.set_item("smooth_method", self.smooth_method())?;
        kw.set_item("smooth_value", self.smooth_value())?;
        kw.set_item("effective_order", self.effective_order())?;
        kw.set_item("neumaier", self.neumaier())?;
        Ok(kw)
    }
}
