//! Glue of `rapidbleu_core::caption`, pycocoevalcap 1.2's caption metrics: COCO BLEU-1..n
//! ([`bleu`]) and ROUGE-L ([`rouge_l`]) through the generic glue, plus their per-image scores;
//! CIDEr-D ([`cider`]): the corpus evaluation, and document frequencies built once (an owned,
//! shared form of the core's borrowing scorer) for the reward.

pub mod bleu;
pub mod cider;
mod images;
pub mod rouge_l;

use pyo3::prelude::*;

/// Adds the caption metrics' classes to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bleu::PyCocoBleuOptions>()?;
    m.add_class::<rouge_l::PyCocoRougeOptions>()?;
    m.add_class::<cider::PyCiderDOptions>()?;
    m.add_class::<cider::PyCiderDocumentFrequency>()?;
    Ok(())
}
