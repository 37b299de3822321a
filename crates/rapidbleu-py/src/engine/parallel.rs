//! `num_threads` arguments -> the core's [`Threads`].

use crate::args::{as_i64, repr};
use crate::errors::{ErrorKind, OrRaise};
use pyo3::prelude::*;
use rapidbleu_core::engine::parallel::{invalid_threads, Threads};

/// A `num_threads` argument as an integer (its value is checked by [`threads`]).
///
/// Read with `from_py_with` rather than as a plain integer so that a bool, a float or an int
/// beyond 64 bits is the core's `InvalidOptionError`, not PyO3's `TypeError`/`OverflowError`
/// (NumPy integers are integers).
pub fn int_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    as_i64(obj).ok_or_else(|| {
        ErrorKind::InvalidOption.err(obj.py(), invalid_threads(repr(obj)).to_string())
    })
}

/// The core's thread count for a `num_threads` argument (0: all cores).
pub fn threads(py: Python<'_>, num_threads: i64) -> PyResult<Threads> {
    Threads::new(num_threads).or_raise(py)
}
