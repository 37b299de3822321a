//! One sequence of tokens or token IDs: a list (read by index), a tuple or other sequence
//! (item by item), a 1-D array or tensor (through its buffer), a masked array (without its
//! masked entries).

use super::arrays::{as_i64_array, is_torch_tensor, torch_to_numpy, typed};
use super::{set_kind, Collector, Indexed, Kind, Read};
use crate::errors::type_name;
use crate::errors::{ErrorKind, OrRaise};
use crate::sequence::{is_masked, is_sequence, not_a_sequence};
use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PyString, PyTuple};
use rapidbleu_core::error::reserve;
use std::fmt::Display;

/// Reads one sequence (`what` names it in messages) into `col`.
pub(super) fn push_seq<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
    read: Read,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<()> {
    let py = obj.py();
    let pad = read.pad;
    // Lists and tuples (the common case) skip the torch and NumPy checks.
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return push_list(obj, what, pad, kind, col, buf);
    }
    let (obj, torch_dtype) = if is_torch_tensor(obj) {
        let (arr, dtype) = torch_to_numpy(obj, what)?;
        (arr, Some(dtype))
    } else {
        (obj.clone(), None)
    };
    buf.clear();
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        if arr.ndim() == 1 && is_masked(arr)? {
            // A masked array's masked entries are not part of the sequence.
            let kept = obj.call_method0("compressed")?;
            return push_seq(&kept, what, read, kind, col, buf);
        }
        if arr.ndim() != 1 || arr.dtype().kind() == b'O' {
            if arr.ndim() == 1 {
                // An object array (e.g. of str): read item by item below.
                return push_list(&obj, what, pad, kind, col, buf);
            }
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} is a {}-D array; a sequence must be 1-D (give a batch as a 2-D \
                     integer array of hypotheses, with lengths or a padding id)",
                    arr.ndim()
                ),
            ));
        }
        let arr = as_i64_array(arr, what, torch_dtype.as_deref())?;
        let arr = typed::<PyArray1<i64>>(&arr, what)?.readonly();
        if arr.len() > 0 {
            set_kind(py, kind, Kind::Ids, what)?;
        }
        let view = arr.as_array();
        // An array's length comes from the input (a broadcast view can be far larger than
        // memory): room for its copy is made fallibly.
        col.ids.try_reserve(view.len()).or_raise(py)?;
        reserve(buf, view.len()).or_raise(py)?;
        if let (None, Some(ids)) = (pad, view.as_slice()) {
            // A contiguous array without padding is copied as one slice.
            col.end_seq(ids);
        } else {
            buf.extend(view.iter().copied().filter(|&t| Some(t) != pad));
            col.end_seq(buf);
        }
        return Ok(());
    }
    if read.str_chars && obj.is_instance_of::<PyString>() {
        // Iterating a str yields its characters, as `list(hypothesis)` does in NLTK.
        return push_list(&obj, what, pad, kind, col, buf);
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(ErrorKind::InputType.err(
            py,
            format!(
                "{what} is a {}; a pre-tokenised sequence is a list of str tokens or of int \
                 token IDs (split or encode the text first)",
                type_name(&obj)
            ),
        ));
    }
    push_list(&obj, what, pad, kind, col, buf)
}

