//! Typed errors of the glue: [`ErrorKind`] names a `rapidbleu.errors` class, [`ErrorKind::err`]
//! raises it; every core error ([`core_err`]) and every panic ([`guard`], [`run_detached`])
//! becomes one of them.

use pyo3::prelude::*;
use pyo3::types::PyAnyMethods;
use rapidbleu_core::io::error::Passthrough;
use rapidbleu_core::io::ReadError;
use rapidbleu_core::CoreError;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The `rapidbleu.errors` classes the glue raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `InvalidOptionError`: an option value outside what is allowed.
    InvalidOption,
    /// `InputError`: input that cannot be scored as given.
    Input,
    /// `InputTypeError`: an input of the wrong type.
    InputType,
    /// `InputFileError`: an input file that cannot be opened or read.
    InputFile,
    /// `LengthMismatchError`: parallel inputs of different lengths.
    LengthMismatch,
    /// `EmptyInputError`: nothing to score.
    EmptyInput,
    /// `InvalidTextError`: text that is not valid Unicode.
    InvalidText,
    /// `MissingReferenceError`: a segment without any reference.
    MissingReference,
    /// `MissingDependencyError`: an optional library (MeCab, its dictionary) cannot be used.
    MissingDependency,
    /// `InternalError`: a bug (a panic caught at the boundary).
    Internal,
}

impl ErrorKind {
    /// The class's name in `rapidbleu.errors`.
    fn class_name(self) -> &'static str {
        match self {
            ErrorKind::InvalidOption => "InvalidOptionError",
            ErrorKind::Input => "InputError",
            ErrorKind::InputType => "InputTypeError",
            ErrorKind::InputFile => "InputFileError",
            ErrorKind::LengthMismatch => "LengthMismatchError",
            ErrorKind::EmptyInput => "EmptyInputError",
            ErrorKind::InvalidText => "InvalidTextError",
            ErrorKind::MissingReference => "MissingReferenceError",
            ErrorKind::MissingDependency => "MissingDependencyError",
            ErrorKind::Internal => "InternalError",
        }
    }

    /// This exception, with `msg`.
    pub fn err(self, py: Python<'_>, msg: impl Into<String>) -> PyErr {
        let made = py
            .import("rapidbleu.errors")
            .and_then(|m| m.getattr(self.class_name()))
            .and_then(|cls| cls.call1((msg.into(),)));
        match made {
            Ok(exc) => PyErr::from_value(exc),
            Err(e) => e,
        }
    }
}

/// Maps a core error to its exception class.
pub fn core_err(py: Python<'_>, e: CoreError) -> PyErr {
    match e {
        CoreError::InvalidOption(m) => ErrorKind::InvalidOption.err(py, m),
        CoreError::InvalidInput(m) | CoreError::TooLarge(m) => ErrorKind::Input.err(py, m),
        CoreError::MissingReference(m) => ErrorKind::MissingReference.err(py, m),
        CoreError::MissingData(m) => ErrorKind::MissingDependency.err(py, m),
    }
}

/// Maps a reading error to its exception class; an exception raised by a Python stream that
/// was read ([`Passthrough`]) is raised again as it was.
pub fn read_err(py: Python<'_>, e: ReadError) -> PyErr {
    match e {
        ReadError::File(m) => ErrorKind::InputFile.err(py, m),
        ReadError::InvalidText(m) => ErrorKind::InvalidText.err(py, m),
        ReadError::LengthMismatch(m) => ErrorKind::LengthMismatch.err(py, m),
        ReadError::Fields(m) => ErrorKind::Input.err(py, m),
        ReadError::Internal(m) => ErrorKind::Internal.err(py, m),
        ReadError::Stream { name, source } => {
            let msg = format!("{name}: cannot read ({source})");
            match source
                .into_inner()
                .map(|inner| inner.downcast::<Passthrough>())
            {
                Some(Ok(pass)) => match pass.0.downcast::<PyErr>() {
                    Ok(err) => *err,
                    Err(other) => {
                        ErrorKind::InputFile.err(py, format!("{name}: cannot read ({other})"))
                    }
                },
                _ => ErrorKind::InputFile.err(py, msg),
            }
        }
    }
}

/// A core error as its exception, where no `Python` token is at hand (every caller in the
/// glue holds the GIL, so attaching costs nothing).
pub fn raise(e: CoreError) -> PyErr {
    Python::attach(|py| core_err(py, e))
}

/// Lets `?` turn core errors into exceptions inside a [`guard`]ed body.
pub trait OrRaise<T> {
    /// The value, or the core error as its exception.
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, CoreError> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| core_err(py, e))
    }
}

/// The `InternalError` for a caught panic.
fn panic_err(py: Python<'_>, panic: Box<dyn std::any::Any + Send>) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    ErrorKind::Internal.err(
        py,
        format!("rapidbleu's Rust core failed ({what}); this is a bug, please report it"),
    )
}

/// Runs the body of an entry point (GIL held); a panic becomes `InternalError`, never a
/// `PanicException` (which derives from `BaseException` and would escape `except Exception`).
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|panic| Err(Python::attach(|py| panic_err(py, panic))))
}

/// Runs `f` with the GIL released; a core error becomes its exception, a panic
/// `InternalError`.
pub fn run_detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, CoreError> + Send,
) -> PyResult<T> {
    match py.detach(|| catch_unwind(AssertUnwindSafe(f))) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(core_err(py, e)),
        Err(panic) => Err(panic_err(py, panic)),
    }
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}
