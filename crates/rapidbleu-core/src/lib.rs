//! rapidbleu-core: sacreBLEU-exact metrics without Python.
//!
//! Laid out by concept:
//! - [`text`]: Python's whitespace and sacreBLEU's tokenizers, byte-identical;
//! - [`engine`]: what every metric shares: thread pools and workers, the small hash maps that
//!   intern tokens and n-grams, and sums of statistics rows of any width (significance tests);
//! - [`bleu`]: BLEU's per-segment sufficient statistics `[hyp_len, ref_len, correct_1..N,
//!   total_1..N]` and their scores, float operations in sacreBLEU's (or NLTK's) order;
//! - [`io`]: the command's input files read, decompressed, split into lines and checked as
//!   sacreBLEU's command reads them, a chunk ahead on a background thread.
//!
//! Statistics add, so corpus scores sum rows and score once.

pub mod bleu;
pub mod corpus;
pub mod engine;
pub mod error;
pub mod io;
pub mod text;

pub use error::CoreError;