/// Reads a generic Python sequence of int or str.
fn push_list<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
    pad: Option<i64>,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<()> {
    buf.clear();
    // A list is read by index, without the iterator protocol (most input is lists).
    if let Ok(list) = obj.cast::<PyList>() {
        buf.reserve(list.len());
        let (mut j, mut len) = (0, list.len());
        while j < len {
            // Performance decision: an exact int in an ID corpus (the common case) is read
            // without a reference count, the str check, the kind bookkeeping and the error
            // path of `push_item` (they were three quarters of reading a list of IDs).
            if *kind == Kind::Ids {
                // SAFETY: `j < len`, the list's current length.
                if let Some(id) = unsafe { exact_int_at(list, j) } {
                    if pad != Some(id) {
                        buf.push(id);
                    }
                    j += 1;
                    continue;
                }
            }
            push_item(list.get_item(j)?, &Indexed(what, j), pad, kind, col, buf)?;
            j += 1;
            // `push_item` may have run Python code (an `__index__`) that changed the list.
            len = list.len();
        }
    } else {
        let items = "int token IDs or str tokens";
        if !is_sequence(obj) {
            return Err(not_a_sequence(obj, what, items));
        }
        let iter = obj
            .try_iter()
            .map_err(|_| not_a_sequence(obj, what, items))?;
        for (j, item) in iter.enumerate() {
            push_item(item?, &Indexed(what, j), pad, kind, col, buf)?;
        }
    }
    col.end_seq(buf);
    Ok(())
}

/// `list[j]` if it is an exact `int` that fits in 64 bits.
///
/// # Safety
/// `j` must be below the list's length.
unsafe fn exact_int_at(list: &Bound<'_, PyList>, j: usize) -> Option<i64> {
    // SAFETY: the GIL is held (`list` is a `Bound`) and `j` is below the length, so
    // `PyList_GetItem` returns a valid borrowed pointer (never NULL); it is used only here,
    // where no Python code runs (converting an exact int calls no `__index__`), so the list
    // cannot drop it. `PyList_GetItem` rather than the `PyList_GET_ITEM` macro: the extension is
    // built for the stable ABI (abi3, one wheel for every CPython >= 3.10), which has no macro.
    unsafe {
        let item = pyo3::ffi::PyList_GetItem(list.as_ptr(), j as pyo3::ffi::Py_ssize_t);
        if item.is_null() {
            pyo3::ffi::PyErr_Clear();
            return None;
        }
        if pyo3::ffi::Py_TYPE(item) != std::ptr::addr_of_mut!(pyo3::ffi::PyLong_Type) {
            return None;
        }
        let mut overflow = 0;
        let id = pyo3::ffi::PyLong_AsLongLongAndOverflow(item, &mut overflow);
        (overflow == 0).then_some(id)
    }
}

/// Reads one token (`what` names it in messages): a str into `col`, an int into `buf`.
fn push_item<'py>(
    item: Bound<'py, PyAny>,
    what: &dyn Display,
    pad: Option<i64>,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<()> {
    let py = item.py();
    if let Ok(s) = item.cast::<PyString>() {
        set_kind(py, kind, Kind::Tokens, what)?;
        // One rule for text and tokens: a lone surrogate is not text (it has no UTF-8).
        if s.to_str().is_err() {
            return Err(ErrorKind::InvalidText.err(
                py,
                format!(
                    "{what} is not valid Unicode text (it contains a lone surrogate code point \
                     U+D800..U+DFFF); decode your input with errors='replace' or 'ignore'"
                ),
            ));
        }
        col.toks.push(item);
        return Ok(());
    }
    match item.extract::<i64>() {
        Ok(id) => {
            set_kind(py, kind, Kind::Ids, what)?;
            if pad != Some(id) {
                buf.push(id);
            }
            Ok(())
        }
        Err(_) if item.is_instance_of::<PyInt>() => Err(ErrorKind::Input.err(
            py,
            format!(
                "{what} = {} does not fit in a signed 64-bit token ID",
                item.repr().map(|r| r.to_string()).unwrap_or_default()
            ),
        )),
        Err(_) => {
            let msg = if item.extract::<f64>().is_ok() {
                format!(
                    "{what} is {} ({}); token IDs must be integers",
                    type_name(&item),
                    item.repr().map(|r| r.to_string()).unwrap_or_default()
                )
            } else {
                format!(
                    "{what} is {}; tokens must be str, token IDs int (64-bit)",
                    type_name(&item)
                )
            };
            Err(ErrorKind::InputType.err(py, msg))
        }
    }
}
