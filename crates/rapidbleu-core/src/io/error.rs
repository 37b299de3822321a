//! What can go wrong while reading the command's inputs, with the messages the command prints.
//!
//! The messages are sacreBLEU-command wording plus what rapidbleu adds (file, line, byte
//! offset, every file's line count); `tests/cli/test_cli_errors.py` matches fragments of them, and
//! the Python reader (`rapidbleu.io.reader`, used for other encodings) words them the same.

use std::fmt;
use std::io;

/// A reading error; each variant maps to one `rapidbleu.errors` class in the glue.
#[derive(Debug)]
pub enum ReadError {
    /// A file that cannot be opened, or whose compressed data is corrupt or truncated
    /// (`InputFileError`).
    File(String),
    /// The underlying stream failed (`source` is the stream's own error, e.g. a Python
    /// exception raised by a file object, which the glue re-raises as it is).
    Stream {
        /// The input's name.
        name: String,
        /// The stream's error.
        source: io::Error,
    },
    /// Bytes that are not UTF-8 (`InvalidTextError`).
    InvalidText(String),
    /// Inputs with different numbers of lines (`LengthMismatchError`).
    LengthMismatch(String),
    /// Lines that do not split into the fields asked for: `-nr` references, or the
    /// tab-separated systems of standard input (`InputError`).
    Fields(String),
    /// The background reader stopped unexpectedly (a bug; `InternalError`).
    Internal(String),
}

impl ReadError {
    /// The error of reading `name` that failed with `e` (`compressed`: through a decoder,
    /// whose failures mean corrupt or truncated data).
    pub fn reading(name: &str, e: io::Error, compressed: bool) -> Self {
        if compressed && e.get_ref().is_none_or(|inner| !inner.is::<Passthrough>()) {
            ReadError::File(format!("{name}: corrupt or truncated data ({e})"))
        } else {
            ReadError::Stream {
                name: name.to_string(),
                source: e,
            }
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::File(m)
            | ReadError::InvalidText(m)
            | ReadError::LengthMismatch(m)
            | ReadError::Fields(m)
            | ReadError::Internal(m) => f.write_str(m),
            ReadError::Stream { name, source } => write!(f, "{name}: cannot read ({source})"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Marks an error of a stream's own (say, a Python exception) so that decoders above it do not
/// relabel it as corrupt data: wrap it with [`Passthrough::error`].
#[derive(Debug)]
pub struct Passthrough(pub Box<dyn std::error::Error + Send + Sync>);

impl Passthrough {
    /// `inner` as an `io::Error` that reading passes through untouched.
    pub fn error(inner: impl std::error::Error + Send + Sync + 'static) -> io::Error {
        io::Error::other(Passthrough(Box::new(inner)))
    }
}

impl fmt::Display for Passthrough {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Passthrough {}

/// The error of opening `path` (`name` in messages), worded as Python's reader words it.
pub fn open_error(name: &str, e: &io::Error) -> ReadError {
    ReadError::File(match e.kind() {
        io::ErrorKind::NotFound => format!("{name}: no such file"),
        io::ErrorKind::IsADirectory => format!("{name}: is a directory, not a file"),
        io::ErrorKind::PermissionDenied => format!("{name}: permission denied"),
        _ => format!("{name}: cannot open ({})", strerror(e)),
    })
}

/// An OS error's text without Rust's ` (os error N)` suffix, as Python's `strerror` reads.
pub fn strerror(e: &io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if e.raw_os_error().is_some() => s[..i].to_string(),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_errors_as_python_words_them() {
        let nf = io::Error::from(io::ErrorKind::NotFound);
        assert_eq!(open_error("a.gz", &nf).to_string(), "a.gz: no such file");
        let too_many = io::Error::from_raw_os_error(24);
        assert_eq!(
            open_error("x", &too_many).to_string(),
            "x: cannot open (Too many open files)"
        );
    }

    #[test]
    fn stream_errors_pass_through_decoders() {
        let e = Passthrough::error(io::Error::other("closed"));
        assert!(matches!(
            ReadError::reading("stdin", e, true),
            ReadError::Stream { .. }
        ));
        let corrupt = io::Error::new(io::ErrorKind::InvalidInput, "corrupt deflate stream");
        assert_eq!(
            ReadError::reading("a.gz", corrupt, true).to_string(),
            "a.gz: corrupt or truncated data (corrupt deflate stream)"
        );
    }
}
