//! Glue of `rapidbleu_core::chrf`, file for file: options, statistics (and fused sentence
//! scores), scores of rows (float64, and float32 for significance tests), pairwise matrices.

pub mod options;
pub mod pairwise;
pub mod score;
pub mod stats;

use pyo3::prelude::*;

/// Adds chrF's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyChrfOptions>()?;
    stats::register(m)?;
    score::register(m)?;
    pairwise::register(m)?;
    Ok(())
}
