//! Tokenizers whose work is done by another library that the core drives from its own threads.
//!
//! - [`mecab`]: sacreBLEU's `ja-mecab` and `ko-mecab`, run by MeCab's own C library (the one
//!   bundled in the mecab-python3 or mecab-ko wheel, loaded at run time), so that building
//!   rapidbleu needs no MeCab and the output is MeCab's own, byte for byte.

pub mod mecab;
mod mecab_ffi;
