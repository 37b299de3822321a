//! rapidbleu-core: sacreBLEU-exact metrics without Python.
//!
//! Laid out by concept:
//! - [`text`]: Python's whitespace and sacreBLEU's tokenizers, byte-identical;
//! - [`engine`]: what every metric shares: thread pools and workers, the small hash maps that
//!   intern tokens and n-grams, and sums of statistics rows of any width (significance tests);
//! - [`metric`]: the [`metric::Metric`] trait every metric implements (row width, segment
//!   statistics, scores of summed rows in float64 and float32), with default chunk, pairwise
//!   and resampling paths built on the engine;
//! - [`bleu`]: BLEU's per-segment sufficient statistics `[hyp_len, ref_len, correct_1..N,
//!   total_1..N]` and their scores, float operations in sacreBLEU's (or NLTK's) order;
//! - [`chrf`]: chrF and chrF++'s per-segment `[hyp, ref, match]` per character and word order,
//!   and their F scores in sacreBLEU's float order;
//! - [`ter`]: TER's Tercom tokenizer, beam edit distance and shift search, per-segment rows
//!   `[num_edits, ref_len_sum, num_refs]` and sacreBLEU's in-order float sum;
//! - [`caption`]: the COCO caption metrics as pycocoevalcap computes them: BLEU-1..4, ROUGE-L
//!   and CIDEr-D (also as a reward over document frequencies computed once);
//! - [`meteor`]: NLTK 3.10.4's METEOR (`meteor_score`): WordNet 3.0 read from its own files
//!   with NLTK's morphy, exact / Porter-stem / synonym matching, per-segment rows
//!   `[matches, chunks, hyp_len, ref_len]` and NLTK's float order;
//! - [`io`]: the command's input files read, decompressed, split into lines and checked as
//!   sacreBLEU's command reads them, a chunk ahead on a background thread.
//!
//! Statistics add, so corpus scores sum rows and score once.

pub mod bleu;
pub mod caption;
pub mod chrf;
pub mod corpus;
pub mod engine;
pub mod error;
pub mod io;
pub mod meteor;
pub mod metric;
pub mod rouge;
pub mod ter;
pub mod text;

pub use error::CoreError;
