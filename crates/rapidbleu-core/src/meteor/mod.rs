//! NLTK 3.10.4's METEOR (`nltk/translate/meteor_score.py`): `meteor_score` and
//! `single_meteor_score` on tokens, exactly.
//!
//! - [`wordnet`]: WordNet 3.0 read from its own files, NLTK's morphy, the synonym sets;
//! - [`lower`], [`stem`]: Python's `str.lower()` and NLTK's `PorterStemmer` on any word;
//! - [`align`]: the three matching stages and the chunk count (words numbered by
//!   `intern`);
//! - [`layout`], [`score`]: the row `[matches, chunks, hyp_len, ref_len]`, NLTK's float order
//!   and NumPy's mean;
//! - [`options`], [`metric`]: the parameters, the [`crate::metric::Metric`] implementation
//!   and the token-level entry points.

pub mod align;
mod intern;
pub mod layout;
pub mod lower;
pub mod metric;
pub mod options;
pub mod score;
pub mod stem;
pub mod wordnet;

pub use options::MeteorOptions;
pub use wordnet::WordNet;
