//! Text as sacreBLEU sees it: Python's whitespace ([`whitespace`], its fast path in
//! `ascii_split`), sacreBLEU's tokenizers
//! ([`tokenize`]), and the tokenizers whose work is done by another library:
//!
//! - [`mecab`]: sacreBLEU's `ja-mecab` and `ko-mecab`, run by MeCab's own C library (the one
//!   bundled in the mecab-python3 or mecab-ko wheel, loaded at run time), so that building
//!   rapidbleu needs no MeCab and the output is MeCab's own, byte for byte.
//! - [`pieces`]: SentencePiece ids (from the sentencepiece package's batch encoder) joined into
//!   sacreBLEU's `" ".join(pieces)`.

mod ascii_split;
pub mod mecab;
mod mecab_ffi;
pub mod pieces;
pub mod tokenize;
pub mod whitespace;
