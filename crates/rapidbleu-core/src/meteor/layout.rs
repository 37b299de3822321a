//! The per-segment statistics row: `[matches, chunks, hyp_len, ref_len]` of the reference
//! that scores best (as `meteor_score`'s `max` picks it). The sentence score is computed from
//! these integers in NLTK's float order ([`super::score::sentence_score`]).

/// Matched words (`len(matches)`).
pub const MATCHES: usize = 0;
/// Chunks of matches adjacent in both the hypothesis and the reference (`_count_chunks`; 0
/// when nothing matches, where NLTK's count of 1 is never used).
pub const CHUNKS: usize = 1;
/// Hypothesis words (`translation_length`).
pub const HYP_LEN: usize = 2;
/// The chosen reference's words (`reference_length`).
pub const REF_LEN: usize = 3;
/// Values per row.
pub const ROW_LEN: usize = 4;
