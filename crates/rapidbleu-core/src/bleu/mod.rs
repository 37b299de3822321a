//! BLEU: per-segment sufficient statistics and their scores.
//!
//! The pipeline is tokenize (`crate::text`) -> count ([`ngram`], over a corpus in [`stats`], or
//! pre-tokenised input in [`tokens`]) -> score ([`score`]; [`score_f32`] for significance
//! tests, [`nltk`] for NLTK's dialect). [`pairwise`] scores many-to-many (matrices, self-BLEU,
//! MBR).

pub mod ngram;
pub mod nltk;
pub mod pairwise;
pub mod score;
pub mod score_f32;
pub mod stats;
pub mod tokens;
