//! Glue of `rapidbleu_core::rouge`: options, ROUGE through the generic glue ([`metric`]: the
//! template's statistics, sentence scores, chunks, row scores, pairwise matrices, and its
//! in-order totals), the `rouge` package's and `rouge-chinese`'s options ([`pltrdy`]), the
//! Unicode tokenizer's rows (`unicode`), items read from Python (`items`), float totals shared
//! by ROUGE and pltrdy (`totals`), its own statistics of per-item targets with given sentences
//! or of tokens (a user tokenizer's), the tokenizer and stemmer on their own, and the bootstrap
//! means with NumPy's draws; and one `score(target, prediction)` call in one core call (`pair`).

mod bootstrap;
mod items;
pub mod jieba;
pub mod metric;
pub mod options;
mod pair;
pub mod pltrdy;
mod stats;
mod text;
mod totals;
mod unicode;
mod xlsum;

use pyo3::prelude::*;

/// Adds ROUGE's class to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<options::PyRougeOptions>()?;
    m.add_class::<pltrdy::PyPltrdyOptions>()?;
    m.add_class::<jieba::PyJiebaDict>()?;
    text::register(m)?;
    Ok(())
}
