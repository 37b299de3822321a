//! The command's inputs read as sacreBLEU's command reads them, fast: files opened and
//! decompressed by name ([`decompress`]), split into lines, stripped and checked as UTF-8
//! ([`lines`]) on every thread ([`split`]) into lists of lines ([`line_list`]), read together a chunk of aligned segments at a time ([`chunks`]), one chunk
//! ahead on a background thread ([`prefetch`]); with the messages of every reading error
//! ([`error`]).
//!
//! Other encodings than UTF-8, and `--encoding-errors` other than `strict`, are read by the
//! Python reader (`rapidbleu.io.reader`), whose decoders this does not reproduce.

pub mod chunks;
pub mod decompress;
pub mod error;
pub mod line_list;
pub mod lines;
pub mod prefetch;
pub mod split;

pub use chunks::{Chunk, ChunkReader, Systems};
pub use error::ReadError;
pub use lines::{LineReader, Lines, Newlines};
