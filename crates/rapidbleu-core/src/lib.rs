//! rapidbleu-core: sacreBLEU-exact BLEU without Python.
//!
//! The pipeline is `tokenize` (sacreBLEU's tokenizers, byte-identical) -> `stats` (per-segment
//! sufficient statistics `[hyp_len, ref_len, correct_1..N, total_1..N]`, counted with `ngram`)
//! -> `score` (statistics to a score, float operations in sacreBLEU's order). Statistics add,
//! so corpus scores sum rows and score once.

pub mod error;
mod id_vocab;
pub mod ids;
pub mod ngram;
mod ngram_map;
pub mod nltk;
pub mod pairwise;
pub mod parallel;
pub mod resample;
pub mod score;
pub mod stats;
pub mod ter;
pub mod tokenize;
pub mod whitespace;

pub use error::CoreError;
