//! NLTK's input, token lists, read into one flat arena: every token's UTF-8 text copied into
//! one buffer, the tokens and the lists as ranges of it.
//!
//! Performance decision: reading the token lists was most of `METEOR.token_scores`' time
//! (the scoring itself is a few hash probes a token). The general reader
//! ([`crate::corpus::collect`]) builds one vector per list and checks each list for NumPy and
//! Arrow layouts; here an exact `list` or `tuple` is read by index (no iterator object, which
//! would count towards Python's garbage collector and start collections of the caller's
//! token lists) with one `PyUnicode_AsUTF8AndSize` per token, and the text is copied into one
//! buffer. Copying a word (a few bytes next to the string's header, already in cache) costs
//! less than keeping a strong reference to each string while the GIL is released (an
//! `Py_IncRef` and a late, cache-cold `Py_DecRef` a token), and leaves the core a compact
//! buffer to hash from.

use crate::errors::{type_name, ErrorKind};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// Token lists read from Python (see the module documentation).
#[derive(Default)]
pub struct Arena {
    /// Every token's text, one after the other.
    text: String,
    /// Token `t` is `text[token_ends[t - 1]..token_ends[t]]` (`token_ends[-1]` = 0).
    token_ends: Vec<usize>,
    /// List `k` is tokens `list_ends[k - 1]..list_ends[k]` (`list_ends[-1]` = 0).
    list_ends: Vec<usize>,
}

/// Calls `f` on each item of `obj`: an exact `list` or `tuple` by index, anything else
/// iterable through its iterator. `Err(None)` when `obj` is not iterable.
pub fn for_each_item<'py>(
    obj: &Bound<'py, PyAny>,
    mut f: impl FnMut(usize, Bound<'py, PyAny>) -> PyResult<()>,
) -> Result<(), Option<PyErr>> {
    if let Ok(list) = obj.cast_exact::<PyList>() {
        // `get_item` is bounds-checked: a list shortened meanwhile (by a token's `__del__`?
        // tokens are exact str, which have none) ends the loop with an error, never reads
        // past its end.
        let mut i = 0;
        while i < list.len() {
            f(i, list.get_item(i).map_err(Some)?).map_err(Some)?;
            i += 1;
        }
    } else if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
        for (i, item) in tuple.iter().enumerate() {
            f(i, item).map_err(Some)?;
        }
    } else {
        let iter = obj.try_iter().map_err(|_| None)?;
        for (i, item) in iter.enumerate() {
            f(i, item.map_err(Some)?).map_err(Some)?;
        }
    }
    Ok(())
}

impl Arena {
    /// Appends the token list `obj` (a sequence of str, not a str; named `what` in errors).
    pub fn push(&mut self, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
        let py = obj.py();
        if obj.is_instance_of::<PyString>() {
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} must be a list of tokens (str), as NLTK's meteor_score takes them, \
                     not a str"
                ),
            ));
        }
        let start = self.token_ends.len();
        let result = if let Ok(list) = obj.cast_exact::<PyList>() {
            self.list_tokens(list, what).map_err(Some)
        } else {
            for_each_item(obj, |i, item| self.token(&item, what, i))
        };
        if let Err(e) = result {
            // Leave no half-read list behind (the caller raises anyway).
            self.token_ends.truncate(start);
            return Err(e.unwrap_or_else(|| {
                ErrorKind::InputType.err(
                    py,
                    format!(
                        "{what} must be a list of tokens (str), not {}",
                        type_name(obj)
                    ),
                )
            }));
        }
        self.list_ends.push(self.token_ends.len());
        Ok(())
    }

    /// Appends the tokens of an exact `list`.
    ///
    /// Performance decision: each item is read borrowed (`PyList_GetItem`, no reference
    /// count change, two calls fewer a token): nothing runs Python code between the read and
    /// the copy of its text, so the list keeps the item alive; an item whose text cannot be
    /// read is taken as a strong reference to say why.
    fn list_tokens(&mut self, list: &Bound<'_, PyList>, what: &str) -> PyResult<()> {
        let mut i = 0;
        // The length is read at each step: bounds-checked as `get_item` is.
        while i < list.len() {
            // SAFETY: `list` is a live list (we hold a reference and the GIL) and `i` is
            // below its length; the result is borrowed from the list.
            let item = unsafe { ffi::PyList_GetItem(list.as_ptr(), i as ffi::Py_ssize_t) };
            if item.is_null() {
                return Err(PyErr::fetch(list.py()));
            }
            let mut len: ffi::Py_ssize_t = 0;
            // SAFETY: `item` is alive, held by the list, which no Python code can change
            // before its text is copied below (this thread holds the GIL and runs none).
            let data = unsafe { ffi::PyUnicode_AsUTF8AndSize(item, &mut len) };
            if data.is_null() {
                drop(PyErr::take(list.py()));
                // The error (or, were it read this time, the token) as `token` makes it.
                self.token(&list.get_item(i)?, what, i)?;
                i += 1;
                continue;
            }
            // SAFETY: CPython returned the string's UTF-8 buffer, alive while the list holds
            // the string; copied at once.
            unsafe { self.push_utf8(data, len) };
            i += 1;
        }
        Ok(())
    }

    /// Appends token `i` of `what`: a `str` with valid Unicode text.
    ///
    /// Performance decision: one `PyUnicode_AsUTF8AndSize` call both checks the type and
    /// reads the text (it fails on anything but a str, and on a lone surrogate); the error
    /// is told apart only when it happens.
    fn token(&mut self, item: &Bound<'_, PyAny>, what: &str, i: usize) -> PyResult<()> {
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
                    format!("{what}[{i}] is {}; expected str", type_name(item)),
                ),
            });
        }
        // SAFETY: CPython returned the string's UTF-8 buffer, alive while we hold `item` and
        // the GIL; it is copied before either is let go.
        unsafe { self.push_utf8(data, len) };
        Ok(())
    }

    /// Appends one token's text, copied from CPython's UTF-8 buffer of a string.
    ///
    /// # Safety
    /// `data` is the non-null result of `PyUnicode_AsUTF8AndSize` (valid UTF-8, `len` bytes:
    /// the string's ASCII data or the UTF-8 copy it caches), and the string stays alive until
    /// this returns.
    #[inline]
    unsafe fn push_utf8(&mut self, data: *const std::ffi::c_char, len: ffi::Py_ssize_t) {
        // SAFETY: as the caller guarantees.
        let text = unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                data.cast::<u8>(),
                len as usize,
            ))
        };
        self.text.push_str(text);
        self.token_ends.push(self.text.len());
    }

    /// Number of lists.
    pub fn len(&self) -> usize {
        self.list_ends.len()
    }

    /// Every token's text, in order (to be cut into lists by [`Arena::list`]).
    pub fn tokens(&self) -> Vec<&str> {
        let mut start = 0;
        self.token_ends
            .iter()
            .map(|&end| {
                let t = &self.text[start..end];
                start = end;
                t
            })
            .collect()
    }

    /// List `k`'s tokens, out of `tokens` (from [`Arena::tokens`]).
    pub fn list<'a>(&self, tokens: &'a [&'a str], k: usize) -> &'a [&'a str] {
        let start = if k == 0 { 0 } else { self.list_ends[k - 1] };
        &tokens[start..self.list_ends[k]]
    }
}
