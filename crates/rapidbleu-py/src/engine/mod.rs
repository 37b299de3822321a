//! Glue of `rapidbleu_core::engine`: thread counts ([`parallel`]) and resampled sums of
//! statistics rows of any width ([`rows`]).

pub mod parallel;
pub mod rows;
