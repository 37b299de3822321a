//! A Python binary stream (standard input, or any object with `read(n) -> bytes`) as a Rust
//! `Read`, for the background reader.
//!
//! Each `read` takes the GIL for one `stream.read(n)` call; the consumer releases the GIL while
//! it waits for a chunk, so the two never wait on each other. An exception raised by the stream
//! (e.g. "standard input is closed") travels through the core as a [`Passthrough`] error and is
//! raised again, unchanged, in the thread that iterates the reader.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rapidbleu_core::io::error::Passthrough;
use std::io::{self, Read};

/// See the module documentation.
pub struct PyStream {
    stream: Py<PyAny>,
}

impl PyStream {
    /// Reads `stream` (a binary file object).
    pub fn new(stream: Py<PyAny>) -> Self {
        PyStream { stream }
    }
}

impl Read for PyStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .stream
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(Passthrough::error)?;
            if data.is_none() {
                // A non-blocking stream with nothing to read yet; read() returns None.
                return Err(io::Error::from(io::ErrorKind::WouldBlock));
            }
            let bytes = data.cast::<PyBytes>().map_err(|_| {
                let what = data
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                io::Error::other(format!("read() returned {what}, not bytes"))
            })?;
            let src = bytes.as_bytes();
            // A stream that returns more than asked for breaks its contract; refuse it rather
            // than lose bytes.
            let asked = buf.len();
            let dst = buf.get_mut(..src.len()).ok_or_else(|| {
                io::Error::other(format!("read({asked}) returned {} bytes", src.len()))
            })?;
            dst.copy_from_slice(src);
            Ok(src.len())
        })
    }
}
