//! Core errors and panics -> `rapidbleu.errors` exceptions.

use pyo3::prelude::*;
use pyo3::types::PyAnyMethods;
use rapidbleu_core::CoreError;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// An exception of class `name` from `rapidbleu.errors`, with `msg`.
pub fn rb_err(py: Python<'_>, name: &str, msg: impl Into<String>) -> PyErr {
    let msg = msg.into();
    let made = py
        .import("rapidbleu.errors")
        .and_then(|m| m.getattr(name))
        .and_then(|cls| cls.call1((msg.clone(),)));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

/// Maps a core error to its exception class.
pub fn core_err(py: Python<'_>, e: CoreError) -> PyErr {
    match e {
        CoreError::InvalidOption(m) => rb_err(py, "InvalidOptionError", m),
        CoreError::InvalidInput(m) => rb_err(py, "InputError", m),
        CoreError::MissingReference(m) => rb_err(py, "MissingReferenceError", m),
    }
}

/// Runs `f` with the GIL released; a panic becomes `InternalError`, never a crash or a
/// `PanicException` (which derives from `BaseException` and would escape `except Exception`).
pub fn run_detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, CoreError> + Send,
) -> PyResult<T> {
    let out = py.detach(|| catch_unwind(AssertUnwindSafe(f)));
    match out {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(core_err(py, e)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(rb_err(
                py,
                "InternalError",
                format!("rapidbleu's Rust core failed ({what}); this is a bug, please report it"),
            ))
        }
    }
}
