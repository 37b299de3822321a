//! sacreBLEU 2.6.0's TER (`sacrebleu/metrics/ter.py`, `lib_ter.py`,
//! `tokenizers/tokenizer_ter.py`), exact, without Python.
//!
//! The pipeline is [`TercomTokenizer`] (text to words) -> [`stats`] (words interned to `u32`
//! ids per segment; per reference [`translation_edit_rate`]: beam edit distance plus greedy
//! shift search; one int64 row `[num_edits, ref_len_sum, num_refs]` per segment) ->
//! [`score`] (rows to a score, in sacreBLEU's float order).
//!
//! **Lowercasing is the caller's.** sacreBLEU lowercases with Python's `str.lower()`, whose
//! Unicode tables are the interpreter's, so when `case_sensitive` is false the core expects
//! text that the caller has already lowercased (an ASCII-only string needs nothing: the core
//! lowercases ASCII letters itself, which `str.lower()` does identically). `str.lower()` and
//! `str.rstrip()` commute (no whitespace character has a case mapping, and no mapping produces
//! whitespace), so the caller may lowercase before the core's `rstrip()`.
//!
//! The statistics row keeps sacreBLEU's float term `ref_len_sum / num_refs` exact as two
//! integers; [`score`] derives it with Python's division and sums it in segment order.
//!
//! For the glue: build a [`TercomTokenizer`] from [`TerOptions`] once; fill an `n x ROW_LEN`
//! int64 buffer with [`corpus_stats`] (or one row with [`TerWorker::segment`]); score rows
//! with [`score::corpus_score`] / [`score::corpus_totals`] and [`score::ter_score`], and
//! bootstrap resamples with [`score::bootstrap_sums_f32`] / [`score::bootstrap_scores_f32`].
//! [`TercomTokenizer::tokenize`] / [`TercomTokenizer::preprocess`] give sacreBLEU's strings.

mod bit_dp;
mod edit_distance;
mod intern;
pub mod metric;
pub mod score;
mod shift;
pub mod stats;
#[cfg(test)]
mod tests;
mod tokenizer;

pub use shift::{translation_edit_rate, ShiftSearch, MAX_WORDS};
pub use stats::{corpus_stats, TerWorker, ROW_LEN};
pub use tokenizer::TercomTokenizer;

/// TER's options (the arguments of sacreBLEU's `TER(...)`), checked once by the caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TerOptions {
    /// `normalized`: Tercom's western normalisation (and the Asian one with `asian_support`).
    pub normalized: bool,
    /// `no_punct`: delete ASCII punctuation `.,?:;!"()` (and CJK punctuation with
    /// `asian_support`).
    pub no_punct: bool,
    /// `asian_support`: only has an effect together with `normalized` and/or `no_punct`.
    pub asian_support: bool,
    /// `case_sensitive`: when false, the input must already be lowercased by the caller
    /// (see the module documentation); the core lowercases ASCII letters only.
    pub case_sensitive: bool,
}
