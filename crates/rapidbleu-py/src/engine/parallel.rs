//! `num_threads` arguments -> the core's [`Threads`].

use crate::errors::{ErrorKind, OrRaise};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use rapidbleu_core::engine::parallel::{invalid_threads, Threads};

/// A `num_threads` argument as an integer (its value is checked by [`threads`]).
///
/// Read with `from_py_with` rather than as a plain integer so that a bool, a float or an int
/// beyond 64 bits is the core's `InvalidOptionError`, not PyO3's `TypeError`/`OverflowError`.
pub fn int_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let bad = || {
        let repr = obj.repr().map(|r| r.to_string()).unwrap_or_default();
        ErrorKind::InvalidOption.err(obj.py(), invalid_threads(repr).to_string())
    };
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(bad());
    }
    obj.extract::<i64>().map_err(|_| bad())
}

/// The core's thread count for a `num_threads` argument (0: all cores).
pub fn threads(py: Python<'_>, num_threads: i64) -> PyResult<Threads> {
    Threads::new(num_threads).or_raise(py)
}
