//! What every metric shares: running work over segments in parallel ([`parallel`]), the maps
//! that give tokens and n-grams dense segment-local codes ([`ngram_map`], [`id_vocab`]), and
//! resampled sums of statistics rows of any width ([`rows`]).

pub(crate) mod id_vocab;
pub(crate) mod ngram_map;
pub mod parallel;
pub mod rows;
