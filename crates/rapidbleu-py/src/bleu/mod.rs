//! Glue of `rapidbleu_core::bleu`, file for file: options, statistics (text, reference cache,
//! token input), scores (float64, float32, NLTK's dialect) and pairwise BLEU.

pub mod nltk;
pub mod options;
pub mod pairwise;
pub mod ref_cache;
pub mod score;
pub mod score_f32;
pub mod stats;
pub mod tokens;

use pyo3::prelude::*;

/// Adds BLEU's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyBleuOptions>()?;
    m.add_class::<ref_cache::BleuReferenceCache>()?;
    stats::register(m)?;
    score::register(m)?;
    score_f32::register(m)?;
    tokens::register(m)?;
    nltk::register(m)?;
    pairwise::register(m)?;
    Ok(())
}
