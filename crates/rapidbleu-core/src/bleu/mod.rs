//! BLEU: per-segment sufficient statistics and their scores.
//!
//! - [`options`]: [`options::BleuOptions`], every option checked once;
//! - [`layout`]: the statistics row `[hyp_len, ref_len, correct_1..N, total_1..N]`;
//! - [`ngram`]: one segment's n-grams counted and clipped; [`ref_len`]: the reference length;
//! - [`stats`]: rows of a corpus (text), [`tokens`] (token IDs, str tokens), [`ref_cache`]
//!   (references tokenized once);
//! - [`score`]: rows to a score in sacreBLEU's float order; [`score_f32`] (significance
//!   tests), [`nltk`] (NLTK's dialect);
//! - [`pairwise`]: many-to-many (matrices, self-BLEU, MBR aggregation) over [`bags`];
//! - [`metric`]: sacreBLEU's BLEU as a [`crate::metric::Metric`], over the functions above.

pub mod bags;
pub mod layout;
pub mod metric;
pub mod ngram;
pub mod nltk;
pub mod options;
pub mod pairwise;
pub mod ref_cache;
pub mod ref_len;
pub mod score;
pub mod score_f32;
pub mod stats;
pub mod tokens;
