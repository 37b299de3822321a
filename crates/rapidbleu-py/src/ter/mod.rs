//! Glue of `rapidbleu_core::ter`: options (with the Tercom tokenizer), TER through the
//! generic glue ([`metric`]: statistics rows), and its own scores of rows (the in-order float
//! sum, float32 bootstrap sums).

pub mod metric;
pub mod options;
pub mod score;
pub mod tokenizer;

use pyo3::prelude::*;

/// Adds TER's class to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyTerOptions>()?;
    Ok(())
}
