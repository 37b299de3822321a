//! PyO3 glue: the extension module `rapidbleu._core`, laid out as the core is (`text`,
//! `corpus` + `read` for extraction, `engine`, `metric`, `bleu`, `chrf`, `ter`, `io`), plus
//! `items` (the per-item layout), `arrays` (NumPy in and out), `args` (option arguments) and
//! `errors` (typed `rapidbleu.errors` exceptions).
//!
//! `metric` is the glue generic over the core's `Metric` trait: the functions every metric
//! shares are written there once, and each metric's folder declares its set of them.
//!
//! Only glue lives here: Python objects are extracted with the GIL held, the core runs with
//! the GIL released (`py.detach`), and results are built after. Statistics leave as NumPy
//! arrays that own the Rust buffer (no copy, no per-segment Python object). Option values are
//! checked by the core; which options a metric takes, and their defaults, are Python's.

mod args;
mod arrays;
mod arrow;
mod arrow_items;
mod bleu;
mod caption;
mod chrf;
mod corpus;
mod engine;
mod errors;
mod groups;
mod io;
mod items;
mod line_cache;
mod mecab;
mod meteor;
mod metric;
mod pystr;
mod read;
mod rouge;
mod sequence;
mod spm;
mod ter;
mod text;
mod tokenized_lines;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    text::register(m)?;
    m.add_function(wrap_pyfunction!(items::split_items, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_items::split_arrow_items, m)?)?;
    engine::rows::register(m)?;
    bleu::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    rouge::register(m)?;
    meteor::register(m)?;
    caption::register(m)?;
    io::register(m)?;
    mecab::register(m)?;
    line_cache::register(m)?;
    tokenized_lines::register(m)?;
    spm::register(m)?;
    pystr::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
