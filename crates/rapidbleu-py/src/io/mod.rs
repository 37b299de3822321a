//! Glue of `rapidbleu_core::io`: the command's files read in Rust ([`chunks`]), and Python
//! streams (standard input) read from Rust ([`source`]).

pub mod chunks;
pub mod source;

use pyo3::prelude::*;

/// Adds the reader's classes to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<chunks::ChunkReader>()?;
    m.add_class::<chunks::TextChunk>()?;
    Ok(())
}
