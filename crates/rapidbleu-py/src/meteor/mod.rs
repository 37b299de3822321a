//! Glue of `rapidbleu_core::meteor`: options ([`options`]: WordNet found and loaded once,
//! token statistics), token lists read flat ([`tokens`]) and METEOR through the generic glue
//! ([`metric`]).

pub mod metric;
pub mod options;
pub mod tokens;

use pyo3::prelude::*;

/// Adds METEOR's class to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyMeteorOptions>()?;
    Ok(())
}
