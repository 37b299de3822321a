//! Glue of `rapidbleu_core::ter`, file for file: options (with the Tercom tokenizer),
//! statistics rows and their scores (the in-order float sum, float32 bootstrap sums).

pub mod options;
pub mod score;
pub mod stats;
pub mod tokenizer;

use pyo3::prelude::*;

/// Adds TER's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyTerOptions>()?;
    tokenizer::register(m)?;
    stats::register(m)?;
    score::register(m)?;
    Ok(())
}
