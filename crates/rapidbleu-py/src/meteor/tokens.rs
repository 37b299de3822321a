//! NLTK's input, token lists, read into one flat arena: every token's UTF-8 text borrowed from
//! its Python string (held by a strong reference until the arena drops), the lists as ranges.
//!
//! Performance decision: reading the token lists was most of `METEOR.token_scores`' time
//! (the scoring itself is a few hash probes a token). The general reader
//! ([`crate::corpus::collect`]) builds one vector per list and checks each list for NumPy and
//! Arrow layouts; here an exact `list` or `tuple` is read with one bounds-checked `get_item`
//! and one `PyUnicode_AsUTF8AndSize` per token into two flat vectors, so the cost is two
//! allocations per call, not several per list.

use crate::errors::{type_name, ErrorKind};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// Token lists read from Python (see the module documentation).
pub struct Arena<'py> {
    /// The token strings, kept alive while their texts are borrowed.
    held: Vec<Bound<'py, PyAny>>,
    /// `texts[i]` is the UTF-8 text of `held[i]`. `'static` only inside this type: the
    /// public methods hand the texts out for the arena's own lifetime.
    texts: Vec<&'static str>,
    /// List `k` is `texts[ends[k - 1]..ends[k]]` (`ends[-1]` = 0).
    ends: Vec<usize>,
}

impl<'py> Arena<'py> {
    /// An empty arena.
    pub fn new() -> Self {
        Arena {
            held: Vec::new(),
            texts: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Appends the token list `obj` (a sequence of str, not a str; named `what` in errors).
    pub fn push(&mut self, obj: &Bound<'py, PyAny>, what: &str) -> PyResult<()> {
        let py = obj.py();
        if let Ok(list) = obj.cast_exact::<PyList>() {
            // `get_item` is bounds-checked: a list shortened meanwhile (it cannot be, we hold
            // the GIL) would end the loop with an error, never read past its end.
            for i in 0..list.len() {
                self.token(list.get_item(i)?, what, i)?;
            }
        } else if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
            for (i, item) in tuple.iter().enumerate() {
                self.token(item, what, i)?;
            }
        } else if obj.is_instance_of::<PyString>() {
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} must be a list of tokens (str), as NLTK's meteor_score takes them, \
                     not a str"
                ),
            ));
        } else {
            let iter = obj.try_iter().map_err(|_| {
                ErrorKind::InputType.err(
                    py,
                    format!(
                        "{what} must be a list of tokens (str), not {}",
                        type_name(obj)
                    ),
                )
            })?;
            for (i, item) in iter.enumerate() {
                self.token(item?, what, i)?;
            }
        }
        self.ends.push(self.texts.len());
        Ok(())
    }

    /// Appends token `i` of `what`: a `str` with valid Unicode text.
    ///
    /// Performance decision: one `PyUnicode_AsUTF8AndSize` call both checks the type and
    /// reads the text (it fails on anything but a str, and on a lone surrogate); the error
    /// is told apart only when it happens.
    fn token(&mut self, item: Bound<'py, PyAny>, what: &str, i: usize) -> PyResult<()> {
        let mut len: ffi::Py_ssize_t = 0;
        // SAFETY: `item` is a live object (we hold a reference and the GIL).
        let data = unsafe { ffi::PyUnicode_AsUTF8AndSize(item.as_ptr(), &mut len) };
        if data.is_null() {
            let py = item.py();
            drop(PyErr::take(py));
            return Err(match item.cast::<PyString>() {
                Ok(s) => crate::corpus::to_str(s, what, i).err().unwrap_or_else(|| {
                    ErrorKind::InvalidText.err(py, format!("{what}[{i}] could not be read"))
                }),
                Err(_) => ErrorKind::InputType.err(
                    py,
                    format!("{what}[{i}] is {}; expected str", type_name(&item)),
                ),
            });
        }
        // SAFETY: CPython returned the string's UTF-8 buffer (valid UTF-8, `len` bytes: its
        // ASCII data or the UTF-8 copy it caches), which lives and stays unchanged as long as
        // the string does; the string is pushed to `held` and dropped only with the arena,
        // and the texts are only handed out borrowed from the arena (see `list`).
        let text: &'static str = unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                data.cast::<u8>(),
                len as usize,
            ))
        };
        self.texts.push(text);
        self.held.push(item);
        Ok(())
    }

    /// Number of lists.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// List `k`'s tokens.
    pub fn list(&self, k: usize) -> &[&str] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.texts[start..self.ends[k]]
    }
}
