//! Glue of `rapidbleu_core::chrf`: options, and chrF through the generic glue ([`metric`]:
//! statistics, sentence scores, chunks, scores of rows in float64 and float32, pairwise
//! matrices).

pub mod metric;
pub mod options;

use pyo3::prelude::*;

/// Adds chrF's class to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyChrfOptions>()?;
    Ok(())
}
