//! Arguments from Python, read with `from_py_with` so that a wrong value is a typed
//! `rapidbleu.errors` exception with a message, never PyO3's bare `TypeError`/`OverflowError`:
//! flags, integer options (`max_order`, `num_threads`) and the layout of token input
//! (`pad_id`, `lengths`, `ref_lengths`); and what every options class shares (`repr()` of a
//! value in messages, `__repr__` and pickling from the keywords that rebuild it).
//!
//! An integer is an `int` or anything with `__index__` (NumPy and torch integers), never a
//! `bool` (`True` as a thread count or a padding ID is a mistake, not a 1) and never a float.

use crate::errors::type_name;
use crate::errors::ErrorKind;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};

/// `repr(obj)`, for messages.
pub(crate) fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_default()
}

/// A flag, read by truth value (as Python's `if lowercase:` reads it).
pub fn flag_arg(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    obj.is_truthy()
}

/// An options class's `__repr__`: `Name(k=v, ...)` of the keyword arguments `kw` that
/// rebuild it, each value as Python's `repr()` spells it.
pub(crate) fn options_repr(name: &str, kw: &Bound<'_, PyDict>) -> PyResult<String> {
    let fields = kw
        .iter()
        .map(|(k, v)| Ok(format!("{}={}", k.str()?, v.repr()?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(format!("{name}({})", fields.join(", ")))
}

/// An options class's `__getnewargs_ex__`: no positional arguments, the keywords `kw`.
pub(crate) type NewArgs<'py> = (Bound<'py, PyTuple>, Bound<'py, PyDict>);

/// An integer argument as `i64`, or `None` when it is not an integer (see the module
/// documentation) or does not fit.
pub(crate) fn as_i64(obj: &Bound<'_, PyAny>) -> Option<i64> {
    // PyO3 reads an i64 through `__index__` (`PyLong_AsLongLong`), which floats and NumPy's
    // bool refuse; Python's bool is an int subclass and is refused here.
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    obj.extract::<i64>().ok()
}

/// A `pad_id` argument: `None`, or a token ID (a signed 64-bit integer).
pub fn pad_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if obj.is_none() {
        return Ok(None);
    }
    as_i64(obj).map(Some).ok_or_else(|| {
        ErrorKind::InvalidOption.err(
            obj.py(),
            format!(
                "pad_id must be an integer token ID from -2**63 to 2**63 - 1 (or None), got {}",
                repr(obj)
            ),
        )
    })
}

/// The row lengths of one 2-D array (`what` names the argument): a sequence (list, tuple,
/// 1-D array or tensor) of integers from 0 to 2**63 - 1.
fn lengths_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
    let py = obj.py();
    let not_seq = || {
        ErrorKind::InvalidOption.err(
            py,
            format!(
                "{what} must be a sequence of row lengths (integers from 0 to 2**63 - 1), not {}",
                type_name(obj)
            ),
        )
    };
    if obj.is_instance_of::<PyString>() {
        return Err(not_seq());
    }
    let iter = obj.try_iter().map_err(|_| not_seq())?;
    let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        let item = item?;
        match as_i64(&item) {
            Some(n) if n >= 0 => out.push(n),
            _ => {
                return Err(ErrorKind::InvalidOption.err(
                    py,
                    format!(
                        "{what}[{i}] is {}; a row length is an integer from 0 to 2**63 - 1",
                        repr(&item)
                    ),
                ))
            }
        }
    }
    Ok(out)
}

/// A `lengths` argument (the row lengths of a 2-D hypotheses array), or `None`.
pub fn lengths_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i64>>> {
    if obj.is_none() {
        return Ok(None);
    }
    lengths_of(obj, "lengths").map(Some)
}

/// A `ref_lengths` argument: per reference list (stream, or a segment's references), the row
/// lengths of its 2-D array, or `None` for a list that is not a 2-D array.
pub fn ref_lengths_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Option<Vec<i64>>>>> {
    if obj.is_none() {
        return Ok(None);
    }
    let py = obj.py();
    let iter = obj
        .try_iter()
        .ok()
        .filter(|_| !obj.is_instance_of::<PyString>());
    let iter = iter.ok_or_else(|| {
        ErrorKind::InvalidOption.err(
            py,
            format!(
                "ref_lengths must be a list with, per reference list, its row lengths or None; \
                 not {}",
                type_name(obj)
            ),
        )
    })?;
    let mut out = Vec::new();
    for (k, item) in iter.enumerate() {
        let item = item?;
        out.push(if item.is_none() {
            None
        } else {
            Some(lengths_of(&item, &format!("ref_lengths[{k}]"))?)
        });
    }
    Ok(Some(out))
}
