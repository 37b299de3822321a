//! Glue of `rapidbleu_core::rouge`: options, statistics rows of text (the default tokenizer)
//! or of tokens (a user tokenizer's), the tokenizer and stemmer on their own, and the
//! bootstrap means with NumPy's draws.

mod bootstrap;
mod options;
mod stats;
mod text;

use pyo3::prelude::*;

/// Adds ROUGE's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyRougeOptions>()?;
    stats::register(m)?;
    text::register(m)?;
    bootstrap::register(m)?;
    Ok(())
}
