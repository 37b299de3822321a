//! Python sequences of `str` -> borrowed `&str`, without copying text.
//!
//! Two phases: first collect owned references to the Python strings (so they stay alive while
//! the GIL is released, whatever other threads do to the containers), lowercasing non-ASCII
//! strings with Python's own `str.lower()` (whose Unicode version is the interpreter's, as in
//! sacreBLEU); then borrow their UTF-8 buffers. ASCII lowercasing happens later in Rust.

use crate::errors::rb_err;
use pyo3::prelude::*;
use pyo3::types::{PyAnyMethods, PyString};

/// Owned Python strings, `None` where a reference is missing.
pub type Owned<'py> = Vec<Option<Bound<'py, PyString>>>;

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Collects the items of `seq` (described as `what` in messages, e.g. `hypotheses`; formatted
/// only for a message, so a per-segment label costs nothing on the happy path).
pub fn collect<'py>(
    seq: &Bound<'py, PyAny>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    lowercase: bool,
) -> PyResult<Owned<'py>> {
    let py = seq.py();
    let iter = seq.try_iter().map_err(|_| {
        rb_err(
            py,
            "InputTypeError",
            format!("{what} must be a sequence of str, not {}", type_name(seq)),
        )
    })?;
    let mut out = Vec::with_capacity(seq.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        let item = item?;
        if item.is_none() && allow_none {
            out.push(None);
            continue;
        }
        let s = item.cast_into::<PyString>().map_err(|e| {
            let allowed = if allow_none { "str or None" } else { "str" };
            let obj = e.into_inner();
            rb_err(
                py,
                "InputTypeError",
                format!("{what}[{i}] is {}; expected {allowed}", type_name(&obj)),
            )
        })?;
        // Validating here, where the item's name is at hand, lets later borrows use `text`.
        let s = if lowercase && !to_str(&s, what, i)?.is_ascii() {
            s.call_method0("lower")?
                .cast_into::<PyString>()
                .map_err(PyErr::from)?
        } else {
            s
        };
        to_str(&s, what, i)?;
        out.push(Some(s));
    }
    Ok(out)
}

/// The UTF-8 text of `s`; a lone surrogate (not valid Unicode) is an `InvalidTextError`.
pub fn to_str<'a>(
    s: &'a Bound<'_, PyString>,
    what: impl std::fmt::Display,
    i: usize,
) -> PyResult<&'a str> {
    s.to_str().map_err(|_| {
        rb_err(
            s.py(),
            "InvalidTextError",
            format!(
                "{what}[{i}] is not valid Unicode text (it contains a lone surrogate code point \
                 U+D800..U+DFFF); decode your input with errors='replace' or 'ignore'"
            ),
        )
    })
}

/// The UTF-8 text of a string that [`collect`] has validated (so this cannot fail; PyO3
/// caches the UTF-8 form, so it costs nothing the second time).
pub fn text<'a>(s: &'a Bound<'_, PyString>) -> &'a str {
    s.to_str().unwrap_or_default()
}

/// Borrows every string of `owned` (collected without `None`).
pub fn borrow_all<'a>(owned: &'a Owned<'_>) -> Vec<&'a str> {
    owned.iter().map(|s| s.as_ref().map_or("", text)).collect()
}
