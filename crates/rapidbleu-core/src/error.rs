//! Errors of the core. The Python glue maps each variant to a `rapidbleu.errors` class.

use std::fmt;

/// Everything that can go wrong in the core; no core function panics on user input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// An option value outside what is allowed (the message lists what is allowed).
    InvalidOption(String),
    /// Input whose shape or content cannot be scored (the message says where).
    InvalidInput(String),
    /// A segment without any reference.
    MissingReference(String),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::InvalidOption(m)
            | CoreError::InvalidInput(m)
            | CoreError::MissingReference(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CoreError {}
