//! What every metric shares: running work over segments in parallel ([`parallel`]); the maps
//! that give tokens and n-grams dense codes (`token_map`, `ngram_map`, `id_vocab`), which
//! a metric counting character n-grams can use as BLEU uses them; and resampled sums of
//! statistics rows of any width ([`rows`]).

pub(crate) mod affinity;
pub(crate) mod id_vocab;
pub(crate) mod ngram_map;
pub mod parallel;
pub mod rows;
pub(crate) mod token_map;
