//! Glue of `rapidbleu_core::bleu`: options, BLEU through the generic glue ([`metric`]:
//! statistics, sentence scores, chunks, scores of rows, pairwise matrices), and what only BLEU
//! has: the reference cache, token input, `compute_bleu` of separate counts, NLTK's dialect,
//! self-BLEU and MBR statistics.

pub mod metric;
pub mod nltk;
pub mod options;
pub mod pairwise;
pub mod ref_cache;
pub mod score;
pub mod tokens;

use pyo3::prelude::*;

/// Adds BLEU's classes to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyBleuOptions>()?;
    m.add_class::<ref_cache::BleuReferenceCache>()?;
    Ok(())
}
