//! `_core.ChrfOptions`: the core's [`ChrfOptions`] as a frozen Python value, built once by the
//! chrF metric and passed to every chrF function.
//!
//! Option values are checked by the core (`ChrfOptions::new`); the glue reads Python objects
//! into Rust types, raising the core's own messages (with the value as Python's `repr()`
//! spells it) for objects of the wrong type. `beta ** 2` is computed by Python's own `**`, as
//! sacreBLEU computes it (for a float, the C library's `pow`).

use crate::args::{flag_arg, options_repr, repr, NewArgs};
use crate::errors::{guard, raise, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyTuple};
use rapidbleu_core::chrf::options::{invalid_beta, invalid_order, ChrfOptions};
use std::hash::{Hash, Hasher};

/// `beta` as the caller gave it: its name in the score (`chrF2`, `chrF2.0`) depends on it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Beta {
    Int(i64),
    Float(f64),
}

/// See the module documentation.
#[pyclass(frozen, eq, hash, name = "ChrfOptions", module = "rapidbleu._core")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PyChrfOptions {
    pub(crate) inner: ChrfOptions,
    beta: Beta,
}

impl Hash for PyChrfOptions {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let o = &self.inner;
        (o.char_order(), o.word_order()).hash(state);
        // Checked finite and >= 0; `+ 0.0` normalises -0.0.
        (o.factor() + 0.0).to_bits().hash(state);
        (o.whitespace(), o.eps_smoothing(), o.lowercase_ascii()).hash(state);
    }
}

/// An order: an int (not a bool); beyond 64 bits it is out of bounds either way.
fn order_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i64> {
    let bad = || ErrorKind::InvalidOption.err(obj.py(), invalid_order(name, repr(obj)).to_string());
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(bad());
    }
    obj.extract::<i64>().map_err(|_| bad())
}

fn char_order_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    order_arg(obj, "char_order")
}

fn word_order_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    order_arg(obj, "word_order")
}

/// `beta` (an int, not a bool, or a float; finite, from 0 to 2**26) and Python's `beta ** 2`.
fn beta_arg(obj: &Bound<'_, PyAny>) -> PyResult<(Beta, f64)> {
    let py = obj.py();
    let bad = || ErrorKind::InvalidOption.err(py, invalid_beta(repr(obj)).to_string());
    let beta = if obj.is_instance_of::<PyBool>() {
        return Err(bad());
    } else if obj.is_instance_of::<PyInt>() {
        Beta::Int(obj.extract::<i64>().map_err(|_| bad())?)
    } else if obj.is_instance_of::<PyFloat>() {
        Beta::Float(obj.extract::<f64>()?)
    } else {
        return Err(bad());
    };
    let value = match beta {
        Beta::Int(v) => v as f64,
        Beta::Float(v) => v,
    };
    if !(0.0..=(1u64 << 26) as f64).contains(&value) {
        return Err(bad());
    }
    let factor: f64 = obj.pow(2, py.None())?.extract()?;
    Ok((beta, factor))
}

#[pymethods]
impl PyChrfOptions {
    /// Checks and stores chrF's options (defaults: sacreBLEU's `CHRF()`; `beta` is required:
    /// sacreBLEU's default, 2, is the metric's to give).
    #[new]
    #[pyo3(signature = (
        *,
        beta,
        char_order = 6,
        word_order = 0,
        lowercase = false,
        whitespace = false,
        eps_smoothing = false,
    ))]
    fn new(
        #[pyo3(from_py_with = beta_arg)] beta: (Beta, f64),
        #[pyo3(from_py_with = char_order_arg)] char_order: i64,
        #[pyo3(from_py_with = word_order_arg)] word_order: i64,
        #[pyo3(from_py_with = flag_arg)] lowercase: bool,
        #[pyo3(from_py_with = flag_arg)] whitespace: bool,
        #[pyo3(from_py_with = flag_arg)] eps_smoothing: bool,
    ) -> PyResult<Self> {
        guard(|| {
            let (beta, factor) = beta;
            let inner = ChrfOptions::new(
                char_order,
                word_order,
                factor,
                whitespace,
                eps_smoothing,
                lowercase,
            )
            .map_err(raise)?;
            Ok(PyChrfOptions { inner, beta })
        })
    }

    /// Character n-gram orders `1..=char_order`.
    #[getter]
    fn char_order(&self) -> usize {
        self.inner.char_order()
    }

    /// Word n-gram orders `1..=word_order` (2: chrF++).
    #[getter]
    fn word_order(&self) -> usize {
        self.inner.word_order()
    }

    /// `beta`, as given (an int or a float).
    #[getter]
    fn beta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.beta {
            Beta::Int(v) => v.into_pyobject(py)?.into_any(),
            Beta::Float(v) => v.into_pyobject(py)?.into_any(),
        })
    }

    /// `beta ** 2`, as Python computes it.
    #[getter]
    fn factor(&self) -> f64 {
        self.inner.factor()
    }

    /// Whether text is lowercased.
    #[getter]
    fn lowercase(&self) -> bool {
        self.inner.lowercase_ascii()
    }

    /// Whether whitespace characters are kept in character n-grams.
    #[getter]
    fn whitespace(&self) -> bool {
        self.inner.whitespace()
    }

    /// Whether scores are chrF++.py's mean of per-order F scores.
    #[getter]
    fn eps_smoothing(&self) -> bool {
        self.inner.eps_smoothing()
    }

    /// Values per statistics row: `3 * (char_order + word_order)`.
    #[getter]
    fn row_len(&self) -> usize {
        self.inner.row_len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        options_repr("ChrfOptions", &self.kwargs(py)?)
    }

    /// The keyword arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<NewArgs<'py>> {
        Ok((PyTuple::empty(py), self.kwargs(py)?))
    }
}

impl PyChrfOptions {
    /// The keyword arguments that rebuild these options, in `__new__`'s order.
    fn kwargs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let kw = PyDict::new(py);
        kw.set_item("char_order", self.char_order())?;
        kw.set_item("word_order", self.word_order())?;
        kw.set_item("beta", self.beta(py)?)?;
        kw.set_item("lowercase", self.lowercase())?;
        kw.set_item("whitespace", self.whitespace())?;
        kw.set_item("eps_smoothing", self.eps_smoothing())?;
        Ok(kw)
    }
}
